//! Who acts in the world: [`Actor`] as events name it, [`Who`] as the world tracks it.

use serde::Deserialize;
use serde_json::Value;
use sqs_engine::api::{Output, ToJson};

/// Who caused an event: `"Sqs"`, `{"Worker": "Worker A"}`, `{"Producer": "P"}`, `"User"`,
/// `{"Client": "report-job"}`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub enum Actor {
    /// SQS itself (a timer: visibility expiry, delay end, retention, ...).
    Sqs,
    /// A worker, by name.
    Worker(String),
    /// A producer, by name.
    Producer(String),
    /// The user, by hand (a UI action or a scenario step).
    User,
    /// A client of its own that has no lane (it never received): a process talking to
    /// `sqs-sim serve` ([`SimAction::Call`](crate::SimAction::Call)).
    Client(String),
}

impl ToJson for Actor {
    fn to_json(&self) -> Value {
        let (kind, name) = match self {
            Actor::Sqs => return "Sqs".into(),
            Actor::User => return "User".into(),
            Actor::Worker(name) => ("Worker", name),
            Actor::Producer(name) => ("Producer", name),
            Actor::Client(name) => ("Client", name),
        };
        let mut out = Output::default();
        out.field(kind, name);
        out.into()
    }
}

sqs_engine::write_by_hand!(Actor);

/// Who acts, as the world tracks it: a copyable id, named (an [`Actor`]) only for the events
/// that are narrated, so that the calls of a fast-forward do not copy names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Who {
    Sqs,
    User,
    /// A worker lane, by id.
    Lane(u64),
    /// A producer, by id.
    Producer(u64),
    /// A client without a lane, by its place in the world's list of clients.
    Client(usize),
}
