//! Periodic checkpoints of a session, for rewinding without replaying from the start.
//!
//! [`World::replay`] rebuilds a moment by running the scenario and the user's actions from time
//! 0: exact, but its cost grows with the moment (a one-hour session at 10 messages a second is
//! ~36,000 messages to replay). [`Checkpoints`] keeps copies of the world (`World: Clone`) taken
//! as the session plays, at least [`Checkpoints::every`] apart; [`Checkpoints::seek`] starts from
//! the latest one at or before the target and replays only the actions after it, so a seek costs
//! at most one interval of simulation plus a clone.
//!
//! Bounded: at most [`MAX_CHECKPOINTS`] copies, holding at most [`MAX_CHECKPOINT_MESSAGES`]
//! stored messages together. When either is reached, every other copy is dropped and the interval
//! doubles (as the metrics' samples are folded), so a long session keeps checkpoints spread over
//! its whole length. A copy's size is the world's: a few hundred KB, plus ~700 bytes per message
//! its queues hold (the ledger's remembered keys are shared between copies). A session whose
//! queues fill up (a dead-letter queue collecting poison messages for days) keeps fewer copies,
//! so a rewind in it replays a longer interval, rather than multiplying its memory; a world too
//! big to fit beside the first copy is not copied at all (the copies there are stay).

use crate::command::LoggedStep;
use crate::scenario::Scenario;
use crate::world::World;
use sqs_engine::Millis;

/// The most checkpoints kept.
pub const MAX_CHECKPOINTS: usize = 64;

/// The most stored messages all copies may hold together (~70 MB).
pub const MAX_CHECKPOINT_MESSAGES: u64 = 100_000;

/// The default first interval between two checkpoints: one virtual minute.
pub const CHECKPOINT_EVERY: Millis = 60_000;

/// Copies of a session's world at increasing times. See the module documentation.
#[derive(Clone)]
pub struct Checkpoints {
    every: Millis,
    /// The most copies kept.
    limit: usize,
    /// The most stored messages the copies may hold together.
    budget: u64,
    /// (time, how many of the user's actions it had applied, the world then).
    saved: Vec<Saved>,
}

/// One copy of the world.
#[derive(Clone)]
struct Saved {
    at: Millis,
    /// How many of the user's actions the world had applied.
    applied: usize,
    /// The messages its queues held.
    messages: u64,
    world: World,
}

impl Default for Checkpoints {
    fn default() -> Self {
        Checkpoints::new(CHECKPOINT_EVERY)
    }
}

impl Checkpoints {
    /// No checkpoint yet; the first interval is `every` (at least 1 ms).
    pub fn new(every: Millis) -> Self {
        Self::with_limit(every, MAX_CHECKPOINTS)
    }

    /// At most `limit` copies (at least 2): fewer copies cost less memory (a copy is the whole
    /// world) and leave longer intervals to replay.
    pub fn with_limit(every: Millis, limit: usize) -> Self {
        Checkpoints {
            every: every.max(1),
            limit: limit.max(2),
            budget: MAX_CHECKPOINT_MESSAGES,
            saved: Vec::new(),
        }
    }

    /// The current interval between checkpoints.
    pub fn every(&self) -> Millis {
        self.every
    }

    /// How many checkpoints are kept.
    pub fn len(&self) -> usize {
        self.saved.len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.saved.is_empty()
    }

    /// Offers the world as it plays (call it after each frame's advance): it is copied when the
    /// last checkpoint is at least one interval older. `applied` is how many of the user's
    /// actions (as [`World::actions`] lists them) the world has run.
    pub fn offer(&mut self, world: &World, applied: usize) {
        let now = world.now();
        let due = self
            .saved
            .last()
            .is_none_or(|saved| now >= saved.at + self.every);
        if !due {
            return;
        }
        let messages = world.engine().stored_messages();
        if self
            .saved
            .first()
            .is_some_and(|first| first.messages + messages > self.budget)
        {
            // Too big to keep even beside the first copy: keep the copies there are.
            return;
        }
        while self.saved.len() > 1
            && (self.saved.len() >= self.limit || self.messages() + messages > self.budget)
        {
            // Keep the first and every other one after it; the interval doubles.
            let mut index = 0;
            self.saved.retain(|_| {
                index += 1;
                index % 2 == 1
            });
            self.every *= 2;
        }
        // It fits now (the first copy is kept whatever its size).
        self.saved.push(Saved {
            at: now,
            applied,
            messages,
            world: world.clone(),
        });
    }

    /// The stored messages the copies hold together.
    fn messages(&self) -> u64 {
        self.saved.iter().map(|saved| saved.messages).sum()
    }

    /// The time of the latest checkpoint at or before `t` (0 when there is none): where a
    /// [`Checkpoints::seek`] to `t` starts replaying.
    pub fn latest_at_or_before(&self, t: Millis) -> Millis {
        self.saved
            .iter()
            .rev()
            .find(|saved| saved.at <= t)
            .map_or(0, |saved| saved.at)
    }

    /// Forgets the checkpoints after `t` (the timeline was changed there: a new action at `t`
    /// makes every later copy wrong).
    pub fn truncate_after(&mut self, t: Millis) {
        self.saved.retain(|saved| saved.at <= t);
    }

    /// The world `scenario` and `actions` give at `until`: from the latest checkpoint at or
    /// before `until` (from the start when there is none), replaying only the actions after it.
    pub fn seek(
        &self,
        scenario: &Scenario,
        actions: &[LoggedStep],
        until: Millis,
    ) -> Result<World, String> {
        match self.saved.iter().rev().find(|saved| saved.at <= until) {
            Some(saved) => {
                let mut world = saved.world.clone();
                world.replay_from(&actions[saved.applied.min(actions.len())..], until)?;
                Ok(world)
            }
            None => World::replay(scenario, actions, until),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::day_scenario;
    use crate::scenario::Scenario;

    #[test]
    fn a_seek_from_a_checkpoint_gives_the_world_a_replay_gives() {
        let scenario = day_scenario(3);
        let mut world = World::load(&scenario).unwrap();
        let mut checkpoints = Checkpoints::new(10_000);
        for t in (0..=300_000).step_by(5_000) {
            world.advance_to(t);
            checkpoints.offer(&world, 0);
        }
        assert!(checkpoints.len() <= MAX_CHECKPOINTS && checkpoints.len() > 5);
        for until in [0, 12_345, 150_000, 299_999] {
            let fast = checkpoints.seek(&scenario, &[], until).unwrap();
            let slow = World::replay(&scenario, &[], until).unwrap();
            assert_eq!(fast.now(), slow.now());
            assert_eq!(fast.summary(), slow.summary(), "at {until}");
            assert_eq!(
                fast.engine().messages("orders"),
                slow.engine().messages("orders")
            );
            assert_eq!(fast.workers(), slow.workers(), "at {until}");
        }
    }

    #[test]
    fn checkpoints_stay_bounded_and_spread() {
        let scenario = day_scenario(3);
        let mut world = World::load(&scenario).unwrap();
        let mut checkpoints = Checkpoints::new(1_000);
        for t in (0..=200_000).step_by(1_000) {
            world.advance_to(t);
            checkpoints.offer(&world, 0);
        }
        assert!(checkpoints.len() <= MAX_CHECKPOINTS);
        assert!(checkpoints.every() > 1_000);
    }

    #[test]
    fn copies_of_full_queues_stay_within_the_message_budget() {
        // A producer and no worker: the queue holds more messages with every copy.
        let scenario = Scenario::parse(
            "filling",
            r#"{"title": "Filling", "steps": [
                {"call": "CreateQueue", "input": {"QueueName": "q"}},
                {"sim": "AddProducer", "input": {"name": "P", "queue": "q", "every": 1, "body": "m-{n}"}},
                {"advance": 1000}]}"#,
        )
        .unwrap();
        let mut world = World::load(&scenario).unwrap();
        let mut checkpoints = Checkpoints {
            budget: 2_000,
            ..Checkpoints::new(10_000)
        };
        for t in (0..=900_000).step_by(10_000) {
            world.advance_to(t);
            checkpoints.offer(&world, 0);
            assert!(checkpoints.messages() <= 2_000, "at {t}");
        }
        assert_eq!(
            world.engine().stored_messages(),
            901,
            "one sent at 0 s, then one a second"
        );
        assert!(checkpoints.len() >= 2 && checkpoints.every() > 10_000);
        let until = 895_000;
        assert!(checkpoints.latest_at_or_before(until) > 0);
        // A world that can no longer fit leaves the copies there are, rather than dropping them.
        let mut small = Checkpoints {
            budget: 300,
            ..Checkpoints::new(10_000)
        };
        let mut world = World::load(&scenario).unwrap();
        for t in (0..=900_000).step_by(10_000) {
            world.advance_to(t);
            small.offer(&world, 0);
        }
        assert!(
            small.len() >= 2 && small.messages() <= 300,
            "{}",
            small.len()
        );
        let fast = checkpoints.seek(&scenario, &[], until).unwrap();
        let slow = World::replay(&scenario, &[], until).unwrap();
        assert_eq!(fast.summary(), slow.summary());
        assert_eq!(fast.engine().messages("q"), slow.engine().messages("q"));
    }
}
