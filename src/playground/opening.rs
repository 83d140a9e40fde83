//! Which session the playground opens: the one a link asks for when the page loads, a scenario
//! picked from the library, and (the `live` feature) a live run saved as a scenario file. Every
//! lookup of the scenario library by id goes through here.

use super::link::Link;
use super::page;
use super::scenarios;
use super::session::{Session, Slot};

/// What the player (built without the `live` feature) says to `live=1`.
#[cfg(not(feature = "live"))]
pub const NO_LIVE_VIEW: &str = "This player does not follow a server: the live view is the page \
sqs-sim serve serves (./play live, then http://127.0.0.1:9324/).";

/// The session a link asks for: a live session (`live=1`, in the bundle `sqs-sim serve`
/// serves), a permalink's session, else its scenario (the sandbox if none or unknown) at its
/// speed and start time, playing if asked. What cannot be honoured is said by the scenario
/// picker.
pub fn start_session(link: &Link) -> Session {
    let o = &link.options;
    let sandbox = || {
        Session::open(scenarios::sandbox(false))
            .unwrap_or_else(|e| panic!("the sandbox does not load: {e}"))
    };
    let mut problems = link.warnings.clone();
    #[cfg(not(feature = "live"))]
    if o.live {
        problems.push(NO_LIVE_VIEW.to_string());
    }
    let mut session = match &link.session {
        #[cfg(feature = "live")]
        _ if o.live => Session::live(&page::host()),
        Some(Ok(shared)) => Session::restore(shared).unwrap_or_else(|e| {
            problems.push(format!("This link cannot be opened: {e}"));
            sandbox()
        }),
        Some(Err(e)) => {
            problems.push(format!("This link cannot be opened: {e}"));
            sandbox()
        }
        None => {
            let wanted = o.scenario.as_deref().unwrap_or(scenarios::SANDBOX);
            let found = scenarios::find(wanted).and_then(|s| Session::open(s).ok());
            found.unwrap_or_else(|| {
                problems.push(format!(
                    "There is no scenario \"{wanted}\": this is the sandbox."
                ));
                sandbox()
            })
        }
    };
    if let Some(speed) = o.speed {
        session.set_speed(speed);
    }
    if let Some(t) = o.start_at {
        session.seek(t);
    }
    // After the seek: `t=` opens at its moment, the questions before it not asked.
    if let Some(lesson) = o.lesson {
        session.set_lesson(lesson);
    }
    if o.autoplay {
        session.play();
    }
    if !problems.is_empty() {
        session.report(Slot::Scenario, problems.join(" "));
    }
    session
}

/// Opens the library's scenario `id` in `s` (the picker's choice) and puts it in the page's
/// address; false, changing nothing, when the library has no such scenario.
pub fn open_scenario(s: &mut Session, id: &str) -> bool {
    let Some(scenario) = scenarios::find(id) else {
        return false;
    };
    s.switch(scenario);
    page::remember_scenario(id);
    true
}

/// "Save as scenario" in live mode: downloads the run recorded (or, `previous`, the one before
/// the server started again) as a scenario file. Nothing to save is no error.
#[cfg(feature = "live")]
pub fn save_run(s: &Session, previous: bool) -> Result<(), String> {
    let shared = match previous {
        true => s.previous_run().cloned(),
        false => Some(s.recorded()),
    };
    let Some(shared) = shared else {
        return Ok(());
    };
    let scenario = shared.resolve(scenarios::find)?;
    let text = crate::share::export::session_file_text(&shared, &scenario);
    crate::share::browser::download("sqs-sim-recording.json", "application/json", &text)
}
