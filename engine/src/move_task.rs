//! Message move tasks (redrive from a dead-letter queue, semantics §9.1). A task moves one
//! message per tick; ticks are `1000 / rate` ms apart, the rate being
//! MaxNumberOfMessagesPerSecond or, when absent, [`DEFAULT_MOVE_TASK_RATE`].
//!
//! The Developer Guide's limits (§9.1 [DG]): "A dead-letter queue redrive task can run a maximum
//! of 36 hours. Amazon SQS supports a maximum of 100 active redrive tasks per account." AWS
//! records neither what a task cut off at 36 hours reports nor the error for a 101st task.
//! SIM CHOICES:
//! * a task still RUNNING 36 hours after it started ends at that instant as `FAILED` (it did not
//!   complete and nobody cancelled it), its FailureReason the Guide's sentence
//!   [`TOO_LONG`] (an invented FailureReason: AWS's is unrecorded); what it moved stays moved;
//! * StartMessageMoveTask while 100 tasks are RUNNING answers `OverLimit` (403), SQS's code for
//!   "the specified action violates a limit" (StartMessageMoveTask models no quota error),
//!   with the Guide's sentence [`TOO_MANY`] as message (invented message text: AWS's is
//!   unrecorded). It is checked after every parameter check.

use crate::api::{MessageMoveTask, StartMessageMoveTaskInput};
use crate::fixed_text::{self, FixedText};
use crate::Millis;
use serde::{Deserialize, Serialize};

/// Messages per second when StartMessageMoveTask gives no MaxNumberOfMessagesPerSecond (AWS
/// leaves it to the system; 500/s is the highest rate a caller may ask for).
pub const DEFAULT_MOVE_TASK_RATE: i64 = 500;

/// How long a task may run (§9.1 [DG]).
const MAX_TASK_DURATION: Millis = 36 * 3_600_000;

/// How many tasks may be RUNNING at once in the account (§9.1 [DG]).
const MAX_ACTIVE_TASKS: usize = 100;

/// FailureReason of a task cut off at [`MAX_TASK_DURATION`] (invented, see the module docs).
const TOO_LONG: &str = "A dead-letter queue redrive task can run a maximum of 36 hours.";

/// The OverLimit message for a task past [`MAX_ACTIVE_TASKS`] (invented, see the module docs).
pub(crate) const TOO_MANY: &str =
    "Amazon SQS supports a maximum of 100 active redrive tasks per account.";

/// One move task.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct MoveTask {
    id: String,
    handle: String,
    source: u32,
    source_arn: String,
    destination_arn: Option<String>,
    rate: Option<i64>,
    moved: i64,
    to_move: i64,
    #[serde(deserialize_with = "fixed_text::interned")]
    status: FixedText,
    failure_reason: Option<String>,
    started_at: Millis,
    /// When the next message moves, while RUNNING.
    next_tick: Option<Millis>,
}

/// How a task ended: what its MoveTaskFinished event tells.
pub(crate) struct Finished {
    pub handle: String,
    pub moved: u64,
    pub source: u32,
    pub source_arn: String,
}

impl MoveTask {
    /// The queue it moves from.
    pub(crate) fn source(&self) -> u32 {
        self.source
    }

    /// Its DestinationArn, if it was given one.
    pub(crate) fn destination_arn(&self) -> Option<&str> {
        self.destination_arn.as_deref()
    }

    /// Whether it may move another message at `now`: it has not moved all it set out to, and
    /// has not run for [`MAX_TASK_DURATION`] (`Err(TOO_LONG)`).
    pub(crate) fn may_move(&self, now: Millis) -> Result<bool, &'static str> {
        if now >= self.started_at + MAX_TASK_DURATION {
            return Err(TOO_LONG);
        }
        Ok(self.moved < self.to_move)
    }

    /// What ListMessageMoveTasks shows of it.
    fn listing(&self) -> MessageMoveTask {
        MessageMoveTask {
            task_handle: (self.status == "RUNNING").then(|| self.handle.clone()),
            status: self.status.into(),
            source_arn: self.source_arn.clone(),
            destination_arn: self.destination_arn.clone(),
            max_number_of_messages_per_second: self.rate,
            approximate_number_of_messages_moved: self.moved,
            approximate_number_of_messages_to_move: self.to_move,
            failure_reason: self.failure_reason.clone(),
            started_timestamp: (crate::EPOCH_MS + self.started_at) as i64,
        }
    }
}

/// The account's move tasks, by index (the index a [`crate::timers::Timer::MoveTick`] names),
/// oldest first.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct MoveTasks {
    tasks: Vec<MoveTask>,
}

impl MoveTasks {
    /// Task `index`.
    pub(crate) fn get(&self, index: usize) -> &MoveTask {
        &self.tasks[index]
    }

    /// Whether a task RUNNING moves from `source_arn`.
    pub(crate) fn running_from(&self, source_arn: &str) -> bool {
        self.tasks
            .iter()
            .any(|t| t.source_arn == source_arn && t.status == "RUNNING")
    }

    /// Whether as many tasks are RUNNING as may be.
    pub(crate) fn at_limit(&self) -> bool {
        self.tasks.iter().filter(|t| t.status == "RUNNING").count() >= MAX_ACTIVE_TASKS
    }

    /// Starts a task at `now` (its first tick is now) and returns its index.
    pub(crate) fn start(
        &mut self,
        id: String,
        handle: String,
        source: u32,
        input: StartMessageMoveTaskInput,
        to_move: i64,
        now: Millis,
    ) -> usize {
        self.tasks.push(MoveTask {
            id,
            handle,
            source,
            source_arn: input.source_arn,
            destination_arn: input.destination_arn,
            rate: input.max_number_of_messages_per_second,
            moved: 0,
            to_move,
            status: "RUNNING",
            failure_reason: None,
            started_at: now,
            next_tick: Some(now),
        });
        self.tasks.len() - 1
    }

    /// Up to `max` of the tasks from `source_arn`, newest first, as ListMessageMoveTasks shows
    /// them.
    pub(crate) fn list(&self, source_arn: &str, max: usize) -> Vec<MessageMoveTask> {
        self.tasks
            .iter()
            .rev()
            .filter(|t| t.source_arn == source_arn)
            .take(max)
            .map(MoveTask::listing)
            .collect()
    }

    /// The index of the task with this id, whether it is RUNNING, and what it moved so far.
    pub(crate) fn find(&self, id: &str) -> Option<(usize, bool, i64)> {
        let index = self.tasks.iter().position(|t| t.id == id)?;
        let task = &self.tasks[index];
        Some((index, task.status == "RUNNING", task.moved))
    }

    /// Whether task `index`'s next tick is the one due at `at`.
    pub(crate) fn ticks_at(&self, index: usize, at: Millis) -> bool {
        self.tasks[index].next_tick == Some(at)
    }

    /// Counts a message moved at `now`; returns when the next moves, or `None` when the task
    /// has moved all it set out to. The last tick falls exactly at the 36-hour limit, which
    /// ends the task.
    pub(crate) fn moved_one(&mut self, index: usize, now: Millis) -> Option<Millis> {
        let task = &mut self.tasks[index];
        task.moved += 1;
        if task.moved >= task.to_move {
            return None;
        }
        let rate = task.rate.unwrap_or(DEFAULT_MOVE_TASK_RATE);
        let period = (1000 / rate.max(1)).max(1) as Millis;
        let at = (now + period).min(task.started_at + MAX_TASK_DURATION);
        task.next_tick = Some(at);
        Some(at)
    }

    /// Ends task `index` with `status` (and a FailureReason).
    pub(crate) fn finish(
        &mut self,
        index: usize,
        status: &'static str,
        failure: Option<&str>,
    ) -> Finished {
        let task = &mut self.tasks[index];
        task.status = status;
        task.next_tick = None;
        task.failure_reason = failure.map(String::from);
        Finished {
            handle: task.handle.clone(),
            moved: task.moved as u64,
            source: task.source,
            source_arn: task.source_arn.clone(),
        }
    }
}
