//! The live view: the playground following the `sqs-sim serve` that served it (`?live=1`).
//!
//! The server records every call that reaches its engine, with its virtual time and its client,
//! as the simulation's steps, and streams them ([`stream`]) after its latest snapshot of the
//! engine. The page's session starts a World of its own from that snapshot (on the server's
//! seed) and replays the steps on it, at their times, up to the virtual time the server has
//! reached: the engine is deterministic, so the page's copy holds what the server holds,
//! however long the server has run, and the usual timeline rewinds it back to the snapshot. The page's own controls (send, settings, the clock) are
//! requests to the server ([`Outgoing`]); what they change comes back through the stream.
//!
//! Plain Rust: the browser's side (the `EventSource`, `fetch`) is [`stream`].

pub mod stream;

use crate::playground::format::group;
use crate::playground::session::Slot;
use serde_json::Value;
use sqs_engine::api::{FromJson, ToJson};
use sqs_engine::{Millis, Namespace, Request};
use sqs_sim::{LoggedStep, Scenario, Start, Step};

/// The server's clock, as its stream last told it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ServerClock {
    /// Virtual time at the server: everything recorded up to it has been sent.
    pub now: Millis,
    /// Virtual seconds per wall second.
    pub speed: f64,
    /// Whether virtual time stands still.
    pub paused: bool,
}

/// One event of the server's stream.
#[derive(Clone, Debug, PartialEq)]
pub enum Update {
    /// The stream begins: the steps that follow go on from step `from` of run `run` (the
    /// server started or was reset: another run), from the engine's state `start` (the server's
    /// latest snapshot, the state after the run's first `from` steps; none: an empty engine on
    /// `seed`, or, with `from` where this page left off, the page's own copy).
    Hello {
        /// The run's seed.
        seed: u64,
        /// The run.
        run: u64,
        /// The first step the stream sends.
        from: usize,
        /// The server's own account and region (the engine's default namespace).
        home: Namespace,
        /// The state the steps go on from, unless the page goes on where it left off.
        start: Option<Start>,
    },
    /// Calls recorded, and the time they reach.
    Steps(Vec<LoggedStep>, ServerClock),
    /// The clock moved or changed.
    Clock(ServerClock),
}

impl Update {
    /// Reads the event `name` with its JSON `data`; the error names what is wrong.
    pub fn parse(name: &str, data: &str) -> Result<Update, String> {
        let bad = |e: &dyn std::fmt::Display| {
            format!("The server sent a {name} event the page cannot read: {e}.")
        };
        let value: Value = serde_json::from_str(data).map_err(|e| bad(&e))?;
        let number = |key: &str| {
            value
                .get(key)
                .and_then(Value::as_u64)
                .ok_or_else(|| bad(&format!("no {key}")))
        };
        match name {
            "hello" => Ok(Update::Hello {
                seed: number("seed")?,
                run: number("run")?,
                from: number("from")? as usize,
                home: match value.get("home") {
                    Some(home) => serde_json::from_value(home.clone()).map_err(|e| bad(&e))?,
                    None => Namespace::DEFAULT,
                },
                start: match value.get("start") {
                    Some(start) => Some(Start::from_json(start.clone()).map_err(|e| bad(&e))?),
                    None => None,
                },
            }),
            "steps" | "clock" => {
                let clock = ServerClock {
                    now: number("now")?,
                    speed: value.get("speed").and_then(Value::as_f64).unwrap_or(1.0),
                    paused: value
                        .get("paused")
                        .and_then(Value::as_bool)
                        .unwrap_or(false),
                };
                if name == "clock" {
                    return Ok(Update::Clock(clock));
                }
                let steps = value
                    .get("steps")
                    .and_then(Value::as_array)
                    .ok_or_else(|| bad(&"no steps"))?;
                let steps = steps
                    .iter()
                    .map(|s| {
                        let at = s
                            .get("at")
                            .and_then(Value::as_u64)
                            .ok_or("a step without its time")?;
                        let step = s.get("step").cloned().ok_or("a step without its step")?;
                        let step = Step::from_value(step).map_err(|e| e.to_string())?;
                        Ok(LoggedStep { at, step })
                    })
                    .collect::<Result<Vec<_>, String>>()
                    .map_err(|e| bad(&e))?;
                Ok(Update::Steps(steps, clock))
            }
            _ => Err(bad(&"an unknown event")),
        }
    }
}

/// What the browser tells of the stream.
#[derive(Clone, Debug, PartialEq)]
pub enum Signal {
    /// The stream is open (again).
    Opened,
    /// The stream broke off: the server is gone (the browser tries again every second).
    Lost,
    /// An event: its name and data.
    Event(String, String),
}

/// How the page stands with its server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Connection {
    /// Not heard from yet.
    Connecting,
    /// Following it.
    Open,
    /// Gone: what was recorded stays; the browser tries again.
    Gone,
}

/// A request for the server, made by the page's own controls.
#[derive(Clone, Debug, PartialEq)]
pub enum Outgoing {
    /// An SQS call (`POST /_sqs-sim/call`); its refusal shows at `slot`.
    Call {
        /// Where a refusal shows.
        slot: Slot,
        /// The call, in the engine's own words.
        request: Request,
    },
    /// A clock request (`POST /_sqs-sim/clock`): `{"pause": true}`, `{"advance": 12.5}`, ...
    Clock(Value),
}

impl Outgoing {
    /// Its path (relative to the page) and JSON body.
    pub fn http(&self) -> (&'static str, String) {
        match self {
            Outgoing::Call { request, .. } => ("_sqs-sim/call", request.to_json().to_string()),
            Outgoing::Clock(change) => ("_sqs-sim/clock", change.to_string()),
        }
    }

    /// Where its refusal shows.
    pub fn slot(&self) -> Slot {
        match self {
            Outgoing::Call { slot, .. } => slot.clone(),
            Outgoing::Clock(_) => Slot::Clock,
        }
    }
}

/// The live side of a session.
#[derive(Clone, Debug)]
pub struct Live {
    /// The server, as the badge names it (`127.0.0.1:9324`).
    pub address: String,
    /// How the page stands with it.
    pub connection: Connection,
    /// Its clock, as last told.
    pub clock: ServerClock,
    /// Whether the stage follows the server (false after a rewind, until Play).
    pub following: bool,
    /// The server's own account and region (`--account-id`, `--region`), which the engine
    /// calls its default namespace.
    pub home: Namespace,
    /// The server's run the page follows (none until its stream says), and the number in it of
    /// the first step the page holds (the ones before are in the snapshot it started from).
    pub(crate) run: Option<(u64, usize)>,
    /// Requests not sent yet.
    pub(crate) outbox: Vec<Outgoing>,
}

impl Live {
    /// Where the stage's queues are (`focus`, the World's: see `sqs_sim::World::focus`) as
    /// clients name it (the server swaps its own with the engine's default:
    /// [`Namespace::swapped`]), when that is not the server's own account and region.
    pub fn elsewhere(&self, focus: &Namespace) -> Option<Namespace> {
        (*focus != Namespace::DEFAULT).then(|| focus.swapped(&self.home))
    }

    /// Following the server at `address`, not heard from yet.
    pub fn new(address: &str) -> Live {
        Live {
            address: address.to_string(),
            connection: Connection::Connecting,
            clock: ServerClock::default(),
            following: true,
            home: Namespace::DEFAULT,
            run: None,
            outbox: Vec::new(),
        }
    }
}

/// The scenario a live session records into: the server's seed, the state its stream started
/// from (`start`: the server's snapshot after its run's first `from` calls, written into a saved
/// file), and no steps of its own (the recorded calls are the session's actions; "Save as
/// scenario" merges them in). Started from a snapshot, its title says after how many calls: the
/// counters and the event log count from there.
pub fn recording(seed: u64, address: &str, start: Option<Start>, from: usize) -> Scenario {
    let mut title = format!("Recorded from {address}");
    let mut narrative = format!(
        "What your own application does on sqs-sim serve at {address}, as it happens: each \
         consumer (named by its access key id) has a lane, each message is drawn where it is, \
         and the timeline rewinds what happened since the server's latest snapshot."
    );
    if start.is_some() && from > 0 {
        let calls = group(from as u64);
        title += &format!(" after {calls} calls");
        narrative += &format!(
            " This view starts from the server's snapshot after its first {calls} calls: the \
             counters, the event log and the timeline begin there."
        );
    }
    Scenario {
        id: "recorded".into(),
        title,
        narrative,
        watch: Vec::new(),
        seed,
        steps: Vec::new(),
        expect: None,
        questions: Default::default(),
        start,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_streams_events_read_as_updates_and_bad_ones_are_named() {
        assert_eq!(
            Update::parse("hello", r#"{"seed": 42, "run": 8, "from": 3}"#),
            Ok(Update::Hello {
                seed: 42,
                run: 8,
                from: 3,
                home: Namespace::DEFAULT,
                start: None
            })
        );
        let home = r#"{"seed": 1, "run": 1, "from": 0, "home": {"account": "123456789012", "region": "eu-west-1"}}"#;
        let Ok(Update::Hello { home, .. }) = Update::parse("hello", home) else {
            panic!("a hello with the server's home");
        };
        assert_eq!(home, Namespace::new("123456789012", "eu-west-1"));
        let engine = sqs_engine::Engine::new(42);
        let hello =
            serde_json::json!({"seed": 42, "run": 8, "from": 9, "start": Start::of(&engine)});
        let Ok(Update::Hello {
            start: Some(start), ..
        }) = Update::parse("hello", &hello.to_string())
        else {
            panic!("no start");
        };
        assert_eq!(start.to_json(), Start::of(&engine));
        let steps = r#"{"now": 31001, "speed": 2.0, "paused": true, "steps": [
            {"at": 1, "step": {"sim": "Call", "input": {"by": "billing-1", "call": "ReceiveMessage",
             "input": {"QueueUrl": "https://sqs.us-east-1.amazonaws.com/000000000000/orders"}}}}]}"#;
        let Ok(Update::Steps(read, clock)) = Update::parse("steps", steps) else {
            panic!("not steps");
        };
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].at, 1);
        assert_eq!((clock.now, clock.speed, clock.paused), (31_001, 2.0, true));
        let clock = Update::parse("clock", r#"{"now": 5, "speed": 1, "paused": false}"#);
        assert!(matches!(
            clock,
            Ok(Update::Clock(ServerClock { now: 5, .. }))
        ));
        for (name, data, problem) in [
            ("hello", "{", "cannot read"),
            ("hello", r#"{"run": 1, "from": 0}"#, "no seed"),
            ("hello", r#"{"seed": 1, "from": 0}"#, "no run"),
            (
                "hello",
                r#"{"seed": 1, "run": 1, "from": 0, "home": {"region": "eu-west-1"}}"#,
                "missing field `account`",
            ),
            (
                "hello",
                r#"{"seed": 1, "run": 1, "from": 0, "start": {"version": 99, "engine": "{}"}}"#,
                "this build reads version",
            ),
            ("steps", r#"{"now": 1}"#, "no steps"),
            (
                "steps",
                r#"{"now": 1, "steps": [{"at": 1, "step": {"sim": "Explode", "input": {}}}]}"#,
                "Explode",
            ),
            ("gossip", "{}", "unknown event"),
        ] {
            let error = Update::parse(name, data).unwrap_err();
            assert!(error.contains(problem), "{name} {data}: {error}");
        }
    }

    #[test]
    fn the_pages_requests_go_to_the_control_api() {
        let request =
            Request::from_input("PurgeQueue", serde_json::json!({"QueueUrl": "q"})).unwrap();
        let call = Outgoing::Call {
            slot: Slot::Send,
            request,
        };
        let (path, body) = call.http();
        assert_eq!(path, "_sqs-sim/call");
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(body["call"], "PurgeQueue");
        let clock = Outgoing::Clock(serde_json::json!({"pause": true}));
        assert_eq!(
            clock.http(),
            ("_sqs-sim/clock", r#"{"pause":true}"#.to_string())
        );
        assert_eq!(clock.slot(), Slot::Clock);
    }

    /// A server started with `--region eu-west-1`: its clients of eu-west-1 are in the engine's
    /// default namespace, those of us-east-1 in the engine's eu-west-1.
    #[test]
    fn the_stage_elsewhere_is_named_as_the_servers_clients_name_it() {
        let ireland = Namespace::new("000000000000", "eu-west-1");
        let tokyo = Namespace::new("000000000000", "ap-northeast-1");
        let mut live = Live::new("127.0.0.1:9324");
        assert_eq!(live.elsewhere(&Namespace::DEFAULT), None);
        assert_eq!(live.elsewhere(&tokyo), Some(tokyo.clone()));
        live.home = ireland.clone();
        assert_eq!(live.elsewhere(&Namespace::DEFAULT), None);
        assert_eq!(live.elsewhere(&ireland), Some(Namespace::DEFAULT));
        assert_eq!(live.elsewhere(&tokyo), Some(tokyo));
    }
}
