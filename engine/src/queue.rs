//! One queue's storage: messages in a slab, plus the indexes that keep every operation
//! logarithmic — receivable standard messages by (enqueue time, sequence), FIFO groups, and all
//! messages by enqueue time for retention. Every state change goes through [`Queue::modify`]
//! (a receive through its special case [`Queue::receive`]), which keeps the indexes and the
//! Approximate* counts exact.

use crate::api::{MessageId, QueueUrl};
use crate::attributes::QueueConfig;
use crate::event::QueueName;
use crate::fifo::Groups;
use crate::message::{Message, State};
use crate::namespace::Namespace;
use crate::order::{OrderKey, Ordered};
use crate::reply::PollId;
use crate::timers::TimerKey;
use crate::window::Window;
use crate::Millis;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How long FIFO deduplication ids and receive attempt ids are remembered (§3.4, §4.1).
pub(crate) const FIVE_MINUTES: Millis = 300_000;

/// Orders messages by (enqueue time, send sequence), packed into one number.
fn order_key(msg: &Message) -> OrderKey {
    crate::order::key(msg.enqueued_at, msg.seq)
}

/// The enqueue time in an [`OrderKey`].
fn enqueued_at(key: OrderKey) -> Millis {
    (key >> 64) as Millis
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Slot {
    gen: u32,
    msg: Option<Message>,
}

/// Exact counts behind the Approximate* attributes (§2.4).
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Counts {
    pub visible: usize,
    pub in_flight: usize,
    pub delayed: usize,
}

/// A message a ReceiveRequestAttemptId retry may return again: (slot, slot gen, receipt gen,
/// visibility changes) at the time of the original receive.
pub(crate) type AttemptItem = (u32, u32, u32, u32);

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Queue {
    /// Never reused, so receipt handles of a deleted queue stay invalid.
    pub uid: u32,
    pub name: QueueName,
    pub url: QueueUrl,
    pub arn: String,
    pub config: QueueConfig,
    /// Cost allocation tags (TagQueue), case-sensitive keys.
    pub tags: BTreeMap<String, String>,
    /// DeduplicationScope as it was at creation: AWS keeps that behaviour (§2.3).
    pub dedup_per_group: bool,
    pub created_at: Millis,
    pub modified_at: Millis,
    slots: Vec<Slot>,
    free: Vec<u32>,
    /// Standard: receivable messages (slots) by [`order_key`].
    pub ready: Ordered,
    pub groups: Groups,
    /// All messages (slots) by [`order_key`]: oldest first for retention.
    retention: Ordered,
    pub counts: Counts,
    /// Dedup key → original MessageId and sequence.
    pub dedup: Window<(MessageId, u64)>,
    pub attempts: Window<Vec<AttemptItem>>,
    pub last_purge: Option<Millis>,
    /// Pending long polls, in arrival order (a queue has a few).
    pub polls: Vec<PollId>,
    /// When the retention timer is set for, if it is.
    pub retention_timer: Option<Millis>,
    /// Delayed and in-flight messages (slots) by when they become visible: the [`TimerKey`]
    /// their reveal was scheduled under, so that same-instant work keeps scheduling order.
    pub hidden: Ordered,
    /// The key of this queue's armed [`crate::timers::Timer::Reveal`], if one is armed.
    pub reveal_timer: Option<TimerKey>,
}

impl Queue {
    pub(crate) fn new(
        uid: u32,
        namespace: &Namespace,
        name: &str,
        config: QueueConfig,
        now: Millis,
    ) -> Self {
        Queue {
            uid,
            url: QueueUrl::issued(namespace.queue_url(name), uid),
            arn: namespace.queue_arn(name),
            name: QueueName::new(name),
            tags: BTreeMap::new(),
            dedup_per_group: config.dedup_scope == "messageGroup",
            config,
            created_at: now,
            modified_at: now,
            slots: Vec::new(),
            free: Vec::new(),
            ready: Ordered::default(),
            groups: Groups::default(),
            retention: Ordered::default(),
            counts: Counts::default(),
            dedup: Window::new(FIVE_MINUTES),
            attempts: Window::new(FIVE_MINUTES),
            last_purge: None,
            polls: Vec::new(),
            retention_timer: None,
            hidden: Ordered::default(),
            reveal_timer: None,
        }
    }

    pub(crate) fn fifo(&self) -> bool {
        self.config.fifo
    }

    pub(crate) fn retention_ms(&self) -> Millis {
        self.config.retention_seconds() as Millis * 1000
    }

    /// The message in `slot` (which must hold one).
    pub(crate) fn msg(&self, slot: u32) -> &Message {
        self.slots[slot as usize].msg.as_ref().expect("live slot")
    }

    /// The message in `slot` if it is still the one of generation `gen`.
    pub(crate) fn lookup(&self, slot: u32, gen: u32) -> Option<&Message> {
        let s = self.slots.get(slot as usize)?;
        s.msg.as_ref().filter(|_| s.gen == gen)
    }

    pub(crate) fn slot_gen(&self, slot: u32) -> u32 {
        self.slots[slot as usize].gen
    }

    /// All stored messages with their slots, in slab order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u32, &Message)> {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| Some((i as u32, s.msg.as_ref()?)))
    }

    /// All stored messages with their slots, oldest first (by enqueue time, then sequence).
    pub(crate) fn oldest_first(&self) -> impl Iterator<Item = (u32, &Message)> {
        self.retention
            .iter()
            .map(|(_, slot)| (slot, self.msg(slot)))
    }

    /// Stores a message; returns its slot.
    #[inline(always)]
    pub(crate) fn insert(&mut self, msg: Message) -> u32 {
        self.insert_with(|| msg)
    }

    /// Stores the message `build` makes, built in its slot: a message is ~200 bytes, and
    /// building it first and storing it after copied it once more on every send. Inlined into
    /// its callers for the same reason.
    #[inline(always)]
    pub(crate) fn insert_with(&mut self, build: impl FnOnce() -> Message) -> u32 {
        let fifo = self.fifo();
        let slot = match self.free.pop() {
            Some(slot) => slot,
            None => {
                self.slots.push(Slot { gen: 0, msg: None });
                (self.slots.len() - 1) as u32
            }
        };
        let msg = self.slots[slot as usize].msg.insert(build());
        if fifo {
            msg.group_slot = self.groups.intern(msg.group.as_deref().unwrap_or(""));
            self.groups.push(msg.group_slot, msg.seq, slot);
        }
        let key = order_key(msg);
        self.retention.insert(slot, key);
        self.index(slot);
        slot
    }

    /// Removes the message in `slot` and returns it.
    pub(crate) fn remove(&mut self, slot: u32) -> Message {
        self.unlink(slot);
        self.slots[slot as usize].msg.take().expect("live slot")
    }

    /// Removes the message in `slot` and returns its id; the message is dropped where it lies
    /// (a delete does not copy it out). Inlined: every DeleteMessage comes here.
    #[inline(always)]
    pub(crate) fn delete(&mut self, slot: u32) -> MessageId {
        self.unlink(slot);
        let msg = &mut self.slots[slot as usize].msg;
        let id = msg.as_ref().expect("live slot").id;
        *msg = None;
        id
    }

    /// Takes the message in `slot` out of every index and frees the slot, invalidating its
    /// receipt handles' slot generation; the message itself is left for the caller.
    /// The message is read once for all it tells the indexes, and the function is inlined
    /// into its two callers: every delete comes here.
    #[inline(always)]
    fn unlink(&mut self, slot: u32) {
        let s = &mut self.slots[slot as usize];
        s.gen = s.gen.wrapping_add(1);
        let msg = s.msg.as_ref().expect("live slot");
        let (state, receivable, group, seq) =
            (msg.state, msg.receivable(), msg.group_slot, msg.seq);
        *self.counter(state) -= 1;
        if receivable {
            self.ready.remove(slot);
        }
        self.free.push(slot);
        self.retention.remove(slot);
        self.hidden.remove(slot);
        if self.fifo() {
            self.groups.remove(group, seq);
            self.refresh_group(group);
        }
    }

    /// Changes a message's state (or flags) and keeps indexes and counts in step.
    pub(crate) fn modify(&mut self, slot: u32, change: impl FnOnce(&mut Message)) {
        self.unindex(slot);
        let msg = self.slots[slot as usize].msg.as_mut().expect("live slot");
        change(msg);
        if !matches!(msg.state, State::InFlight { .. }) {
            msg.duplicate = false;
        }
        self.index(slot);
    }

    /// [`Queue::modify`] for a receive, the commonest change: `change` puts the receivable
    /// message in `slot` in flight (`duplicate` set: still receivable). It counts the move and
    /// leaves the ready set without `modify`'s general re-indexing; a duplicate stays in the
    /// ready set under its unchanged key.
    #[inline]
    pub(crate) fn receive(&mut self, slot: u32, change: impl FnOnce(&mut Message)) {
        let msg = self.slots[slot as usize].msg.as_mut().expect("live slot");
        let visible = matches!(msg.state, State::Visible { .. });
        change(msg);
        debug_assert!(matches!(msg.state, State::InFlight { .. }));
        let (duplicate, group) = (msg.duplicate, msg.group_slot);
        if visible {
            self.counts.visible -= 1;
            self.counts.in_flight += 1;
        }
        if self.fifo() {
            self.refresh_group(group);
        } else if !duplicate {
            self.ready.remove(slot);
        }
    }

    fn counter(&mut self, state: State) -> &mut usize {
        match state {
            State::Delayed { .. } => &mut self.counts.delayed,
            State::Visible { .. } => &mut self.counts.visible,
            State::InFlight { .. } => &mut self.counts.in_flight,
        }
    }

    /// Inlined: every send indexes its message.
    #[inline(always)]
    fn index(&mut self, slot: u32) {
        let msg = self.msg(slot);
        let (state, key, receivable, group) =
            (msg.state, order_key(msg), msg.receivable(), msg.group_slot);
        *self.counter(state) += 1;
        if self.fifo() {
            self.refresh_group(group);
        } else if receivable {
            self.ready.insert(slot, key);
        }
    }

    fn unindex(&mut self, slot: u32) {
        let msg = self.msg(slot);
        *self.counter(msg.state) -= 1;
        self.ready.remove(slot);
    }

    /// Re-keys a FIFO group in the ready set from its head message (§4.5).
    fn refresh_group(&mut self, group: u32) {
        let key = self
            .groups
            .get(group)
            .members
            .front()
            .and_then(
                |&(seq, head)| match self.slots[head as usize].msg.as_ref()?.state {
                    State::Visible { since } => Some(crate::order::key(since, seq)),
                    _ => None,
                },
            );
        self.groups.set_ready(group, key);
    }

    /// Whether a receive could return a message now (before limits and dead-letter checks).
    pub(crate) fn any_receivable(&self) -> bool {
        if self.fifo() {
            !self.groups.ready.is_empty()
        } else {
            !self.ready.is_empty()
        }
    }

    /// FIFO: the visible prefix of a group (§4.5): its messages in order up to the first one
    /// that is not visible.
    pub(crate) fn visible_prefix(&self, group: u32) -> impl Iterator<Item = u32> + '_ {
        self.groups
            .get(group)
            .members
            .iter()
            .map(|&(_, slot)| slot)
            .take_while(|&slot| matches!(self.msg(slot).state, State::Visible { .. }))
    }

    /// When the oldest message's retention ends.
    pub(crate) fn next_expiry(&self) -> Option<Millis> {
        let (key, _) = self.retention.first()?;
        Some(enqueued_at(key) + self.retention_ms())
    }

    /// Slots whose retention has ended at `now` (§8).
    pub(crate) fn expired(&self, now: Millis) -> Vec<u32> {
        let retention = self.retention_ms();
        self.retention
            .iter()
            .take_while(|&(key, _)| enqueued_at(key) + retention <= now)
            .map(|(_, slot)| slot)
            .collect()
    }

    /// Removes every message (PurgeQueue); returns their MessageIds in enqueue order.
    pub(crate) fn purge(&mut self) -> Vec<MessageId> {
        let order: Vec<u32> = self.retention.iter().map(|(_, slot)| slot).collect();
        let ids = order.into_iter().map(|slot| self.delete(slot)).collect();
        self.groups.clear();
        self.dedup.clear();
        self.attempts.clear();
        ids
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::order::key;

    fn message(seq: u64, group: &str, state: State) -> Message {
        let id = format!("m{seq}").as_str().into();
        Message::new(
            id,
            crate::api::Body::default(),
            crate::api::Md5::default(),
            Some(group.into()),
            seq,
            seq,
            state,
        )
    }

    #[test]
    fn counts_and_fifo_ready_groups_follow_every_change() {
        let mut q = Queue::new(0, &Namespace::DEFAULT, "q.fifo", QueueConfig::new(true), 0);
        let a = q.insert(message(1, "g", State::Visible { since: 1 }));
        let b = q.insert(message(2, "g", State::Visible { since: 2 }));
        let group = q.msg(a).group_slot;
        assert_eq!(q.groups.ready.first_key_value(), Some((&key(1, 1), &group)));
        q.modify(a, |m| {
            m.state = State::InFlight {
                until: 9,
                received_at: 3,
            }
        });
        assert!(q.groups.ready.is_empty());
        assert_eq!((q.counts.visible, q.counts.in_flight), (1, 1));
        assert_eq!(q.visible_prefix(group).count(), 0);
        assert_eq!(q.delete(a), MessageId::from("m1"));
        assert_eq!(q.groups.ready.first_key_value(), Some((&key(2, 2), &group)));
        assert_eq!(q.visible_prefix(group).collect::<Vec<_>>(), [b]);
    }

    #[test]
    fn a_receive_moves_the_counts_and_leaves_the_ready_set_unless_duplicated() {
        let mut q = Queue::new(0, &Namespace::DEFAULT, "q", QueueConfig::new(false), 0);
        let a = q.insert(message(1, "", State::Visible { since: 1 }));
        let b = q.insert(message(2, "", State::Visible { since: 2 }));
        let in_flight = |m: &mut Message, duplicate| {
            m.state = State::InFlight {
                until: 9,
                received_at: 3,
            };
            m.duplicate = duplicate;
        };
        q.receive(a, |m| in_flight(m, false));
        assert_eq!((q.counts.visible, q.counts.in_flight), (1, 1));
        assert_eq!(
            q.ready.iter().collect::<Vec<_>>(),
            [(order_key(q.msg(b)), b)]
        );
        // A duplicate stays receivable; received again, it is counted once and leaves.
        q.receive(b, |m| in_flight(m, true));
        assert_eq!((q.counts.visible, q.counts.in_flight), (0, 2));
        assert_eq!(q.ready.first(), Some((order_key(q.msg(b)), b)));
        q.receive(b, |m| in_flight(m, false));
        assert_eq!((q.counts.visible, q.counts.in_flight), (0, 2));
        assert!(q.ready.is_empty());
        q.delete(a);
        q.delete(b);
        assert_eq!(q.counts.in_flight, 0);
    }

    #[test]
    fn retention_boundary_is_inclusive_and_purge_empties() {
        let mut config = QueueConfig::new(false);
        let mut attributes = crate::api::Attributes::new();
        attributes.insert("MessageRetentionPeriod".into(), "60".into());
        config.apply(&attributes, "arn", &|_| None).unwrap();
        let mut q = Queue::new(0, &Namespace::DEFAULT, "q", config, 0);
        q.insert(message(1, "g", State::Visible { since: 1 }));
        q.insert(message(5, "g", State::Delayed { until: 9 }));
        assert_eq!(q.next_expiry(), Some(60_001));
        assert!(q.expired(60_000).is_empty());
        assert_eq!(q.expired(60_001).len(), 1);
        assert_eq!(q.purge(), ["m1".into(), "m5".into()]);
        assert_eq!(q.counts.visible + q.counts.delayed, 0);
        assert_eq!(q.ready.first(), None);
    }
}
