//! The event buffer: the events recorded since the driver last drained them, and whether
//! events (and the implied ones) are recorded at all.

use crate::buffers::move_into;
use crate::event::Event;
use serde::{Deserialize, Serialize};

/// Recorded events, in order. Only the two switches are state: events not yet drained are
/// output, not written with the engine.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct EventLog {
    #[serde(skip)]
    events: Vec<Event>,
    /// Whether events are recorded (see `Engine::record_events`).
    recording: bool,
    /// Whether the events another event or the reply implies are recorded too (see
    /// `Engine::record_implied_events`).
    implied: bool,
}

impl Default for EventLog {
    fn default() -> Self {
        EventLog {
            events: Vec::new(),
            recording: true,
            implied: true,
        }
    }
}

impl EventLog {
    /// Whether events are recorded.
    #[inline]
    pub(crate) fn recording(&self) -> bool {
        self.recording
    }

    /// Whether implied events are recorded.
    #[inline]
    pub(crate) fn implied(&self) -> bool {
        self.implied
    }

    pub(crate) fn set_recording(&mut self, on: bool) {
        self.recording = on;
    }

    pub(crate) fn set_implied(&mut self, on: bool) {
        self.implied = on;
    }

    /// Records `event` (the caller checked [`EventLog::recording`]).
    #[inline]
    pub(crate) fn push(&mut self, event: Event) {
        self.events.push(event);
    }

    /// The events since the last drain, in order.
    pub(crate) fn drain(&mut self) -> Vec<Event> {
        // The next batch is likely as large: reserve once rather than grow step by step.
        let capacity = self.events.len();
        std::mem::replace(&mut self.events, Vec::with_capacity(capacity))
    }

    /// Moves the events since the last drain to the end of `out`, in order.
    #[inline]
    pub(crate) fn drain_into(&mut self, out: &mut Vec<Event>) {
        move_into(out, &mut self.events);
    }
}
