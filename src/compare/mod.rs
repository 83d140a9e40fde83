//! Compare: two copies of one library scenario and seed side by side (stacked on a phone), each
//! with its own settings ([`sqs_sim::compare::Variant`]), on one clock, over a table of what
//! differs. Each copy is a playground [`Session`] on the scenario with its settings applied,
//! drawn with the playground's stage components; copy A's clock drives both (B follows it to
//! the same instant every frame). Applying a setting rebuilds that copy from 12:00:00 on the
//! same seed and replays it to the clock. Opened by `?scenario=<id>&compare=<A>,<B>`, which is
//! also the comparison's permalink (`t` and `speed` carry the clock).

pub mod copy;
pub mod table;

use crate::playground::components::controls::{Clock, Controls};
use crate::playground::components::queue::Idle;
use crate::playground::link::Link;
use crate::playground::session::{Session, Slot};
use crate::playground::stage::Stage;
use crate::playground::state::Redrawn;
use crate::playground::{apply_theme, relay, scenarios, story};
use crate::share::embed::{self, HostCommand};
use crate::share::{bridge, browser};
use copy::{CopyView, Field};
use sqs_engine::Millis;
use sqs_sim::compare::{self, Figures, Refusal, Row, Setting, Variant};
use sqs_sim::{Effect, Scenario};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The copies' names, as the page and the table call them.
pub const NAMES: [&str; 2] = ["A", "B"];
/// Duplicate side effects listed under a copy (the latest).
const DUPLICATES_SHOWN: usize = 3;

/// Why a link's `compare=` cannot open a comparison, if it cannot: it needs a library scenario
/// with a script.
pub fn unavailable(link: &Link) -> Option<String> {
    link.options.compare.as_ref()?;
    let ignored = "Ignored compare: it compares two copies of a library scenario with a script";
    let Some(id) = link.options.scenario.as_deref() else {
        return Some(format!("{ignored} (add scenario=<id>)."));
    };
    match scenarios::find(id) {
        Some(s) if s.duration() > 0 && scenarios::in_library(id) => None,
        Some(_) => Some(format!("{ignored}, and \"{id}\" is a sandbox.")),
        None => Some(format!("{ignored}, and there is no scenario \"{id}\".")),
    }
}

/// The address of a comparison of scenario `id`: `?scenario=…&compare=A,B`, then the clock's
/// `t` and `speed` when given.
pub fn href(id: &str, variants: [&Variant; 2], clock: Option<(Millis, f64)>) -> String {
    let mut out = format!("?scenario={id}&compare={},{}", variants[0], variants[1]);
    if let Some((t, speed)) = clock {
        out.push_str(&format!("&t={}&speed={speed}", t as f64 / 1000.0));
    }
    out
}

/// One copy: its settings, the scenario with them, and its session.
struct Copy {
    variant: Variant,
    session: Session,
}

impl Copy {
    /// A copy of `base` with `variant`, paused at 12:00:00; a refusal changes nothing.
    fn open(base: &Scenario, variant: Variant) -> Result<Copy, Refusal> {
        let applied = variant.apply(base)?;
        let session = Session::open(applied).map_err(|message| Refusal {
            setting: String::new(),
            message,
        })?;
        Ok(Copy { variant, session })
    }
}

/// What the user does.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Start the clock.
    Play,
    /// Stop it.
    Pause,
    /// Jump both copies to the next instant at which something happens in either.
    Step,
    /// Set the speed.
    Speed(f64),
    /// Move both copies to a virtual instant.
    Seek(Millis),
    /// An animation frame at this wall time.
    Frame(f64),
    /// A setting's field as typed: (copy, setting, text).
    Type(usize, String, String),
    /// Open or close a copy's settings form.
    Edit(usize),
    /// Rebuild a copy with its fields as typed.
    Apply(usize),
    /// The link was copied (or why not).
    Copied(Result<(), String>),
}

impl From<Clock> for Action {
    fn from(clock: Clock) -> Action {
        match clock {
            Clock::Play => Action::Play,
            Clock::Pause => Action::Pause,
            Clock::Step => Action::Step,
            Clock::Speed(speed) => Action::Speed(speed),
            Clock::Seek(t) => Action::Seek(t),
        }
    }
}

/// The comparison's state: the copies (shared, changed in place) and what is drawn of them.
#[derive(Clone)]
pub struct State {
    copies: Rc<RefCell<[Copy; 2]>>,
    /// The scenario as the library has it.
    base: Rc<Scenario>,
    beats: Rc<Vec<story::Beat>>,
    stages: [Rc<Stage>; 2],
    rows: Rc<Vec<Row>>,
    duplicates: [Rc<Vec<Effect>>; 2],
    /// Fields as typed, per copy, until applied.
    typed: [Vec<(String, String)>; 2],
    /// Why a copy's last settings were refused.
    refusals: [Option<Refusal>; 2],
    /// Whether a copy's settings form is open (a refusal opens it).
    editing: [bool; 2],
    /// Whether the link was copied, once asked.
    copied: Option<Result<(), String>>,
    embed: bool,
}

impl State {
    /// The comparison a link asks for ([`unavailable`] says None to it).
    fn open(link: &Link) -> State {
        apply_theme(link.options.theme);
        let o = &link.options;
        let base = o
            .scenario
            .as_deref()
            .and_then(scenarios::find)
            .unwrap_or_else(|| scenarios::sandbox(false));
        let (a, b) = o.compare.clone().unwrap_or_default();
        let mut typed: [Vec<(String, String)>; 2] = Default::default();
        let mut refusals: [Option<Refusal>; 2] = Default::default();
        let mut open = |i: usize, asked: Variant| {
            Copy::open(&base, asked.clone()).unwrap_or_else(|refusal| {
                // Refused: the copy runs the scenario as it is, its fields show what was asked.
                typed[i] = asked
                    .settings()
                    .iter()
                    .map(|s| (s.name().to_string(), s.value()))
                    .collect();
                refusals[i] = Some(refusal);
                Copy::open(&base, Variant::default()).expect("a library scenario opens")
            })
        };
        let copies = [open(0, a), open(1, b)];
        let beats = Rc::new(story::beats(&base.watch, base.duration()));
        let mut state = State {
            copies: Rc::new(RefCell::new(copies)),
            base: Rc::new(base),
            beats,
            stages: Default::default(),
            rows: Rc::default(),
            duplicates: Default::default(),
            typed,
            editing: refusals.each_ref().map(Option::is_some),
            refusals,
            copied: None,
            embed: o.embed || !o.controls,
        };
        {
            let mut copies = state.copies.borrow_mut();
            let [a, b] = &mut *copies;
            if let Some(speed) = o.speed {
                a.session.set_speed(speed);
            }
            if let Some(t) = o.start_at {
                a.session.seek(t);
                b.session.seek(t);
            }
            if o.autoplay {
                a.session.play();
            }
        }
        state.redraw();
        state
    }
}

impl Redrawn for State {
    type Action = Action;

    /// Draws the stages, the duplicates and the table from the copies as they are now.
    fn redraw(&mut self) {
        let copies = self.copies.borrow();
        for (i, copy) in copies.iter().enumerate() {
            let s = &copy.session;
            self.stages[i] = Rc::new(Stage::build(s.world(), &s.journal, &self.stages[i]));
            let duplicates = s.world().ledger().effects.iter().filter(|e| e.duplicate);
            let mut latest: Vec<Effect> =
                duplicates.rev().take(DUPLICATES_SHOWN).cloned().collect();
            latest.reverse();
            if *self.duplicates[i] != latest {
                self.duplicates[i] = Rc::new(latest);
            }
        }
        let [a, b] = &*copies;
        let rows = compare::rows(
            &Figures::of(a.session.world()),
            &Figures::of(b.session.world()),
        );
        if *self.rows != rows {
            self.rows = Rc::new(rows);
        }
    }

    /// Applies an action; returns whether anything shown changed.
    fn apply(&mut self, action: Action) -> bool {
        let mut copies = self.copies.borrow_mut();
        let [a, b] = &mut *copies;
        match action {
            Action::Frame(wall) => {
                let before = (a.session.drawn(), b.session.drawn());
                a.session.tick(wall);
                b.session.follow(a.session.now(), wall);
                return before != (a.session.drawn(), b.session.drawn());
            }
            Action::Play => a.session.play(),
            Action::Pause => a.session.pause(),
            Action::Speed(v) => a.session.set_speed(v),
            Action::Step => {
                let now = a.session.now();
                let next = [&a.session, &b.session]
                    .iter()
                    .filter_map(|s| s.world().next_deadline())
                    .min();
                match next {
                    Some(t) => {
                        a.session.pause();
                        let t = t.max(now + 1);
                        a.session.seek(t);
                        b.session.seek(t);
                    }
                    // Says that nothing is scheduled, by the clock.
                    None => a.session.step(),
                }
            }
            Action::Seek(t) => {
                a.session.seek(t);
                b.session.seek(t);
            }
            Action::Type(i, name, value) => {
                let typed = &mut self.typed[i];
                typed.retain(|(n, _)| *n != name);
                typed.push((name, value));
            }
            Action::Edit(i) => self.editing[i] = !self.editing[i],
            Action::Apply(i) => {
                drop(copies);
                self.rebuild(i);
            }
            Action::Copied(result) => self.copied = Some(result),
        }
        true
    }
}

impl State {
    /// Rebuilds copy `i` with its fields as typed, from 12:00:00 up to the clock; a refused
    /// setting shows by its field and changes nothing.
    fn rebuild(&mut self, i: usize) {
        let mut copies = self.copies.borrow_mut();
        let mut variant = copies[i].variant.clone();
        for (name, text) in &self.typed[i] {
            match Setting::parse(name, text) {
                Ok(setting) => variant.set(setting),
                Err(message) => {
                    self.refusals[i] = Some(Refusal {
                        setting: name.clone(),
                        message,
                    });
                    return;
                }
            }
        }
        match Copy::open(&self.base, variant) {
            Ok(mut fresh) => {
                let clock = &copies[0].session;
                let (now, speed, playing) = (clock.now(), clock.speed(), clock.playing());
                fresh.session.set_speed(speed);
                fresh.session.seek(now);
                if i == 0 && playing {
                    fresh.session.play();
                }
                copies[i] = fresh;
                self.typed[i].clear();
                self.refusals[i] = None;
                self.editing[i] = false;
            }
            Err(refusal) => self.refusals[i] = Some(refusal),
        }
    }

    /// The fields of copy `i`: each setting it offers, as typed or as the copy has it.
    fn fields(&self, i: usize) -> Vec<Field> {
        let copies = self.copies.borrow();
        let copy = &copies[i];
        let scenario = copy.session.scenario();
        compare::offered(scenario, &copy.variant)
            .into_iter()
            .map(|name| {
                let typed = self.typed[i].iter().find(|(n, _)| *n == name);
                let value = typed.map(|(_, v)| v.clone()).unwrap_or_else(|| {
                    compare::value_in(scenario, copy.session.world(), &name).unwrap_or_default()
                });
                let refusal = self.refusals[i]
                    .as_ref()
                    .filter(|r| r.setting == name)
                    .map(|r| r.message.clone());
                Field {
                    name,
                    value,
                    refusal,
                }
            })
            .collect()
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        self.reduced(action)
    }
}

/// Properties of [`Comparison`].
#[derive(Properties)]
pub struct ComparisonProps {
    /// The page's address, read: its scenario, `compare=` and clock options.
    pub link: Link,
    /// Whether virtual time follows wall time (off in tests that step by hand).
    #[prop_or(true)]
    pub live: bool,
}

/// The link is read once, when the comparison mounts.
impl PartialEq for ComparisonProps {
    fn eq(&self, other: &Self) -> bool {
        self.live == other.live
    }
}

/// The root component of a comparison. See the module documentation.
#[component]
pub fn Comparison(props: &ComparisonProps) -> Html {
    let state = use_reducer({
        let link = props.link.clone();
        move || State::open(&link)
    });
    let dispatch = state.dispatcher().to_callback();
    // Inside a frame, the host page hears both copies' events (each named) and may drive the
    // clock, as with the embedded playground.
    let onframe = use_memo((), {
        let (dispatch, copies) = (dispatch.clone(), state.copies.clone());
        let host = bridge::framed();
        // Events posted to the host page so far, per copy.
        let posted = RefCell::new([0; 2]);
        move |_| {
            Callback::from(move |wall: f64| {
                if host {
                    let mut posted = posted.borrow_mut();
                    for (i, copy) in copies.borrow().iter().enumerate() {
                        relay(&copy.session.journal, &mut posted[i], Some(NAMES[i]));
                    }
                }
                dispatch.emit(Action::Frame(wall));
            })
        }
    });
    crate::playground::frame::use_frame_loop(props.live, (*onframe).clone());
    bridge::use_host_commands(Callback::from({
        let dispatch = dispatch.clone();
        move |command| {
            dispatch.emit(match command {
                HostCommand::Play => Action::Play,
                HostCommand::Pause => Action::Pause,
                HostCommand::Step => Action::Step,
                HostCommand::Seek(t) => Action::Seek(t),
                HostCommand::Load(_) => {
                    let problem = "SQS Playground: a comparison cannot load another scenario";
                    web_sys::console::warn_1(&problem.into());
                    return;
                }
            })
        }
    }));
    use_effect_with(state.base.id.clone(), |id| {
        bridge::post(&embed::ready_message(id));
    });

    let copies = state.copies.borrow();
    let clock = &copies[0].session;
    let base = &state.base;
    let now = clock.now();
    let horizon = copies
        .iter()
        .map(|c| c.session.horizon())
        .max()
        .unwrap_or(0);
    let current = story::current(&state.beats, now);
    let link = href(
        &base.id,
        [&copies[0].variant, &copies[1].variant],
        Some((now, clock.speed())),
    );
    let copy_link = {
        let (link, dispatch) = (link.clone(), dispatch.clone());
        Callback::from(move |_: MouseEvent| {
            let (link, dispatch) = (link.clone(), dispatch.clone());
            wasm_bindgen_futures::spawn_local(async move {
                dispatch.emit(Action::Copied(browser::copy(&absolute(&link)).await));
            });
        })
    };
    let seed = base.seed;
    let fields = [state.fields(0), state.fields(1)];
    let ended = now >= clock.end();
    let idle = match (ended, clock.playing()) {
        (true, _) => Idle::Over,
        (false, true) => Idle::Playing,
        (false, false) => Idle::Scenario,
    };
    html! {
        <div class={classes!("playground", "comparison", state.embed.then_some("embed"))}>
            <div class="screen">
                <header class="topbar">
                    <h1 class="brand">{ "SQS Playground" }</h1>
                    <Controls now={now} {horizon} playing={clock.playing()} speed={clock.speed()}
                        error={clock.error(&Slot::Clock).map(str::to_string)}
                        beats={state.beats.clone()} current={current.clone()}
                        onclock={dispatch.reform(Action::from)} />
                    if !state.embed {
                        <div class="compare-head">
                            <a href={format!("?scenario={}", base.id)}>{ "Back to the playground" }</a>
                            <button onclick={copy_link}>{ "Copy link" }</button>
                        </div>
                    }
                </header>
                if let Some(result) = &state.copied {
                    <p class="compare-link" role="status">
                        { match result { Ok(()) => "Link copied: ", Err(_) => "Copy this link: " } }
                        <input readonly=true aria-label="Link to this comparison" value={absolute(&link)} />
                    </p>
                }
                <p class="compare-note">
                    <strong>{ format!("Compare: {}. ", base.title) }</strong>
                    if !state.embed {
                        { format!("Two copies on seed {seed}, one clock. ") }
                    }
                    if ended { { " End of the scenario." } }
                </p>
                <div class="copies">
                    for (i, copy) in copies.iter().enumerate() {
                        <CopyView key={NAMES[i]} name={NAMES[i]}
                            class={if i == 0 { "copy-a" } else { "copy-b" }}
                            stage={state.stages[i].clone()} {idle}
                            queue_url={state.stages[i].queue.as_ref().map(|q| copy.session.queue_url(&q.name)).unwrap_or_default()}
                            settings={copy.variant.to_string()}
                            fields={fields[i].clone()}
                            problem={unplaced(state.refusals[i].as_ref(), &fields[i])}
                            duplicates={state.duplicates[i].clone()}
                            announcement={copy.session.journal.announcement().to_string()}
                            editable={!state.embed} editing={state.editing[i]}
                            onedit={dispatch.reform(move |()| Action::Edit(i))}
                            ontype={dispatch.reform(move |(name, value)| Action::Type(i, name, value))}
                            onapply={dispatch.reform(move |()| Action::Apply(i))} />
                    }
                </div>
                <table::Difference rows={state.rows.clone()} />
            </div>
        </div>
    }
}

/// A refusal that belongs to none of `fields`, in words (it is shown under the form).
fn unplaced(refusal: Option<&Refusal>, fields: &[Field]) -> Option<String> {
    let refusal = refusal.filter(|r| !fields.iter().any(|f| f.name == r.setting))?;
    Some(match refusal.setting.as_str() {
        "" => refusal.message.clone(),
        _ => refusal.to_string(),
    })
}

/// `href` (a query) as an address on this page.
fn absolute(href: &str) -> String {
    crate::share::panel::page_url(href.trim_start_matches('?'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comparison_needs_a_library_scenario_with_a_script() {
        let link = |q: &str| Link::parse(q, "");
        assert_eq!(unavailable(&link("?scenario=r-022&compare=,")), None);
        assert_eq!(unavailable(&link("?scenario=r-022")), None);
        let no_scenario = unavailable(&link("?compare=,")).expect("refused");
        assert!(no_scenario.contains("scenario=<id>"), "{no_scenario}");
        let sandbox = unavailable(&link("?scenario=sandbox&compare=,")).expect("refused");
        assert!(sandbox.contains("sandbox"), "{sandbox}");
        let unknown = unavailable(&link("?scenario=nope&compare=,")).expect("refused");
        assert!(unknown.contains("no scenario \"nope\""), "{unknown}");
    }

    #[test]
    fn the_address_reads_back_as_the_same_comparison() {
        let a = Variant::parse("VisibilityTimeout:60").unwrap();
        let b = Variant::parse("VisibilityTimeout:120;heartbeat:20/60").unwrap();
        let address = href("r-022", [&a, &b], Some((95_250, 5.0)));
        assert_eq!(
            address,
            "?scenario=r-022&compare=VisibilityTimeout:60,VisibilityTimeout:120;heartbeat:20/60\
             &t=95.25&speed=5"
        );
        let o = Link::parse(&address, "").options;
        assert_eq!(o.compare, Some((a, b)));
        assert_eq!((o.start_at, o.speed), (Some(95_250), Some(5.0)));
    }
}
