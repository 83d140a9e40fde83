//! What happened, kept for the eye and the ear: the event log, each message's history, the
//! hidden window behind each countdown ring, the cards leaving after a delete, and the
//! throttled narration for the live region. Everything here is derived from `WorldEvent`s.

use sqs_engine::{EventKind, Millis};
use sqs_sim::{Actor, WorldEvent};
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

/// Entries kept in the event log: as many as a seek narrates (the lines before them would not be
/// the same after a seek as after playing there).
const LOG_LIMIT: usize = sqs_sim::NARRATED_TAIL;
/// Events kept for export (the event-log file).
const EVENTS_LIMIT: usize = 10_000;
/// Events held past [`EVENTS_LIMIT`] before the oldest are dropped, all at once.
const EVENTS_TRIM: usize = 2_500;
/// Entries kept per message history.
const HISTORY_LIMIT: usize = 200;
/// Messages whose history is kept (the oldest-seen is forgotten first), so that an hour at
/// 1000x does not grow the page's memory with every message ever sent.
const HISTORY_MESSAGES: usize = 2_000;
/// Wall milliseconds a deleted message's card stays to fade out.
pub const DEPARTURE_MS: f64 = 1500.0;
/// Wall milliseconds between two announcements of the live region.
pub const NARRATION_GAP_MS: f64 = 2000.0;

/// One line of the event log.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Order of arrival (a stable key).
    pub seq: u64,
    /// Virtual time.
    pub at: Millis,
    /// Who: "SQS", "Worker 2", "Producer", "You".
    pub actor: String,
    /// The SQS action behind it, if any.
    pub action: Option<String>,
    /// The MessageId it concerns, if any.
    pub message_id: Option<String>,
    /// The World's words.
    pub text: String,
}

/// A value the views compare by revision (not by content), so that a long list costs nothing to
/// diff when it has not changed.
#[derive(Clone, Debug)]
pub struct Versioned<T> {
    /// Bumped on every change.
    pub rev: u64,
    /// The value.
    pub data: Rc<T>,
}

impl<T> PartialEq for Versioned<T> {
    fn eq(&self, other: &Self) -> bool {
        self.rev == other.rev && Rc::ptr_eq(&self.data, &other.data)
    }
}

impl<T: Default> Default for Versioned<T> {
    fn default() -> Self {
        Versioned {
            rev: 0,
            data: Rc::new(T::default()),
        }
    }
}

impl<T: Clone> Versioned<T> {
    /// Changes the value and bumps the revision.
    pub fn update(&mut self, change: impl FnOnce(&mut T)) {
        change(Rc::make_mut(&mut self.data));
        self.rev += 1;
    }
}

/// A message that was just deleted, drawn fading out where it last was.
#[derive(Clone, Debug, PartialEq)]
pub struct Departure {
    /// MessageId.
    pub message_id: String,
    /// Wall time of the delete.
    pub wall_at: f64,
}

/// Something the World said, and when.
#[derive(Clone, Debug, PartialEq)]
pub struct Word {
    /// Virtual time.
    pub at: Millis,
    /// The World's words.
    pub text: String,
}

/// A message in flight: who received it, and the World's latest words about it since (the
/// receive itself, then whatever its worker said: the job started, failed, the worker crashed).
#[derive(Clone, Debug)]
struct Hidden {
    by: String,
    seq: u64,
    word: Word,
}

/// Derived history. See the module documentation.
#[derive(Debug, Default)]
pub struct Journal {
    seq: u64,
    /// The latest events, oldest first.
    pub log: Versioned<Vec<Entry>>,
    histories: HashMap<String, Vec<Entry>>,
    /// Message ids in the order their history started (for forgetting the oldest).
    history_order: VecDeque<String>,
    /// The hidden window of each message in flight.
    windows: HashMap<String, (Millis, Millis)>,
    events: Vec<WorldEvent>,
    /// Why each message in flight is hidden, as the World last said ([`Journal::why_hidden`]).
    hidden: HashMap<String, Hidden>,
    /// Each worker's latest words about no message in particular ("Worker 3 was removed: what
    /// it held waits for its visibility timeout"), by name, with their sequence number.
    said: HashMap<String, (u64, Word)>,
    /// Recently deleted messages.
    pub departures: Vec<Departure>,
    narrator: Narrator,
}

impl Journal {
    /// Takes in events; `wall` is the wall time they were seen (for fades and narration).
    pub fn record(&mut self, events: Vec<WorldEvent>, wall: f64, narrate: bool) {
        if events.is_empty() {
            return;
        }
        let mut fresh = Vec::with_capacity(events.len());
        for event in events {
            self.seq += 1;
            self.track(&event, wall);
            if narrate {
                self.narrator.hear(&event.text, notable(&event));
            }
            let entry = Entry {
                seq: self.seq,
                at: event.at,
                actor: actor_name(&event.actor),
                action: event.action.clone(),
                message_id: event.message_id.clone(),
                text: event.text.clone(),
            };
            if let Some(id) = &entry.message_id {
                if !self.histories.contains_key(id) {
                    self.history_order.push_back(id.clone());
                    if self.history_order.len() > HISTORY_MESSAGES {
                        let oldest = self.history_order.pop_front().expect("not empty");
                        self.histories.remove(&oldest);
                    }
                }
                let history = self.histories.entry(id.clone()).or_default();
                if history.len() == HISTORY_LIMIT {
                    history.remove(0);
                }
                history.push(entry.clone());
            }
            fresh.push(entry);
            self.events.push(event);
        }
        // Trimmed by whole slices of EVENTS_TRIM, not one event at a time: a full buffer would
        // otherwise move all of its events for each one added.
        if self.events.len() >= EVENTS_LIMIT + EVENTS_TRIM {
            let over = self.events.len() - EVENTS_LIMIT;
            self.events.drain(..over);
        }
        self.log.update(|log| {
            log.extend(fresh);
            let over = log.len().saturating_sub(LOG_LIMIT);
            log.drain(..over);
        });
    }

    /// Follows the engine's events that the stage draws: hidden windows and deletes.
    fn track(&mut self, event: &WorldEvent, wall: f64) {
        let word = || Word {
            at: event.at,
            text: event.text.clone(),
        };
        match (&event.engine, &event.message_id, &event.actor) {
            (Some(EventKind::Received { message_id, .. }), _, actor) => {
                let hidden = Hidden {
                    by: actor_name(actor),
                    seq: self.seq,
                    word: word(),
                };
                self.hidden.insert(message_id.to_string(), hidden);
            }
            (None, Some(id), _) => {
                if let Some(hidden) = self.hidden.get_mut(id) {
                    (hidden.seq, hidden.word) = (self.seq, word());
                }
            }
            (None, None, Actor::Worker(name)) => {
                self.said.insert(name.clone(), (self.seq, word()));
            }
            _ => {}
        }
        match &event.engine {
            Some(EventKind::Received {
                message_id,
                visible_at,
                ..
            })
            | Some(EventKind::VisibilityChanged {
                message_id,
                visible_at,
                ..
            }) => {
                self.windows
                    .insert(message_id.to_string(), (event.at, *visible_at));
            }
            Some(EventKind::Deleted { message_id, .. }) => {
                self.windows.remove(&**message_id);
                self.hidden.remove(&**message_id);
                self.departures.push(Departure {
                    message_id: message_id.to_string(),
                    wall_at: wall,
                });
            }
            // No longer hidden, or gone another way than a delete: its window is forgotten, so
            // that the map holds only messages in flight (it grew by every dead-lettered,
            // expired or purged message).
            Some(EventKind::BecameVisible { message_id, .. })
            | Some(EventKind::MovedToDeadLetterQueue { message_id, .. })
            | Some(EventKind::RetentionExpired { message_id, .. }) => {
                self.windows.remove(&**message_id);
                self.hidden.remove(&**message_id);
            }
            Some(EventKind::Purged { message_ids, .. }) => {
                for id in message_ids {
                    self.windows.remove(&**id);
                    self.hidden.remove(&**id);
                }
            }
            _ => {}
        }
    }

    /// The hidden window (from, until) behind a message's current countdown, if known.
    pub fn window(&self, message_id: &str) -> Option<(Millis, Millis)> {
        self.windows.get(message_id).copied()
    }

    /// Why a message in flight is hidden, in the World's words: the latest thing said about it
    /// since it was received, or by the worker that received it about nothing in particular
    /// (it was removed), whichever came last; the receive itself if nothing was said since (a
    /// receive by hand).
    pub fn why_hidden(&self, message_id: &str) -> Option<&Word> {
        let hidden = self.hidden.get(message_id)?;
        match self.said.get(&hidden.by) {
            Some((seq, word)) if *seq > hidden.seq => Some(word),
            _ => Some(&hidden.word),
        }
    }

    /// How many events this timeline has recorded in all (the host page relay counts on it).
    pub fn seen(&self) -> u64 {
        self.seq
    }

    /// The events of this timeline (the latest `EVENTS_LIMIT`), as the World told them.
    pub fn events(&self) -> &[WorldEvent] {
        &self.events[self.events.len().saturating_sub(EVENTS_LIMIT)..]
    }

    /// A message's history, oldest first.
    pub fn history(&self, message_id: &str) -> &[Entry] {
        self.histories.get(message_id).map_or(&[], Vec::as_slice)
    }

    /// Forgets departures that have faded and lets the narrator speak if it is time.
    pub fn settle(&mut self, wall: f64) {
        self.departures.retain(|d| wall - d.wall_at < DEPARTURE_MS);
        self.narrator.speak(wall);
    }

    /// What the live region says now.
    pub fn announcement(&self) -> &str {
        &self.narrator.said
    }

    /// Says something at once (a user action's outcome), ahead of the throttle.
    pub fn announce(&mut self, text: String, wall: f64) {
        self.narrator.clear();
        self.narrator.said = text;
        self.narrator.last = Some(wall);
    }
}

/// Throttles narration: at most one announcement per [`NARRATION_GAP_MS`], the latest notable
/// event (a state change, not a poll coming back empty) plus how many more happened. It keeps
/// only those two texts and a count: at 1000x thousands of events arrive between announcements.
#[derive(Debug, Default)]
struct Narrator {
    /// Events heard since the last announcement.
    heard: usize,
    /// The latest of them that was not notable, and the latest notable one.
    routine: String,
    notable: Option<String>,
    said: String,
    last: Option<f64>,
}

impl Narrator {
    fn hear(&mut self, text: &str, notable: bool) {
        self.heard += 1;
        // Overwritten in place: the buffers are reused, not allocated per event.
        let slot = if notable {
            self.notable.get_or_insert_with(String::new)
        } else {
            &mut self.routine
        };
        slot.clear();
        slot.push_str(text);
    }

    /// Forgets what was heard (it has been said, or something else was).
    fn clear(&mut self) {
        self.heard = 0;
        self.notable = None;
    }

    fn speak(&mut self, wall: f64) {
        let due = self.last.is_none_or(|last| wall - last >= NARRATION_GAP_MS);
        if self.heard == 0 || !due {
            return;
        }
        let latest = self.notable.as_ref().unwrap_or(&self.routine);
        self.said = match self.heard - 1 {
            0 => latest.clone(),
            1 => format!("{latest} (and 1 more event)"),
            n => format!("{latest} (and {n} more events)"),
        };
        self.clear();
        self.last = Some(wall);
    }
}

/// Whether an event changes what the audience sees (worth saying over routine polling).
fn notable(event: &WorldEvent) -> bool {
    !matches!(
        event.engine,
        None | Some(EventKind::LongPollStarted { .. }) | Some(EventKind::LongPollTimedOut { .. })
    )
}

/// How an actor is named on screen.
pub fn actor_name(actor: &Actor) -> String {
    match actor {
        Actor::Sqs => "SQS".to_string(),
        Actor::Worker(name) | Actor::Producer(name) | Actor::Client(name) => name.clone(),
        Actor::User => "You".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(at: Millis, text: &str, engine: Option<EventKind>) -> WorldEvent {
        WorldEvent {
            at,
            actor: Actor::Sqs,
            action: None,
            message_id: Some("m1".into()),
            engine,
            text: text.into(),
        }
    }

    /// A Received event of `id`, hidden until 30 s.
    fn received(id: &str) -> EventKind {
        EventKind::Received {
            queue: "q".into(),
            message_id: id.into(),
            receipt_handle: Default::default(),
            receive_count: 1,
            visible_at: 30_000,
        }
    }

    #[test]
    fn narration_is_throttled_and_summarised() {
        let mut j = Journal::default();
        j.record(vec![event(0, "first", None)], 0.0, true);
        j.settle(0.0);
        assert_eq!(j.announcement(), "first");
        let deleted = EventKind::Deleted {
            queue: "q".into(),
            message_id: "m1".into(),
            receipt_handle: Default::default(),
        };
        let events = vec![event(1, "a", Some(deleted)), event(2, "b", None)];
        j.record(events, 500.0, true);
        j.settle(500.0);
        assert_eq!(j.announcement(), "first");
        j.settle(2100.0);
        assert_eq!(j.announcement(), "a (and 1 more event)");
    }

    #[test]
    fn histories_are_kept_for_a_bounded_number_of_messages() {
        let mut j = Journal::default();
        let events = (0..HISTORY_MESSAGES as u64 + 10).map(|i| WorldEvent {
            message_id: Some(format!("m{i}")),
            ..event(i, "sent", None)
        });
        j.record(events.collect(), 0.0, false);
        assert_eq!(j.histories.len(), HISTORY_MESSAGES);
        assert!(
            j.history("m0").is_empty(),
            "the oldest history is forgotten"
        );
        assert_eq!(j.history(&format!("m{}", HISTORY_MESSAGES + 9)).len(), 1);
    }

    #[test]
    fn the_latest_events_are_kept_for_export() {
        let mut j = Journal::default();
        for batch in 0..3 {
            let events = (0..5_000).map(|i| event(batch * 5_000 + i, "sent", None));
            j.record(events.collect(), 0.0, false);
        }
        let kept = j.events();
        assert_eq!(kept.len(), EVENTS_LIMIT);
        assert_eq!(kept[0].at, 15_000 - EVENTS_LIMIT as u64);
        assert_eq!(kept[EVENTS_LIMIT - 1].at, 14_999);
        assert_eq!(j.seen(), 15_000);
    }

    #[test]
    fn only_messages_in_flight_keep_a_window() {
        let mut j = Journal::default();
        let gone = [
            EventKind::MovedToDeadLetterQueue {
                queue: "q".into(),
                dead_letter_queue: "dlq".into(),
                message_id: "m1".into(),
                receive_count: 4,
            },
            EventKind::RetentionExpired {
                queue: "q".into(),
                message_id: "m2".into(),
            },
            EventKind::Purged {
                queue: "q".into(),
                message_ids: vec!["m3".into()],
            },
        ];
        let ids = ["m1", "m2", "m3", "m4"];
        let events = ids.map(|id| event(0, "got", Some(received(id))));
        j.record(events.into(), 0.0, false);
        assert!(ids.iter().all(|id| j.window(id).is_some()));
        j.record(
            gone.map(|e| event(40_000, "gone", Some(e))).into(),
            0.0,
            false,
        );
        assert_eq!(j.windows.len(), 1);
        assert_eq!(j.window("m4"), Some((0, 30_000)));
    }

    #[test]
    fn a_message_in_flight_is_hidden_for_what_was_said_last() {
        let mut j = Journal::default();
        let worker = |at, id: Option<&str>, text: &str, engine| WorldEvent {
            at,
            actor: Actor::Worker("Worker 1".into()),
            action: None,
            message_id: id.map(str::to_string),
            engine,
            text: text.into(),
        };
        j.record(
            vec![
                worker(0, None, "Worker 1 started", None),
                worker(0, Some("m1"), "Worker 1 got m1", Some(received("m1"))),
                worker(0, Some("m2"), "Worker 1 got m2", Some(received("m2"))),
                worker(
                    4,
                    Some("m1"),
                    "Worker 1: the job for m1 failed; no delete",
                    None,
                ),
            ],
            0.0,
            false,
        );
        let why = |j: &Journal, id| j.why_hidden(id).map(|w| (w.at, w.text.clone()));
        assert_eq!(
            why(&j, "m1"),
            Some((4, "Worker 1: the job for m1 failed; no delete".into()))
        );
        // Said before the receive: not why.
        assert_eq!(why(&j, "m2"), Some((0, "Worker 1 got m2".into())));
        j.record(
            vec![worker(9, None, "Worker 1 was removed", None)],
            0.0,
            false,
        );
        assert_eq!(why(&j, "m2"), Some((9, "Worker 1 was removed".into())));
        assert_eq!(why(&j, "m3"), None);
    }

    #[test]
    fn windows_histories_and_departures() {
        let mut j = Journal::default();
        let received = EventKind::Received {
            queue: "q".into(),
            message_id: "m1".into(),
            receipt_handle: Default::default(),
            receive_count: 1,
            visible_at: 30_000,
        };
        j.record(vec![event(0, "got", Some(received))], 0.0, false);
        assert_eq!(j.window("m1"), Some((0, 30_000)));
        let deleted = EventKind::Deleted {
            queue: "q".into(),
            message_id: "m1".into(),
            receipt_handle: Default::default(),
        };
        j.record(vec![event(5, "gone", Some(deleted))], 100.0, false);
        assert_eq!(j.window("m1"), None);
        assert_eq!(j.history("m1").len(), 2);
        assert_eq!(j.departures.len(), 1);
        j.settle(100.0 + DEPARTURE_MS);
        assert!(j.departures.is_empty());
        assert_eq!(j.log.data.len(), 2);
        assert_eq!(j.events().len(), 2);
        assert_eq!(j.announcement(), "");
    }
}
