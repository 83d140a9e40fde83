//! What the stage draws at one instant, read from the world: the queue's waiting messages, each
//! worker lane with the messages it holds, the dead-letter queue, and the cards fading out after
//! a delete. Every state shown here was decided by the engine or the World; this module only
//! sorts messages into places and words their labels.

use super::format::{secs_left, wall_clock};
use super::journal::Journal;
use sqs_engine::view::{MessageState, MessageView};
use sqs_engine::Millis;
use sqs_sim::{WorkerPolicy, WorkerStatus, WorkerView, World};
use std::collections::hash_map::DefaultHasher;
use std::fmt::Write;
use std::hash::{Hash, Hasher};

/// More messages than this on the stage (the queue, the workers and the dead-letter queue
/// together) are drawn as counts per state and per worker: thousands of cards can be neither
/// read nor redrawn 60 times a second. At 1280x720 (a projector) about 30 cards fit on the
/// stage's first screen, so 100 is already three screens to scroll; drawing ~200 at once (a
/// seek into a busy hour) took most of a 200 ms seek.
pub const MAX_CARDS: usize = 100;
/// Cards fading out at once in one place: enough to follow a delete; at high speed more
/// deletes than this per second-and-a-half are a blur anyway.
const MAX_LEAVING: usize = 6;

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
    /// For a message in flight that no lane holds: why it is hidden, in the World's words.
    pub why: Option<Why>,
}

/// Why a message in flight is held by no lane: what the World last said about it, when, and
/// when its visibility timeout returns it.
#[derive(Clone, Debug, PartialEq)]
pub struct Why {
    /// When it was said.
    pub at: Millis,
    /// The World's words, up to their first `; ` (the rest explains the timeout, which the
    /// card shows by itself).
    pub text: String,
    /// When the message is visible again.
    pub until: Millis,
}

impl Why {
    /// `Worker: the job for order-2 failed (poison message) at 12:00:24; visible again at 12:00:34`.
    pub fn words(&self) -> String {
        format!(
            "{} at {}; visible again at {}",
            self.text,
            wall_clock(self.at),
            wall_clock(self.until)
        )
    }
}

impl Card {
    /// The accessible name: body, state, then what a listener needs
    /// (`order-1, in flight, 12 s left, receive count 2`).
    pub fn accessible_name(&self) -> String {
        let mut label = format!("{}, {}", self.body, self.look.words());
        if self.look == Look::Blocked {
            let group = self.group_id.as_deref().unwrap_or("?");
            let _ = write!(label, ", blocked: group {group} has a message in flight");
        }
        if let Some(left) = self.left {
            let _ = write!(label, ", {} s left", secs_left(left));
        }
        if self.receive_count > 0 {
            let _ = write!(label, ", receive count {}", self.receive_count);
        }
        if let Some(why) = &self.why {
            let _ = write!(label, ", held by no worker: {}", why.words());
        }
        label
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

/// A place with messages: their cards, or (on a crowded stage) how many there are per look.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Place {
    /// Cards, in the engine's order (empty when counted).
    pub cards: Vec<Card>,
    /// How many messages are here.
    pub total: usize,
    /// Counts per look (none zero), set on a crowded stage instead of cards.
    pub counts: Vec<(Look, usize)>,
}

impl Place {
    fn drawn(cards: Vec<Card>) -> Place {
        Place {
            total: cards.len(),
            cards,
            counts: Vec::new(),
        }
    }

    fn counted(counts: impl IntoIterator<Item = (Look, usize)>) -> Place {
        let counts: Vec<(Look, usize)> = counts.into_iter().filter(|(_, n)| *n > 0).collect();
        Place {
            total: counts.iter().map(|(_, n)| n).sum(),
            cards: Vec::new(),
            counts,
        }
    }

    /// Whether it is drawn as counts.
    pub fn aggregated(&self) -> bool {
        !self.counts.is_empty()
    }

    /// How many of its messages look this way.
    pub fn count(&self, look: Look) -> usize {
        if self.aggregated() {
            self.counts
                .iter()
                .filter(|(l, _)| *l == look)
                .map(|(_, n)| n)
                .sum()
        } else {
            self.cards.iter().filter(|c| c.look == look).count()
        }
    }
}

/// A crowded stage's messages per state (they add up to every message of the queue and its
/// dead-letter queue), from SQS's own counts: ApproximateNumberOfMessages (visible, FIFO
/// messages waiting behind their group included), ...NotVisible (in flight), ...Delayed, and
/// the dead-letter queue's messages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Crowd {
    /// Hidden by a delay.
    pub delayed: usize,
    /// Receivable.
    pub visible: usize,
    /// Received, hidden for their visibility timeout.
    pub in_flight: usize,
    /// In the dead-letter queue; `None` when the queue has none (no tile says "0 in
    /// dead-letter queue" then).
    pub dead_letter: Option<usize>,
}

impl Crowd {
    /// Every message counted.
    pub fn total(&self) -> usize {
        self.delayed + self.visible + self.in_flight + self.dead_letter.unwrap_or(0)
    }

    /// The counts with the look that stands for each state, in lifecycle order (the
    /// dead-letter queue's only if there is one).
    pub fn by_look(&self) -> Vec<(Look, usize)> {
        let queue = [
            (Look::Delayed, self.delayed),
            (Look::Visible, self.visible),
            (Look::InFlight, self.in_flight),
        ];
        let dead = self.dead_letter.map(|n| (Look::DeadLetter, n));
        queue.into_iter().chain(dead).collect()
    }
}

/// A worker as its lane draws it: the World's view less what changes with every call it makes
/// (its holdings are drawn through the lane's place), so that a lane redraws only when
/// something it shows changes.
#[derive(Clone, Debug, PartialEq)]
pub struct Worker {
    /// Its name.
    pub name: String,
    /// Its policy.
    pub policy: WorkerPolicy,
    /// What it is doing.
    pub status: WorkerStatus,
    /// Faults armed for its next job.
    pub armed_faults: Vec<String>,
    /// A client of its own (the live view's): its process calls SQS itself.
    pub client: bool,
}

impl From<WorkerView> for Worker {
    fn from(view: WorkerView) -> Worker {
        Worker {
            name: view.name,
            policy: view.policy,
            status: view.status,
            armed_faults: view.armed_faults,
            client: view.client,
        }
    }
}

/// A worker lane.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    /// The worker.
    pub worker: Worker,
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
    /// GetQueueAttributes(All) as the engine answers, less the message counts (they change
    /// every frame; the places hold them).
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
    /// When lanes consume more than one queue (a scenario that sets two side by side): those
    /// queues, in the order of their first lane. The stage draws one of them; every lane draws
    /// what it holds, from whichever queue.
    pub queues: Vec<String>,
    /// Its dead-letter queue's name, if it has one.
    pub dlq: Option<String>,
    /// Delayed and visible messages.
    pub queued: Place,
    /// Just deleted from no lane (a delete by hand), fading out in the queue.
    pub leaving: Vec<Card>,
    /// Worker lanes, in the order they were added.
    pub lanes: Vec<Lane>,
    /// In-flight messages no lane holds (their job failed, their lane was removed, a receive
    /// by hand): drawn in the queue, with why.
    pub unheld: Place,
    /// The dead-letter queue's messages.
    pub dead: Place,
    /// Set when there are more than [`MAX_CARDS`] messages: every place is counted, not drawn.
    pub crowd: Option<Crowd>,
}

impl Stage {
    /// Reads the world. `previous` is the last frame's stage: a message deleted since then is
    /// drawn fading out where it was.
    pub fn build(world: &World, journal: &Journal, previous: &Stage) -> Stage {
        Stage::showing(world, journal, previous, None)
    }

    /// [`Stage::build`], showing the queue named `shown` when lanes consume several queues
    /// (else the first lane's queue).
    pub fn showing(
        world: &World,
        journal: &Journal,
        previous: &Stage,
        shown: Option<&str>,
    ) -> Stage {
        let now = world.now();
        let workers = world.workers();
        let Roles { main, dlq, queues } = roles(world, &workers, shown);
        let Some(name) = main else {
            return Stage {
                now,
                lanes: lanes_without_queue(workers),
                ..Stage::default()
            };
        };
        let queues = if queues.len() > 1 { queues } else { Vec::new() };
        let (engine, focus) = (world.engine(), world.focus());
        let mut attributes: Vec<(String, String)> = engine
            .attributes_in(focus, &name)
            .unwrap_or_default()
            .into_iter()
            .collect();
        let fifo = attributes
            .iter()
            .any(|(k, v)| k == "FifoQueue" && v == "true");
        let [visible, in_flight, delayed] = engine
            .depth_in(focus, &name)
            .unwrap_or_default()
            .map(|n| n as usize);
        attributes.retain(|(k, _)| !COUNTS.contains(&k.as_str()));
        let dead_letter = dlq
            .as_deref()
            .and_then(|q| engine.depth_in(focus, q))
            .map(|d| d.iter().sum::<u64>() as usize);
        let queue = QueueInfo {
            name,
            fifo,
            attributes,
        };
        let crowd = Crowd {
            delayed,
            visible,
            in_flight,
            dead_letter,
        };
        // The other queues on the switch: lanes that consume them draw what they hold, so their
        // messages count towards the cards the stage may draw (and are read only when it does).
        let others = || queues.iter().filter(|q| **q != queue.name);
        let elsewhere_stored: usize = others()
            .filter_map(|q| engine.depth_in(focus, q))
            .map(|d| d.iter().sum::<u64>() as usize)
            .sum();
        if crowd.total() + elsewhere_stored > MAX_CARDS {
            return Stage {
                queues,
                ..Stage::crowded(world, workers, queue, dlq, crowd)
            };
        }
        let messages = engine.messages_in(focus, &queue.name);
        let elsewhere: Vec<MessageView> = others()
            .flat_map(|q| engine.messages_in(focus, q))
            .collect();
        let card = |m: &MessageView, look| card(m, look, now, journal);

        let mut queued = Vec::new();
        // In flight and not yet found on a lane (at most [`MAX_CARDS`]: a list, searched).
        let mut in_flight: Vec<&MessageView> = Vec::new();
        for m in &messages {
            match &m.state {
                MessageState::Visible if m.blocked_by_group => queued.push(card(m, Look::Blocked)),
                MessageState::Visible => queued.push(card(m, Look::Visible)),
                MessageState::Delayed { .. } => queued.push(card(m, Look::Delayed)),
                MessageState::InFlight { .. } => in_flight.push(m),
            }
        }
        in_flight.extend(
            elsewhere
                .iter()
                .filter(|m| matches!(m.state, MessageState::InFlight { .. })),
        );

        let lanes = workers
            .into_iter()
            .map(|worker| {
                let mut cards = Vec::new();
                for held in &worker.holding {
                    let job = held.done_at.map(|done| {
                        let span = done.saturating_sub(held.started_at).max(1);
                        (now.saturating_sub(held.started_at) as f64 / span as f64).min(1.0)
                    });
                    // A message a lane holds leaves `in_flight` (what is left is held by no
                    // lane); one receipt handle is held by one lane at most.
                    match in_flight
                        .iter()
                        .position(|m| m.message_id == held.message_id)
                    {
                        Some(i) if holds(in_flight[i], &held.receipt_handle) => {
                            let m = in_flight.swap_remove(i);
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
                                .chain(&elsewhere)
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
                    worker: worker.into(),
                    place: Place::drawn(cards),
                    leaving,
                }
            })
            .collect();

        let unheld = messages
            .iter()
            .filter(|m| in_flight.iter().any(|f| f.message_id == m.message_id))
            .map(|m| Card {
                why: why_unheld(m, journal),
                ..card(m, Look::InFlight)
            })
            .collect();
        let dead = dlq
            .as_deref()
            .map(|q| engine.messages_in(focus, q))
            .unwrap_or_default()
            .iter()
            .map(|m| card(m, Look::DeadLetter))
            .collect();

        Stage {
            now,
            queue: Some(queue),
            queues,
            dlq,
            queued: Place::drawn(queued),
            leaving: departed(journal, previous, None),
            lanes,
            unheld: Place::drawn(unheld),
            dead: Place::drawn(dead),
            crowd: None,
        }
    }

    /// The stage as counts: per state from SQS's counts, per worker from what each holds (a
    /// message counts as in flight on the lane of the worker that received it last, as the
    /// World tracks it, else as a lost lease while that worker still works on it). Reads no
    /// message: its cost does not grow with the queue.
    fn crowded(
        world: &World,
        workers: Vec<WorkerView>,
        queue: QueueInfo,
        dlq: Option<String>,
        crowd: Crowd,
    ) -> Stage {
        let lanes: Vec<Lane> = workers
            .into_iter()
            .map(|worker| {
                let name = worker.name.as_str();
                let leased = worker
                    .holding
                    .iter()
                    .filter(|h| world.holder_of(&h.message_id) == Some(name))
                    .count();
                let lost = match worker.status {
                    WorkerStatus::Dead => 0,
                    _ => worker.holding.len() - leased,
                };
                Lane {
                    place: Place::counted([(Look::InFlight, leased), (Look::Stale, lost)]),
                    worker: worker.into(),
                    leaving: Vec::new(),
                }
            })
            .collect();
        let claimed: usize = lanes.iter().map(|l| l.place.count(Look::InFlight)).sum();
        Stage {
            now: world.now(),
            queue: Some(queue),
            queues: Vec::new(),
            dlq,
            queued: Place::counted([
                (Look::Delayed, crowd.delayed),
                (Look::Visible, crowd.visible),
            ]),
            leaving: Vec::new(),
            lanes,
            unheld: Place::counted([(Look::InFlight, crowd.in_flight.saturating_sub(claimed))]),
            dead: Place::counted([(Look::DeadLetter, crowd.dead_letter.unwrap_or(0))]),
            crowd: Some(crowd),
        }
    }

    /// The message's card (not a stale copy) wherever it is on the stage.
    pub fn find(&self, id: &str) -> Option<&Card> {
        self.cards().find(|c| c.id == id && c.look != Look::Stale)
    }

    /// How the worker lanes are laid out: (columns, rows). Up to four lanes in two columns (one
    /// row for two); more in three, then four columns.
    pub fn lane_grid(&self) -> (usize, usize) {
        let cols = match self.lanes.len() {
            0 | 1 => 1,
            2..=4 => 2,
            5 | 6 | 9 => 3,
            _ => 4,
        };
        (cols, self.lanes.len().div_ceil(cols).max(1))
    }

    /// A fingerprint of which message is in which place: when it changes, cards glide.
    pub fn placement(&self) -> u64 {
        let mut h = DefaultHasher::new();
        let places = [&self.queued, &self.unheld, &self.dead];
        for (i, place) in places
            .into_iter()
            .chain(self.lanes.iter().map(|l| &l.place))
            .enumerate()
        {
            for card in &place.cards {
                (i, &card.id, card.look == Look::Stale).hash(&mut h);
            }
        }
        h.finish()
    }

    /// The waiting message `id` picked for the keyboard hand-over, if it is still waiting, and
    /// the workers it can be handed to.
    pub fn picked(&self, id: Option<&str>) -> Option<(Card, Vec<String>)> {
        let card = self
            .queued
            .cards
            .iter()
            .find(|c| Some(c.id.as_str()) == id)?;
        let workers = self.lanes.iter().map(|l| l.worker.name.clone()).collect();
        Some((card.clone(), workers))
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

/// The queue's RedrivePolicy maxReceiveCount, as set.
pub fn max_receives(stage: &Stage) -> Option<u32> {
    let policy = stage.queue.as_ref()?.attribute("RedrivePolicy")?;
    let policy = serde_json::from_str::<serde_json::Value>(policy).ok()?;
    let v = policy.get("maxReceiveCount")?;
    let n = v.as_u64().or_else(|| v.as_str()?.parse().ok())?;
    u32::try_from(n).ok()
}

/// GetQueueAttributes' message counts, left out of the settings shown (the stage draws them).
const COUNTS: [&str; 3] = [
    "ApproximateNumberOfMessages",
    "ApproximateNumberOfMessagesNotVisible",
    "ApproximateNumberOfMessagesDelayed",
];

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
        why: None,
    }
}

/// Why an in-flight message is hidden, from what the World said about it (the journal).
fn why_unheld(m: &MessageView, journal: &Journal) -> Option<Why> {
    let MessageState::InFlight { until, .. } = &m.state else {
        return None;
    };
    let word = journal.why_hidden(&m.message_id)?;
    let text = word.text.split("; ").next().unwrap_or_default().to_string();
    Some(Why {
        at: word.at,
        text,
        until: *until,
    })
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
    let mut leaving: Vec<Card> = journal
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
        .collect();
    leaving.drain(..leaving.len().saturating_sub(MAX_LEAVING));
    leaving
}

/// Lanes when there is no queue yet (nothing to hold).
fn lanes_without_queue(workers: Vec<WorkerView>) -> Vec<Lane> {
    workers
        .into_iter()
        .map(|worker| Lane {
            worker: worker.into(),
            place: Place::default(),
            leaving: Vec::new(),
        })
        .collect()
}

/// The queues on the stage: see [`roles`].
struct Roles {
    /// The queue shown.
    main: Option<String>,
    /// Its dead-letter queue.
    dlq: Option<String>,
    /// The queues the lanes consume (none a dead-letter queue), in the order of their first lane.
    queues: Vec<String>,
}

/// Which queue the stage shows and its dead-letter queue: `shown` if a lane consumes it, else
/// the queue the first worker consumes, else the first queue with a RedrivePolicy, else the
/// first queue that is nobody's DLQ.
fn roles(world: &World, workers: &[WorkerView], shown: Option<&str>) -> Roles {
    let (engine, focus) = (world.engine(), world.focus());
    let names = engine.queue_names_in(focus);
    let target = |queue: &str| -> Option<String> {
        let policy = engine
            .attributes_in(focus, queue)?
            .get("RedrivePolicy")?
            .clone();
        let json: serde_json::Value = serde_json::from_str(&policy).ok()?;
        let arn = json.get("deadLetterTargetArn")?.as_str()?.to_string();
        names.iter().find(|n| focus.queue_arn(n) == arn).cloned()
    };
    // A few queues: a list, searched.
    let dlqs: Vec<String> = names.iter().filter_map(|n| target(n)).collect();
    let mut queues: Vec<String> = Vec::new();
    for q in workers.iter().map(|w| &w.policy.queue) {
        if names.contains(q) && !dlqs.contains(q) && !queues.contains(q) {
            queues.push(q.clone());
        }
    }
    let main = shown
        .and_then(|q| queues.iter().find(|c| *c == q))
        .or_else(|| queues.first())
        .cloned()
        .or_else(|| names.iter().find(|n| target(n).is_some()).cloned())
        .or_else(|| names.iter().find(|n| !dlqs.contains(*n)).cloned())
        .or_else(|| names.first().cloned());
    let dlq = main.as_deref().and_then(target);
    Roles { main, dlq, queues }
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
            why: None,
        }
    }

    #[test]
    fn labels_name_body_and_state() {
        assert_eq!(
            card(Look::Visible, None, 0).accessible_name(),
            "order-1, visible"
        );
        assert_eq!(
            card(Look::InFlight, Some(11_200), 2).accessible_name(),
            "order-1, in flight, 12 s left, receive count 2"
        );
        assert_eq!(
            card(Look::Blocked, None, 0).accessible_name(),
            "order-1, visible, blocked: group g1 has a message in flight"
        );
        assert_eq!(
            card(Look::Delayed, Some(5_000), 0).accessible_name(),
            "order-1, delayed, 5 s left"
        );
        assert_eq!(card(Look::InFlight, Some(15_000), 1).remaining(), Some(0.5));
    }

    #[test]
    fn counted_places_skip_empty_looks() {
        let place = Place::counted([(Look::Delayed, 0), (Look::Visible, 3)]);
        assert!(place.aggregated());
        assert_eq!(place.total, 3);
        assert_eq!(place.counts, vec![(Look::Visible, 3)]);
        assert_eq!(place.count(Look::Visible), 3);
        assert_eq!(place.count(Look::Delayed), 0);
        assert!(!Place::counted([(Look::InFlight, 0)]).aggregated());
    }

    /// A queue `orders` with a dead-letter queue after 1 receive; `sent` messages, one in ten
    /// delayed; two workers that take 100 s per message and fail the first job.
    fn world(sent: usize) -> World {
        let json = format!(
            r#"{{"title": "t", "seed": 1, "steps": [
            {{"call": "CreateQueue", "input": {{"QueueName": "orders-dlq"}}}},
            {{"call": "CreateQueue", "input": {{"QueueName": "orders", "Attributes": {{"VisibilityTimeout": "30",
                "RedrivePolicy": "{{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:000000000000:orders-dlq\",\"maxReceiveCount\":\"1\"}}"}}}}}},
            {{"sim": "AddProducer", "input": {{"name": "P", "queue": "orders", "every": 0.001, "count": {now}, "body": "m-{{n}}"}}}},
            {{"sim": "AddProducer", "input": {{"name": "D", "queue": "orders", "every": 0.001, "count": {later}, "body": "d-{{n}}", "delay_seconds": 900}}}},
            {{"sim": "AddWorker", "input": {{"name": "Worker 1", "policy": {{"queue": "orders", "wait_time_seconds": 20, "processing": {{"kind": "Fixed", "seconds": 100}}}}}}}},
            {{"sim": "AddWorker", "input": {{"name": "Worker 2", "policy": {{"queue": "orders", "wait_time_seconds": 20, "processing": {{"kind": "Fixed", "seconds": 100}}}}}}}},
            {{"advance": 600}}
        ]}}"#,
            now = sent - sent / 10,
            later = sent / 10,
        );
        let scenario = sqs_sim::Scenario::parse("crowd", &json).expect("parses");
        let mut world = World::load(&scenario).expect("loads");
        // Long enough for a worker's job to outlast its 30 s lease: the message goes back, is
        // received again past maxReceiveCount and moves to the dead-letter queue.
        world.advance_to(200_000);
        world
    }

    /// The lane of the worker `name`.
    fn lane<'a>(stage: &'a Stage, name: &str) -> &'a Lane {
        let found = stage.lanes.iter().find(|l| l.worker.name == name);
        found.expect("a lane of that name")
    }

    /// Two queues, each with a worker: `few` messages in the first, `many` in the second.
    fn two_queues(few: usize, many: usize) -> World {
        let json = format!(
            r#"{{"title": "t", "seed": 1, "steps": [
            {{"call": "CreateQueue", "input": {{"QueueName": "small"}}}},
            {{"call": "CreateQueue", "input": {{"QueueName": "big"}}}},
            {{"sim": "AddProducer", "input": {{"name": "S", "queue": "small", "every": 0.001, "count": {few}, "body": "s-{{n}}"}}}},
            {{"sim": "AddProducer", "input": {{"name": "B", "queue": "big", "every": 0.001, "count": {many}, "body": "b-{{n}}"}}}},
            {{"sim": "AddWorker", "input": {{"name": "Small worker", "policy": {{"queue": "small", "wait_time_seconds": 20, "processing": {{"kind": "Fixed", "seconds": 100}}}}}}}},
            {{"sim": "AddWorker", "input": {{"name": "Big worker", "policy": {{"queue": "big", "wait_time_seconds": 20, "processing": {{"kind": "Fixed", "seconds": 100}}}}}}}},
            {{"advance": 60}}
        ]}}"#
        );
        let scenario = sqs_sim::Scenario::parse("two", &json).expect("parses");
        let mut world = World::load(&scenario).expect("loads");
        world.advance_to(10_000);
        world
    }

    #[test]
    fn the_other_queue_of_a_switch_counts_towards_the_cards_drawn() {
        let stage = |world: &World| Stage::build(world, &Journal::default(), &Stage::default());
        let quiet = stage(&two_queues(3, 5));
        assert_eq!(quiet.queues, ["small", "big"]);
        assert!(quiet.crowd.is_none());
        // The big queue's worker holds its card although the small queue is drawn.
        assert_eq!(lane(&quiet, "Big worker").place.count(Look::InFlight), 1);

        // Past MAX_CARDS in the two queues together, the stage is counted, not drawn.
        let busy = stage(&two_queues(3, MAX_CARDS));
        assert!(busy.crowd.is_some());
        assert_eq!(lane(&busy, "Big worker").place.count(Look::InFlight), 1);
    }

    #[test]
    fn a_stage_with_more_messages_than_cards_is_counted_per_state_and_per_worker() {
        let world = world(MAX_CARDS * 3);
        let stage = Stage::build(&world, &Journal::default(), &Stage::default());
        let crowd = stage.crowd.expect("crowded");
        let deleted = world.metrics().deleted as usize;
        assert_eq!(crowd.total(), MAX_CARDS * 3 - deleted);
        assert_eq!(crowd.delayed, MAX_CARDS * 3 / 10);
        assert!(
            crowd.dead_letter > Some(0) && crowd.in_flight > 0,
            "{crowd:?}"
        );
        assert_eq!(stage.queued.count(Look::Visible), crowd.visible);
        assert_eq!(stage.queued.count(Look::Delayed), crowd.delayed);
        assert_eq!(Some(stage.dead.total), crowd.dead_letter);
        let on_lanes: usize = stage
            .lanes
            .iter()
            .map(|l| l.place.count(Look::InFlight))
            .sum();
        assert_eq!(on_lanes + stage.unheld.total, crowd.in_flight);
        // Nothing drawn card by card, and the settings do not carry the counts.
        assert!(stage.cards().next().is_none());
        let queue = stage.queue.expect("queue");
        assert!(queue.attribute("VisibilityTimeout").is_some());
        assert!(queue.attribute("ApproximateNumberOfMessages").is_none());
    }

    /// A client of `sqs-sim serve` signed for another region than the server's: its queues, a
    /// dead-letter queue, a message it holds and one it does not.
    #[test]
    fn the_stage_shows_the_queues_of_a_client_in_another_region() {
        use sqs_engine::{Namespace, Request};
        use sqs_sim::{command::SimAction, Step};
        let abroad = Namespace::new("000000000000", "eu-west-1");
        let mut world = World::new(1);
        let mut call = |by: &str, action: &str, input: serde_json::Value| {
            let request = Request::from_input(action, input).expect("a request");
            let step = SimAction::Call {
                by: by.into(),
                namespace: abroad.clone(),
                request,
            };
            world.apply(Step::Sim(step)).expect("applied");
        };
        let redrive = serde_json::json!({
            "deadLetterTargetArn": abroad.queue_arn("orders-dlq"), "maxReceiveCount": 5
        });
        call(
            "shop",
            "CreateQueue",
            serde_json::json!({"QueueName": "orders-dlq"}),
        );
        call(
            "shop",
            "CreateQueue",
            serde_json::json!({
                "QueueName": "orders", "Attributes": {"RedrivePolicy": redrive.to_string()}
            }),
        );
        let url = abroad.queue_url("orders");
        for body in ["order-1", "order-2"] {
            call(
                "shop",
                "SendMessage",
                serde_json::json!({"QueueUrl": url, "MessageBody": body}),
            );
        }
        call(
            "billing-1",
            "ReceiveMessage",
            serde_json::json!({"QueueUrl": url}),
        );

        let stage = Stage::build(&world, &Journal::default(), &Stage::default());
        assert_eq!(
            stage.queue.as_ref().map(|q| q.name.as_str()),
            Some("orders")
        );
        assert_eq!(stage.dlq.as_deref(), Some("orders-dlq"));
        assert_eq!(stage.queued.count(Look::Visible), 1);
        assert_eq!(lane(&stage, "billing-1").place.count(Look::InFlight), 1);
    }

    #[test]
    fn a_stage_with_few_messages_draws_every_card() {
        let world = world(MAX_CARDS / 2);
        let stage = Stage::build(&world, &Journal::default(), &Stage::default());
        assert_eq!(stage.crowd, None);
        let stored = MAX_CARDS / 2 - world.metrics().deleted as usize;
        let live = stage.cards().filter(|c| c.look != Look::Stale).count();
        assert_eq!(live, stored);
        assert!(!stage.dead.cards.is_empty() && !stage.queued.cards.is_empty());
    }
}
