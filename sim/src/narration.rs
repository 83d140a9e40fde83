//! The world's narration: the events told one by one in plain words ([`WorldEvent`]), up to a
//! buffer; how many were left out; where the latest ones began ([`Tail`]); and the messages'
//! labels they name them by. The words themselves are [`crate::narrate`]'s. This is the
//! presentation side of the world: its state, metrics and ledger never depend on it.

use crate::actor::Actor;
use crate::narrate::Labels;
use crate::tail::Tail;
use serde::Deserialize;
use sqs_engine::{EventKind, Millis};

/// How many undrained events the world narrates one by one (the default of
/// [`World::set_event_buffer`](crate::World::set_event_buffer)). A UI drains them every frame, far below this; when more happen
/// before the next [`World::drain_events`](crate::World::drain_events) (a fast-forward), the rest are still counted in the
/// metrics and applied to the state, but not narrated: the drain ends with one event saying how
/// many were left out. At about 250 bytes an event, the buffer holds at most ~1.3 MB.
pub const EVENT_BUFFER: usize = 5_000;

/// Something that happened, for the event log, the animations and the live region.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct WorldEvent {
    /// When.
    pub at: Millis,
    /// Who.
    pub actor: Actor,
    /// The SQS action behind it, if any ("ChangeMessageVisibility").
    pub action: Option<String>,
    /// The engine's event, if it is one.
    pub engine: Option<EventKind>,
    /// The MessageId it concerns, if any.
    pub message_id: Option<String>,
    /// Plain words: "Worker 2 called ChangeMessageVisibility: hidden for 30 s more".
    pub text: String,
}

sqs_engine::writers! {
    WorldEvent {
        at: field("at"),
        actor: field("actor"),
        action: field("action"),
        engine: field("engine"),
        message_id: field("message_id"),
        text: field("text"),
    }
}

/// What the world has narrated and not drained yet, and what it counted without narrating.
#[derive(Clone, Debug)]
pub(crate) struct Narration {
    events: Vec<WorldEvent>,
    /// The most undrained events narrated ([`EVENT_BUFFER`] by default).
    buffer: usize,
    /// Events left out since the last drain because the buffer was full.
    skipped: u64,
    /// The events the drains so far took out, narrated or left out (their notes of what was
    /// left out not counted).
    drained: u64,
    /// Where the latest events began.
    tail: Tail,
    labels: Labels,
}

impl Default for Narration {
    fn default() -> Self {
        Narration {
            events: Vec::new(),
            buffer: EVENT_BUFFER,
            skipped: 0,
            drained: 0,
            tail: Tail::default(),
            labels: Labels::default(),
        }
    }
}

impl Narration {
    /// Whether events are narrated now (the buffer of undrained events has room).
    #[inline]
    pub(crate) fn narrating(&self) -> bool {
        self.events.len() < self.buffer
    }

    /// Counts `n` events left out because the buffer is full.
    #[inline]
    pub(crate) fn skip(&mut self, n: u64) {
        self.skipped += n;
    }

    /// Narrates an event (whether the buffer has room is the caller's check).
    pub(crate) fn tell(&mut self, event: WorldEvent) {
        self.events.push(event);
    }

    /// Sets how many undrained events are narrated one by one.
    pub(crate) fn set_buffer(&mut self, events: usize) {
        self.buffer = events;
    }

    /// Events narrated and not drained yet.
    pub(crate) fn len(&self) -> usize {
        self.events.len()
    }

    /// How many events have happened since time 0, narrated or not.
    pub(crate) fn total(&self) -> u64 {
        self.drained + self.events.len() as u64 + self.skipped
    }

    /// The clock leaves instant `at` (see [`Tail::leave`]).
    #[inline]
    pub(crate) fn leave(&mut self, at: Millis) {
        self.tail.leave(at, self.total());
    }

    /// The latest instant after which the last [`NARRATED_TAIL`](crate::NARRATED_TAIL) events
    /// happened (see [`Tail::start`]).
    pub(crate) fn tail_start(&self) -> Option<Millis> {
        self.tail.start(self.total())
    }

    /// The events narrated since the last drain, in order, ending at `now` with a note of how
    /// many more were left out, if any.
    pub(crate) fn drain(&mut self, now: Millis) -> Vec<WorldEvent> {
        self.drained = self.total();
        let skipped = std::mem::take(&mut self.skipped);
        if skipped > 0 {
            self.events.push(WorldEvent {
                at: now,
                actor: Actor::Sqs,
                action: None,
                engine: None,
                message_id: None,
                text: format!(
                    "Fast-forward: {skipped} more events happened, counted in the charts and counters but not narrated one by one"
                ),
            });
        }
        std::mem::take(&mut self.events)
    }

    /// The messages' labels.
    #[inline]
    pub(crate) fn labels(&self) -> &Labels {
        &self.labels
    }

    /// The messages' labels, to learn or forget one.
    #[inline]
    pub(crate) fn labels_mut(&mut self) -> &mut Labels {
        &mut self.labels
    }
}
