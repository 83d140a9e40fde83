//! The live view's side of the server: the stream the page follows the server by, and the calls
//! the page makes with its own controls.
//!
//! `GET /_sqs-sim/events` is a stream of Server-Sent Events, each one line of JSON:
//!
//! * `hello` `{"seed": N, "run": R, "from": K, "home": {...}, "start": {...}}`: the stream
//!   begins, or begins again from a snapshot: a World on `seed` that starts from `start` (a
//!   scenario file's `start` member, `sqs_sim::Start`: the engine's state after the run's first
//!   `K` steps; no `start`: an empty engine) and replays the steps that follow is in the server
//!   engine's state ([`crate::journal`]). `run` names the run (a start or a reset begins
//!   another). A page that reconnects to the same run and whose steps the server still holds is
//!   not sent the snapshot: `from` is where it left off. `home` is the server's own account and
//!   region (`{"account": ..., "region": ...}`, the engine's default namespace, see
//!   [`crate::addressing`]): the page names the other namespaces as clients see them.
//! * `steps` `{"steps": [{"at": ms, "step": {...}}, ...], "now": ms, "speed": x, "paused": b}`:
//!   calls recorded, in order, and the virtual time they reach.
//! * `clock` `{"now": ms, "speed": x, "paused": b}`: virtual time moved (at most every
//!   [`TICK`]) or the clock changed.
//!
//! Each event's id is `run:steps-sent`, so a browser that reconnects by itself (`EventSource`
//! does, after the `retry` the stream asks for) says where it left off and the stream resumes
//! without a gap or a repeat. A stream that falls behind the journal's latest snapshot (a page
//! still reading when the steps it had not read were compacted) begins again from it. The
//! stream is axum's [`Sse`], with a keep-alive comment line after 15 s without an event, so
//! that a page gone away is noticed.
//!
//! `POST /_sqs-sim/call` with `{"call": "SendMessage", "input": {...}}` (the engine's own queue
//! URLs, as the page's World writes them) runs one SQS action as the page: `{"output": ...}`, or
//! `{"error": {"code": ..., "message": ...}}` with status 400.

use crate::control::json_body;
use crate::journal::Caller;
use crate::serve::App;
use crate::state::{Shared, State};
use axum::body::Bytes;
use axum::extract::State as AppState;
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures_util::stream::{self, Stream};
use serde_json::json;
use sqs_engine::api::{split_tagged, ToJson};
use sqs_engine::script::error_json;
use sqs_engine::{Millis, Request};
use sqs_sim::LoggedStep;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// How often the stream looks for new calls and tells the clock.
pub const TICK: Duration = Duration::from_millis(100);
/// The most steps one event carries (a page that opens late gets a long run in parts).
const STEPS_PER_EVENT: usize = 2_000;
/// A comment line after this long without an event.
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// How long a browser waits before it reconnects.
const RETRY: Duration = Duration::from_secs(1);

/// Where a page that reconnects left off: its `Last-Event-ID` (`run:steps-sent`).
pub fn resume_point(last_event_id: Option<&str>) -> Option<(u64, usize)> {
    let (run, sent) = last_event_id?.split_once(':')?;
    Some((run.parse().ok()?, sent.parse().ok()?))
}

/// `GET /_sqs-sim/events`: the stream for one page, resumed where its `Last-Event-ID` left off,
/// fed by a task of its own until the page goes away.
pub async fn events(
    AppState(app): AppState<Arc<App>>,
    headers: HeaderMap,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let last = headers.get("last-event-id").and_then(|h| h.to_str().ok());
    let (sender, receiver) = mpsc::channel(16);
    let home = serde_json::to_string(app.addressing.home()).expect("a namespace is JSON");
    let told = Told {
        home,
        ..Told::default()
    };
    tokio::spawn(feed(app.shared.clone(), sender, told, resume_point(last)));
    let events = stream::unfold(receiver, |mut receiver| async move {
        let event = receiver.recv().await?;
        Some((Ok(event), receiver))
    });
    Sse::new(events).keep_alive(KeepAlive::new().interval(KEEP_ALIVE).text("keep-alive"))
}

/// The clock as the stream tells it: now, speed, paused.
type ClockState = (Millis, f64, bool);

/// What one look at the state found.
struct Look {
    /// The stream begins (again): the hello event's seed, `from` and snapshot (none: the
    /// stream goes on where the page left off, or the run began from an empty engine).
    hello: Option<(u64, usize, Option<Arc<str>>)>,
    /// Steps not sent yet (at most [`STEPS_PER_EVENT`]), and whether more wait.
    steps: Vec<LoggedStep>,
    more: bool,
    clock: ClockState,
}

/// What the stream has told its page.
#[derive(Default)]
struct Told {
    /// The server's own account and region, as the hello writes it (JSON).
    home: String,
    /// The run followed and how many of its steps were sent (or are in the snapshot sent).
    run: Option<u64>,
    sent: usize,
    clock: Option<ClockState>,
}

impl Told {
    /// Looks at the state, under its lock: the steps are copied, written outside it.
    fn look(&mut self, state: &mut State, resume: &mut Option<(u64, usize)>) -> Look {
        let (seed, run) = (state.seed(), state.journal().run());
        let mut hello = None;
        if self.run != Some(run) || !state.journal().holds(self.sent) {
            let journal = state.journal();
            let resumed = resume
                .take()
                .filter(|&(r, sent)| r == run && journal.holds(sent));
            let (start, base) = journal.start();
            self.sent = resumed.map_or(base, |(_, sent)| sent);
            self.run = Some(run);
            self.clock = None;
            let start = start.filter(|_| resumed.is_none()).cloned();
            hello = Some((seed, self.sent, start));
        }
        let now = state.engine().now();
        let (clock, journal) = (state.clock(), state.journal());
        let steps: Vec<LoggedStep> = journal
            .since(self.sent)
            .iter()
            .take(STEPS_PER_EVENT)
            .cloned()
            .collect();
        Look {
            hello,
            more: self.sent + steps.len() < journal.len(),
            steps,
            clock: (now, clock.speed(), clock.paused()),
        }
    }

    /// The events that tell what a look found.
    fn events(&mut self, look: Look) -> Vec<Event> {
        let run = self.run.unwrap_or_default();
        let (now, speed, paused) = look.clock;
        let mut data = json!({"now": now, "speed": speed, "paused": paused});
        let mut events = Vec::new();
        if let Some((seed, from, start)) = look.hello {
            // The snapshot is JSON already: written in as it is, not parsed and written again.
            let start = start.map_or(String::new(), |start| format!(r#","start":{start}"#));
            let home = &self.home;
            let hello =
                format!(r#"{{"seed":{seed},"run":{run},"from":{from},"home":{home}{start}}}"#);
            events.push(event("hello", run, from).data(hello));
        }
        if !look.steps.is_empty() {
            self.sent += look.steps.len();
            data["steps"] = look.steps.iter().map(ToJson::to_json).collect();
            events.push(event("steps", run, self.sent).data(data.to_string()));
        } else if self.clock != Some(look.clock) {
            events.push(event("clock", run, self.sent).data(data.to_string()));
        }
        self.clock = Some(look.clock);
        events
    }
}

async fn feed(
    shared: Arc<Shared>,
    sender: mpsc::Sender<Event>,
    mut told: Told,
    mut resume: Option<(u64, usize)>,
) {
    if sender.send(Event::default().retry(RETRY)).await.is_err() {
        return;
    }
    loop {
        let look = shared.with(|state| told.look(state, &mut resume));
        let more = look.more;
        for event in told.events(look) {
            if sender.send(event).await.is_err() {
                return;
            }
        }
        if !more {
            tokio::time::sleep(TICK).await;
        }
    }
}

/// One Server-Sent Event, without its data yet.
fn event(name: &str, run: u64, sent: usize) -> Event {
    Event::default().event(name).id(format!("{run}:{sent}"))
}

/// `POST /_sqs-sim/call`: runs a call the page makes with its own controls.
pub async fn page_call(
    AppState(app): AppState<Arc<App>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let value = match json_body(&headers, &body) {
        Ok(value) => value,
        Err((status, message)) => return crate::control::refused(status, message),
    };
    let refused = |code: &str, message: String| {
        let answer = json!({"error": {"code": code, "message": message}});
        (StatusCode::BAD_REQUEST, Json(answer)).into_response()
    };
    let request =
        split_tagged(value, "call").and_then(|(action, input)| Request::from_input(&action, input));
    let request = match request {
        Ok(request) => request,
        Err(e) => return refused("InvalidParameterValue", e.to_string()),
    };
    let outcome = app.shared.with(|state| state.call(&Caller::Page, request));
    match outcome.answer().await {
        Ok(Ok(response)) => Json(json!({"output": response.to_json()})).into_response(),
        Ok(Err(error)) => (
            StatusCode::BAD_REQUEST,
            Json(json!({"error": error_json(&error)})),
        )
            .into_response(),
        Err(failure) => {
            let status =
                StatusCode::from_u16(failure.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            let error = json!({"code": failure.code, "message": failure.message});
            (status, Json(json!({ "error": error }))).into_response()
        }
    }
}
