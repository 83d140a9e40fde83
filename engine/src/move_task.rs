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

use crate::api::*;
use crate::engine::Engine;
use crate::error::{ErrorCode, SqsError};
use crate::event::{EventKind, VisibleReason};
use crate::message::{Extras, Message, State};
use crate::timers::Timer;
use crate::validate::BASE64;
use crate::Millis;
use base64::Engine as _;
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
const TOO_MANY: &str = "Amazon SQS supports a maximum of 100 active redrive tasks per account.";

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
    #[serde(deserialize_with = "crate::fixed_text::interned")]
    status: crate::fixed_text::FixedText,
    failure_reason: Option<String>,
    started_at: Millis,
    /// When the next message moves, while RUNNING.
    pub next_tick: Option<Millis>,
}

fn source_missing() -> SqsError {
    SqsError::new(
        ErrorCode::ResourceNotFoundException,
        "The resource that you specified for the SourceArn parameter doesn't exist.",
    )
}

impl Engine {
    pub(crate) fn start_message_move_task(
        &mut self,
        input: StartMessageMoveTaskInput,
    ) -> Result<Response, SqsError> {
        let source = self.by_arn(&input.source_arn).ok_or_else(source_missing)?;
        let is_dlq = self.registry.live().any(|q| {
            q.config
                .redrive
                .as_ref()
                .is_some_and(|r| r.dead_letter_target_arn == input.source_arn)
        });
        if !is_dlq {
            return Err(SqsError::invalid(
                "Source queue must be configured as a Dead Letter Queue.",
            ));
        }
        if let Some(arn) = &input.destination_arn {
            let destination = self.by_arn(arn).ok_or_else(|| {
                SqsError::new(
                    ErrorCode::ResourceNotFoundException,
                    "The resource that you specified for the DestinationArn parameter doesn't exist.",
                )
            })?;
            if self.q(destination).fifo() != self.q(source).fifo() {
                return Err(SqsError::invalid(
                    "The source queue and the destination queue must be of the same queue type.",
                ));
            }
        }
        if let Some(rate) = input
            .max_number_of_messages_per_second
            .filter(|r| !(1..=500).contains(r))
        {
            return Err(SqsError::invalid_value(
                "MaxNumberOfMessagesPerSecond",
                &rate,
                "You must enter a number that's between 1 and 500.",
            ));
        }
        if self
            .tasks
            .iter()
            .any(|t| t.source_arn == input.source_arn && t.status == "RUNNING")
        {
            return Err(SqsError::invalid(
                "There is already a task running. Only one active task is allowed for a source queue arn at a given time.",
            ));
        }
        let running = self.tasks.iter().filter(|t| t.status == "RUNNING").count();
        if running >= MAX_ACTIVE_TASKS {
            return Err(SqsError::new(ErrorCode::OverLimit, TOO_MANY));
        }
        let id = self.rng.uuid();
        let handle = BASE64
            .encode(serde_json::json!({"taskId": id, "sourceArn": input.source_arn}).to_string());
        let index = self.tasks.len();
        self.tasks.push(MoveTask {
            id: id.to_string(),
            handle: handle.clone(),
            source,
            source_arn: input.source_arn,
            destination_arn: input.destination_arn,
            rate: input.max_number_of_messages_per_second,
            moved: 0,
            to_move: self.q(source).counts.visible as i64,
            status: "RUNNING",
            failure_reason: None,
            started_at: self.now(),
            next_tick: Some(self.now()),
        });
        self.clock.schedule(self.now(), Timer::MoveTick(index));
        let source = self.q(source).name.to_string();
        self.emit(EventKind::MoveTaskStarted {
            source,
            task_handle: handle.clone(),
        });
        Ok(Response::StartMessageMoveTask(StartMessageMoveTaskOutput {
            task_handle: handle,
        }))
    }

    pub(crate) fn list_message_move_tasks(
        &mut self,
        input: ListMessageMoveTasksInput,
    ) -> Result<Response, SqsError> {
        self.by_arn(&input.source_arn).ok_or_else(source_missing)?;
        let max = input.max_results.unwrap_or(1);
        if !(1..=10).contains(&max) {
            return Err(SqsError::invalid_value(
                "MaxResults",
                &max,
                "You must enter a number that's between 1 and 10.",
            ));
        }
        let results = self
            .tasks
            .iter()
            .rev()
            .filter(|t| t.source_arn == input.source_arn)
            .take(max as usize)
            .map(|t| MessageMoveTask {
                task_handle: (t.status == "RUNNING").then(|| t.handle.clone()),
                status: t.status.into(),
                source_arn: t.source_arn.clone(),
                destination_arn: t.destination_arn.clone(),
                max_number_of_messages_per_second: t.rate,
                approximate_number_of_messages_moved: t.moved,
                approximate_number_of_messages_to_move: t.to_move,
                failure_reason: t.failure_reason.clone(),
                started_timestamp: (crate::EPOCH_MS + t.started_at) as i64,
            })
            .collect();
        Ok(Response::ListMessageMoveTasks(ListMessageMoveTasksOutput {
            results,
        }))
    }

    pub(crate) fn cancel_message_move_task(
        &mut self,
        input: CancelMessageMoveTaskInput,
    ) -> Result<Response, SqsError> {
        let parsed = BASE64
            .decode(&input.task_handle)
            .ok()
            .and_then(|b| {
                serde_json::from_str::<serde_json::Value>(std::str::from_utf8(&b).ok()?).ok()
            })
            .and_then(|v| {
                let field = |k: &str| v.get(k)?.as_str().map(String::from);
                Some((field("taskId")?, field("sourceArn")?))
            });
        let (id, source_arn) = parsed
            .ok_or_else(|| SqsError::invalid("Value for parameter TaskHandle is invalid."))?;
        self.by_arn(&source_arn).ok_or_else(source_missing)?;
        let index = self.tasks.iter().position(|t| t.id == id).ok_or_else(|| {
            SqsError::new(ErrorCode::ResourceNotFoundException, "Task does not exist.")
        })?;
        if self.tasks[index].status != "RUNNING" {
            return Err(SqsError::invalid(
                "Only a task that is RUNNING can be cancelled.",
            ));
        }
        let moved = self.tasks[index].moved;
        self.finish_task(index, "CANCELLED", None);
        Ok(Response::CancelMessageMoveTask(
            CancelMessageMoveTaskOutput {
                approximate_number_of_messages_moved: moved,
            },
        ))
    }

    fn finish_task(&mut self, index: usize, status: &'static str, failure: Option<&str>) {
        let task = &mut self.tasks[index];
        task.status = status;
        task.next_tick = None;
        task.failure_reason = failure.map(String::from);
        let (handle, moved) = (task.handle.clone(), task.moved as u64);
        let (source, source_arn) = (task.source, task.source_arn.clone());
        let source = self
            .q_opt(source)
            .map_or(source_arn, |q| q.name.to_string());
        self.emit(EventKind::MoveTaskFinished {
            source,
            task_handle: handle,
            status: status.into(),
            moved,
        });
    }

    /// Moves the oldest receivable message of the task's source as a new message (new
    /// MessageId, new enqueue time, receive count 0) to its destination (§9.1).
    pub(crate) fn move_tick(&mut self, index: usize) {
        const GONE: Option<&str> = Some("AWS.SimpleQueueService.NonExistentQueue");
        let task = &self.tasks[index];
        let Some(source) = self.q_opt(task.source) else {
            return self.finish_task(index, "FAILED", GONE);
        };
        if self.now() >= task.started_at + MAX_TASK_DURATION {
            return self.finish_task(index, "FAILED", Some(TOO_LONG));
        }
        let next = if source.fifo() {
            source
                .groups
                .ready
                .first_key_value()
                .and_then(|(_, &group)| source.visible_prefix(group).next())
        } else {
            source.ready.first().map(|(_, slot)| slot)
        };
        let Some(slot) = next.filter(|_| task.moved < task.to_move) else {
            return self.finish_task(index, "COMPLETED", None);
        };
        let msg = source.msg(slot);
        let destination_arn = task
            .destination_arn
            .clone()
            .or_else(|| msg.extras().and_then(|e| e.dlq_source_arn.clone()));
        let Some(destination) = destination_arn.and_then(|arn| self.by_arn(&arn)) else {
            return self.finish_task(index, "FAILED", GONE);
        };
        let (source_uid, rate) = (task.source, task.rate.unwrap_or(DEFAULT_MOVE_TASK_RATE));
        let old = self.q_mut(source_uid).remove(slot);
        let (now, id, seq) = (self.now(), self.rng.uuid(), self.next_seq());
        let fifo = self.q(destination).fifo();
        let old_extras = old.extras.unwrap_or_default();
        let extras = Extras {
            attributes: old_extras.attributes,
            trace_header: old_extras.trace_header,
            dedup_id: fifo.then(|| id.to_string()),
            dlq_source_arn: None,
        };
        let mut moved = Message::new(
            id,
            old.body,
            old.md5_of_body,
            old.group,
            seq,
            now,
            State::Visible { since: now },
        );
        moved.extras = Some(Box::new(extras));
        let target = self.q_mut(destination);
        target.insert(moved);
        let (from, to) = (self.q(source_uid).name, self.q(destination).name);
        self.emit(EventKind::Redriven {
            from,
            to,
            old_message_id: old.id,
            message_id: id,
        });
        self.emit(EventKind::BecameVisible {
            queue: to,
            message_id: id,
            reason: VisibleReason::Redriven,
        });
        self.wake(destination);
        self.schedule_retention(destination);
        let task = &mut self.tasks[index];
        task.moved += 1;
        if task.moved >= task.to_move {
            return self.finish_task(index, "COMPLETED", None);
        }
        // The last tick falls exactly at the 36-hour limit, which ends the task.
        let period = (1000 / rate.max(1)).max(1) as Millis;
        let at = (now + period).min(task.started_at + MAX_TASK_DURATION);
        task.next_tick = Some(at);
        self.clock.schedule(at, Timer::MoveTick(index));
    }
}
