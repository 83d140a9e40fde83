//! What the stage draws at one instant, read from the world: the queue's waiting messages, each
//! worker lane with the messages it holds, the dead-letter queue, and the cards fading out after
//! a delete. Every state shown here was decided by the engine or the World; this module only
//! sorts messages into places and words their labels.

use super::format::secs_left;
use super::journal::Journal;
use sqs_engine::view::{MessageState, MessageView};
use sqs_engine::Millis;
use sqs_sim::{WorkerStatus, WorkerView, World};
use std::collections::{HashMap, HashSet};

/// More cards than this in one place are drawn as counts per state.
pub const MAX_CARDS: usize = 200;

/// How a card looks: each has its colour and its shape or badge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Look {
    /// Receivable: a filled card.
    Visible,
    /// FIFO: visible but waiting behind an in-flight message of its group: a lock.
    Blocked,
    /// Hidden by a delay: dashed outline and a clock.
    Delayed,
    /// Received and hidden: a countdown ring.
    InFlight,
    /// A worker still works on a message whose lease it lost (its visibility timeout ran out, or
    /// another receipt deleted it).
    Stale,
    /// In the dead-letter queue: red, with a DLQ badge.
    DeadLetter,
    /// Just deleted: fades out with a check.
    Leaving,
}

impl Look {
    /// The state in words, as in the accessible name.
    pub fn words(self) -> &'static str {
        match self {
            Look::Visible | Look::Blocked => "visible",
            Look::Delayed => "delayed",
            Look::InFlight => "in flight",
            Look::Stale => "lease lost, worker still on it",
            Look::DeadLetter => "in dead-letter queue",
            Look::Leaving => "deleted",
        }
    }

    /// The `data-look` attribute (CSS hook).
    pub fn key(self) -> &'static str {
        match self {
            Look::Visible => "visible",
            Look::Blocked => "blocked",
            Look::Delayed => "delayed",
            Look::InFlight => "inflight",
            Look::Stale => "stale",
            Look::DeadLetter => "dead",
            Look::Leaving => "leaving",
        }
    }
}

/// One message as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    /// MessageId.
    pub id: String,
    /// Body.
    pub body: String,
    /// How it looks.
    pub look: Look,
    /// Time left on its countdown (delay or visibility), if it has one.
    pub left: Option<Millis>,
    /// The countdown's whole length (for the ring).
    pub span: Option<Millis>,
    /// ApproximateReceiveCount.
    pub receive_count: u32,
    /// The receipt handle of the current (or stale) receive.
    pub receipt_handle: Option<String>,
    /// MessageGroupId.
    pub group_id: Option<String>,
    /// Progress of the job working on it, 0..=1, if a worker is on it.
    pub job: Option<f64>,
}

impl Card {
    /// The accessible name: body, state, then what a listener needs
    /// (`order-1, in flight, 12 s left, receive count 2`).
    pub fn label(&self) -> String {
        let mut parts = vec![self.body.clone(), self.look.words().to_string()];
        if self.look == Look::Blocked {
            let group = self.group_id.as_deref().unwrap_or("?");
            parts.push(format!("blocked: group {group} has a message in flight"));
        }
        if let Some(left) = self.left {
            parts.push(format!("{} s left", secs_left(left)));
        }
        if self.receive_count > 0 {
            parts.push(format!("receive count {}", self.receive_count));
        }
        parts.join(", ")
    }

    /// The fraction of the countdown still to run, 0..=1.
    pub fn remaining(&self) -> Option<f64> {
        match (self.left, self.span) {
            (Some(left), Some(span)) if span > 0 => Some((left as f64 / span as f64).min(1.0)),
            (Some(_), _) => Some(1.0),
            _ => None,
        }
    }
}

/// A place with messages: the cards, or counts per look when there are too many to draw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Place {
    /// Cards, in the engine's order (empty when aggregated).
    pub cards: Vec<Card>,
    /// How many messages are here.
    pub total: usize,
    /// Counts per look, set when aggregated.
    pub counts: Vec<(Look, usize)>,
}

impl Place {
    fn new(cards: Vec<Card>) -> Place {
        let total = cards.len();
        if total <= MAX_CARDS {
            return Place {
                cards,
                total,
                counts: Vec::new(),
            };
        }
        let mut counts: Vec<(Look, usize)> = Vec::new();
        for card in &cards {
            match counts.iter_mut().find(|(look, _)| *look == card.look) {
                Some((_, n)) => *n += 1,
                None => counts.push((card.look, 1)),
            }
        }
        Place {
            cards: Vec::new(),
            total,
            counts,
        }
    }

    /// Whether it is drawn as counts.
    pub fn aggregated(&self) -> bool {
        !self.counts.is_empty()
    }
}

/// A worker lane.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    /// The worker (its `holding` is drawn through `place`).
    pub worker: WorkerView,
    /// The messages it holds.
    pub place: Place,
    /// Its messages just deleted, fading out.
    pub leaving: Vec<Card>,
}

/// The queue being watched.
#[derive(Clone, Debug, PartialEq)]
pub struct QueueInfo {
    /// Its name.
    pub name: String,
    /// Whether it is a FIFO queue.
    pub fifo: bool,
    /// GetQueueAttributes(All), as the engine answers.
    pub attributes: Vec<(String, String)>,
}

impl QueueInfo {
    /// One attribute's current value.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Everything the stage draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stage {
    /// Virtual now.
    pub now: Millis,
    /// The queue, once it exists.
    pub queue: Option<QueueInfo>,
    /// Its dead-letter queue's name, if it has one.
    pub dlq: Option<String>,
    /// Delayed and visible messages.
    pub queued: Place,
    /// Just deleted from no lane (a delete by hand), fading out in the queue.
    pub leaving: Vec<Card>,
    /// Worker lanes, in the order they were added.
    pub lanes: Vec<Lane>,
    /// In-flight messages no lane holds (a lane was removed, or a receive by hand).
    pub unheld: Place,
    /// The dead-letter queue's messages.
    pub dead: Place,
}

impl Stage {
    /// Reads the world. `previous` is the last frame's stage: a message deleted since then is
    /// drawn fading out where it was.
    pub fn build(world: &World, journal: &Journal, previous: &Stage) -> Stage {
        let now = world.now();
        let (queue_name, dlq) = roles(world);
        let Some(name) = queue_name else {
            return Stage {
                now,
                lanes: lanes_without_queue(world),
                ..Stage::default()
            };
        };
        let engine = world.engine();
        let attributes: Vec<(String, String)> = engine
            .attributes(&name)
            .unwrap_or_default()
            .into_iter()
            .collect();
        let fifo = attributes
            .iter()
            .any(|(k, v)| k == "FifoQueue" && v == "true");
        let messages = engine.messages(&name);
        let card = |m: &MessageView, look| card(m, look, now, journal);

        let mut queued = Vec::new();
        let mut in_flight: HashMap<&str, &MessageView> = HashMap::new();
        for m in &messages {
            match &m.state {
                MessageState::Visible if m.blocked_by_group => queued.push(card(m, Look::Blocked)),
                MessageState::Visible => queued.push(card(m, Look::Visible)),
                MessageState::Delayed { .. } => queued.push(card(m, Look::Delayed)),
                MessageState::InFlight { .. } => {
                    in_flight.insert(&m.message_id, m);
                }
            }
        }

        let mut claimed = HashSet::new();
        let lanes = world
            .workers()
            .into_iter()
            .map(|worker| {
                let mut cards = Vec::new();
                for held in &worker.holding {
                    let job = held.done_at.map(|done| {
                        let span = done.saturating_sub(held.started_at).max(1);
                        (now.saturating_sub(held.started_at) as f64 / span as f64).min(1.0)
                    });
                    match in_flight.get(held.message_id.as_str()) {
                        Some(m) if holds(m, &held.receipt_handle) => {
                            claimed.insert(m.message_id.clone());
                            cards.push(Card {
                                job,
                                ..card(m, Look::InFlight)
                            });
                        }
                        // Still working, but the lease is gone: the timeout ran out (the message
                        // is back in the queue or with another worker), or another receipt
                        // deleted it (then only the last frame knows its body).
                        _ if worker.status != WorkerStatus::Dead => {
                            let now_or_before = messages
                                .iter()
                                .find(|m| m.message_id == held.message_id)
                                .map(|m| card(m, Look::Stale))
                                .or_else(|| previous.find_any(&held.message_id).cloned());
                            if let Some(was) = now_or_before {
                                cards.push(Card {
                                    look: Look::Stale,
                                    left: None,
                                    span: None,
                                    job,
                                    receipt_handle: Some(held.receipt_handle.clone()),
                                    ..was
                                });
                            }
                        }
                        _ => {}
                    }
                }
                let leaving = departed(journal, previous, Some(&worker.name));
                Lane {
                    worker,
                    place: Place::new(cards),
                    leaving,
                }
            })
            .collect();

        let unheld = messages
            .iter()
            .filter(|m| in_flight.contains_key(m.message_id.as_str()))
            .filter(|m| !claimed.contains(&m.message_id))
            .map(|m| card(m, Look::InFlight))
            .collect();
        let dead = dlq
            .as_deref()
            .map(|q| engine.messages(q))
            .unwrap_or_default()
            .iter()
            .map(|m| card(m, Look::DeadLetter))
            .collect();

        Stage {
            now,
            queue: Some(QueueInfo {
                name,
                fifo,
                attributes,
            }),
            dlq,
            queued: Place::new(queued),
            leaving: departed(journal, previous, None),
            lanes,
            unheld: Place::new(unheld),
            dead: Place::new(dead),
        }
    }

    /// The message's card (not a stale copy) wherever it is on the stage.
    pub fn find(&self, id: &str) -> Option<&Card> {
        self.cards().find(|c| c.id == id && c.look != Look::Stale)
    }

    /// Any card with this id, stale or leaving ones included.
    fn find_any(&self, id: &str) -> Option<&Card> {
        let leaving = self.lanes.iter().flat_map(|l| l.leaving.iter());
        self.cards().chain(leaving).find(|c| c.id == id)
    }

    fn cards(&self) -> impl Iterator<Item = &Card> {
        let places = [&self.queued, &self.unheld, &self.dead];
        places
            .into_iter()
            .chain(self.lanes.iter().map(|l| &l.place))
            .flat_map(|p| p.cards.iter())
    }
}

/// Whether the engine's in-flight message is hidden under this receipt handle.
fn holds(m: &MessageView, handle: &str) -> bool {
    matches!(&m.state, MessageState::InFlight { receipt_handle, .. } if receipt_handle == handle)
}

fn card(m: &MessageView, look: Look, now: Millis, journal: &Journal) -> Card {
    let (left, span) = match &m.state {
        MessageState::Delayed { until } => (
            Some(until.saturating_sub(now)),
            Some(until.saturating_sub(m.sent_at)),
        ),
        MessageState::InFlight { until, .. } => {
            let span = journal
                .window(&m.message_id)
                .filter(|(_, end)| end == until)
                .map(|(start, end)| end - start);
            (Some(until.saturating_sub(now)), span)
        }
        MessageState::Visible => (None, None),
    };
    let receipt_handle = match &m.state {
        MessageState::InFlight { receipt_handle, .. } => Some(receipt_handle.clone()),
        _ => None,
    };
    Card {
        id: m.message_id.clone(),
        body: m.body.clone(),
        look,
        left,
        span,
        receive_count: m.receive_count,
        receipt_handle,
        group_id: m.group_id.clone(),
        job: None,
    }
}

/// Deleted messages last seen in this lane (`None`: in the queue or unheld), as leaving cards.
fn departed(journal: &Journal, previous: &Stage, lane: Option<&str>) -> Vec<Card> {
    let before: Vec<&Card> = match lane {
        Some(name) => previous
            .lanes
            .iter()
            .filter(|l| l.worker.name == name)
            .flat_map(|l| l.place.cards.iter().chain(l.leaving.iter()))
            .collect(),
        None => previous
            .queued
            .cards
            .iter()
            .chain(previous.unheld.cards.iter())
            .chain(previous.leaving.iter())
            .collect(),
    };
    journal
        .departures
        .iter()
        .filter_map(|d| {
            before
                .iter()
                .find(|c| c.id == d.message_id && c.look != Look::Stale)
        })
        .map(|c| Card {
            look: Look::Leaving,
            left: None,
            job: None,
            ..(*c).clone()
        })
        .collect()
}

/// Lanes when there is no queue yet (nothing to hold).
fn lanes_without_queue(world: &World) -> Vec<Lane> {
    world
        .workers()
        .into_iter()
        .map(|worker| Lane {
            worker,
            place: Place::default(),
            leaving: Vec::new(),
        })
        .collect()
}

/// Which queue the stage shows and its dead-letter queue: the queue the first worker consumes,
/// else the first queue with a RedrivePolicy, else the first queue that is nobody's DLQ.
fn roles(world: &World) -> (Option<String>, Option<String>) {
    let engine = world.engine();
    let names = engine.queue_names();
    let target = |queue: &str| -> Option<String> {
        let policy = engine.attributes(queue)?.get("RedrivePolicy")?.clone();
        let json: serde_json::Value = serde_json::from_str(&policy).ok()?;
        let arn = json.get("deadLetterTargetArn")?.as_str()?.to_string();
        names
            .iter()
            .find(|n| engine.queue_arn(n).as_deref() == Some(arn.as_str()))
            .cloned()
    };
    let dlqs: HashSet<String> = names.iter().filter_map(|n| target(n)).collect();
    let consumed = world
        .workers()
        .into_iter()
        .map(|w| w.policy.queue)
        .find(|q| names.contains(q) && !dlqs.contains(q));
    let main = consumed
        .or_else(|| names.iter().find(|n| target(n).is_some()).cloned())
        .or_else(|| names.iter().find(|n| !dlqs.contains(*n)).cloned())
        .or_else(|| names.first().cloned());
    let dlq = main.as_deref().and_then(target);
    (main, dlq)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(look: Look, left: Option<Millis>, count: u32) -> Card {
        Card {
            id: "m".into(),
            body: "order-1".into(),
            look,
            left,
            span: Some(30_000),
            receive_count: count,
            receipt_handle: None,
            group_id: Some("g1".into()),
            job: None,
        }
    }

    #[test]
    fn labels_name_body_and_state() {
        assert_eq!(card(Look::Visible, None, 0).label(), "order-1, visible");
        assert_eq!(
            card(Look::InFlight, Some(11_200), 2).label(),
            "order-1, in flight, 12 s left, receive count 2"
        );
        assert_eq!(
            card(Look::Blocked, None, 0).label(),
            "order-1, visible, blocked: group g1 has a message in flight"
        );
        assert_eq!(
            card(Look::Delayed, Some(5_000), 0).label(),
            "order-1, delayed, 5 s left"
        );
        assert_eq!(card(Look::InFlight, Some(15_000), 1).remaining(), Some(0.5));
    }

    #[test]
    fn crowded_places_become_counts() {
        let mut cards = vec![card(Look::Visible, None, 0); MAX_CARDS];
        assert!(!Place::new(cards.clone()).aggregated());
        cards.push(card(Look::Delayed, Some(1), 0));
        let place = Place::new(cards);
        assert!(place.aggregated());
        assert_eq!(place.total, MAX_CARDS + 1);
        assert_eq!(
            place.counts,
            vec![(Look::Visible, MAX_CARDS), (Look::Delayed, 1)]
        );
    }
}
