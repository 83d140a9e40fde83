//! A world that starts from an engine's state instead of an empty engine: the live view's copy of
//! a server that has run for a while (the server's latest snapshot, then the calls after it), and
//! a scenario file saved from such a copy (its `start` member, [`Start`]).
//!
//! `start` is `{"version": V, "engine": "{...}"}`: the engine's whole state as
//! [`sqs_engine::Engine`] serialises it, with the layout's version
//! ([`sqs_engine::SNAPSHOT_VERSION`]). A state of another version is refused, never misread.
//! The state is a JSON text inside a string: it holds 128-bit numbers (the engine's ordering
//! keys), which a reader of JSON values (how scenario files, links and the page's imports are
//! read) would round.
//!
//! The world's own side (lanes, producers, the ledger, the metrics) starts empty at the engine's
//! time: who received the messages in flight and who made the long polls waiting are not part of
//! the engine's state, so such a message shows in flight on no lane, and what such a poll
//! receives is the user's, until the client that made it calls again.
//!
//! Reading the engine's whole state back is the crate's `resume` feature (the page's live bundle,
//! the tests). The page's player goes without it (its bundle would carry the engine's serde
//! code): there no `Start` can exist, and a `start` member is refused with `NOT_READ`. Writing
//! one ([`Start::of`], the server's stream) needs no feature.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{json, Value};
use sqs_engine::api::{FromJson, ToJson};
use sqs_engine::{Engine, Millis, SNAPSHOT_VERSION};
use std::fmt;
#[cfg(feature = "resume")]
use std::sync::Arc;

/// Why a build without the `resume` feature refuses a `start` member.
#[cfg(not(feature = "resume"))]
const NOT_READ: &str = "it starts from a server's saved state: open it on the page sqs-sim \
serve serves";

/// The engine's state a scenario starts from (shared by the copies of the scenario: a rewind
/// starts from it again).
#[cfg(feature = "resume")]
#[derive(Clone)]
pub struct Start(Arc<Engine>);

/// Without the `resume` feature no start can be read, so none exists.
#[cfg(not(feature = "resume"))]
#[derive(Clone)]
pub enum Start {}

impl Start {
    /// The engine's state, at its time.
    pub fn engine(&self) -> &Engine {
        #[cfg(feature = "resume")]
        return &self.0;
        #[cfg(not(feature = "resume"))]
        match *self {}
    }

    /// The virtual time it starts at.
    pub fn at(&self) -> Millis {
        self.engine().now()
    }

    /// `engine`'s state as a `start` member, written without a copy of the engine: how the
    /// server's live stream sends its snapshot (without the `resume` feature too).
    pub fn of(engine: &Engine) -> Value {
        let engine = serde_json::to_string(engine).expect("an engine serialises");
        json!({"version": SNAPSHOT_VERSION, "engine": engine})
    }
}

#[cfg(feature = "resume")]
impl FromJson for Start {
    fn from_json(value: Value) -> Result<Self, serde_json::Error> {
        use serde::de::Error;
        let Value::Object(members) = value else {
            return Err(Error::custom("the starting state is not a JSON object"));
        };
        match members.get("version").and_then(Value::as_u64) {
            Some(version) if version == u64::from(SNAPSHOT_VERSION) => {}
            Some(version) => {
                return Err(Error::custom(format!(
                    "the starting state is of version {version}; this build reads version \
                     {SNAPSHOT_VERSION}"
                )))
            }
            None => return Err(Error::custom("the starting state has no version")),
        }
        let Some(Value::String(engine)) = members.get("engine") else {
            return Err(Error::custom(
                "the starting state has no engine (a JSON text)",
            ));
        };
        serde_json::from_str(engine)
            .map(|engine| Start(Arc::new(engine)))
            .map_err(|e| Error::custom(format!("the starting state does not read: {e}")))
    }
}

/// Not in this build: see the module documentation.
#[cfg(not(feature = "resume"))]
impl FromJson for Start {
    fn from_json(_: Value) -> Result<Self, serde_json::Error> {
        Err(serde::de::Error::custom(NOT_READ))
    }
}

impl ToJson for Start {
    fn to_json(&self) -> Value {
        #[cfg(feature = "resume")]
        return Start::of(self.engine());
        #[cfg(not(feature = "resume"))]
        match *self {}
    }
}

impl Serialize for Start {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Start {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Start::from_json(value).map_err(serde::de::Error::custom)
    }
}

/// Two starts are equal when they hold the same state.
impl PartialEq for Start {
    fn eq(&self, other: &Start) -> bool {
        std::ptr::eq(self.engine(), other.engine()) || self.to_json() == other.to_json()
    }
}

/// Its time only: the state can be megabytes.
impl fmt::Debug for Start {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Start {{ at: {} }}", self.at())
    }
}

#[cfg(all(test, feature = "resume"))]
mod tests {
    use super::*;
    use crate::{Scenario, SimAction, Step, World};
    use sqs_engine::Request;

    fn call(action: &str, input: Value) -> Step {
        Step::Call(Request::from_input(action, input).unwrap())
    }

    /// A world with a queue, two messages stored and one of them in flight, at 40 s.
    fn busy() -> World {
        let mut world = World::new(7);
        world
            .apply(call("CreateQueue", json!({"QueueName": "orders"})))
            .unwrap();
        let url = world.engine().queue_url("orders").unwrap().to_string();
        for body in ["order-1", "order-2"] {
            world.advance_to(world.now() + 10_000);
            let send = json!({"QueueUrl": url, "MessageBody": body});
            world.apply(call("SendMessage", send)).unwrap();
        }
        let receive = SimAction::Call {
            by: "billing".into(),
            namespace: sqs_engine::Namespace::DEFAULT,
            request: Request::from_input("ReceiveMessage", json!({"QueueUrl": url})).unwrap(),
        };
        world.apply(Step::Sim(receive)).unwrap();
        world.advance_to(40_000);
        world
    }

    #[test]
    fn a_resumed_world_goes_on_as_the_world_it_was_taken_from() {
        let mut original = busy();
        let start = Start::from_json(Start::of(original.engine())).unwrap();
        let mut resumed = World::resume(7, start.engine().clone());
        assert_eq!(resumed.now(), 40_000, "at the engine's time");
        assert!(
            resumed.workers().is_empty(),
            "no lane: who holds what is not state"
        );
        let url = original.engine().queue_url("orders").unwrap().to_string();
        // The same calls from here get the same answers, receipt handles included.
        for world in [&mut original, &mut resumed] {
            world.advance_to(70_000);
        }
        let receive = json!({"QueueUrl": url, "MaxNumberOfMessages": 10});
        let a = original.apply(call("ReceiveMessage", receive.clone()));
        let b = resumed.apply(call("ReceiveMessage", receive));
        assert_eq!(a, b);
        assert_eq!(a.unwrap()["Messages"].as_array().unwrap().len(), 2);
        // Its messages are named by their bodies in the event log, and its samples begin at
        // its start.
        let events = resumed.drain_events();
        assert!(
            events.iter().any(|e| e.text.contains("got order-1")),
            "{events:?}"
        );
        assert!(resumed.metrics().samples.iter().all(|s| s.at >= 40_000));
    }

    #[test]
    fn a_scenario_with_a_start_loads_from_it_and_a_bad_one_is_refused() {
        let original = busy();
        let start = Start::from_json(Start::of(original.engine())).unwrap();
        let file = json!({
            "seed": 7,
            "start": start.to_json(),
            "steps": [{"advance": 45}, {"call": "ListQueues"}],
        });
        let scenario = Scenario::parse("saved", &file.to_string()).unwrap();
        assert_eq!(scenario.start.as_ref(), Some(&start));
        assert_eq!(scenario.to_json()["start"], start.to_json(), "written back");
        let world = scenario.run().unwrap();
        assert_eq!(world.now(), 45_000);
        assert_eq!(world.engine().depths().count(), 1);
        assert_eq!(
            world.log()[0].at,
            45_000,
            "its steps' times go on from its start"
        );

        let mut other = file.clone();
        other["start"]["version"] = json!(SNAPSHOT_VERSION + 1);
        let mut broken = file.clone();
        broken["start"]["engine"] = json!(r#"{"now": 1}"#);
        for (bad, problem) in [
            (other, "this build reads version"),
            (
                json!({"steps": [], "start": {"engine": "{}"}}),
                "has no version",
            ),
            (
                json!({"steps": [], "start": {"version": SNAPSHOT_VERSION}}),
                "has no engine",
            ),
            (broken, "does not read"),
        ] {
            let error = Scenario::parse("saved", &bad.to_string()).unwrap_err();
            assert!(error.contains(problem), "{error}");
        }
    }
}
