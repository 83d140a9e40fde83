//! StartMessageMoveTask, ListMessageMoveTasks, CancelMessageMoveTask and the tick that moves a
//! message (semantics §9.1; the tasks themselves and the limits: `move_task`).

use crate::api::*;
use crate::engine::Engine;
use crate::error::{ErrorCode, SqsError};
use crate::event::{EventKind, VisibleReason};
use crate::message::{Extras, Message, State};
use crate::move_task::TOO_MANY;
use crate::timers::Timer;
use crate::validate::BASE64;
use base64::Engine as _;

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
        if self.tasks.running_from(&input.source_arn) {
            return Err(SqsError::invalid(
                "There is already a task running. Only one active task is allowed for a source queue arn at a given time.",
            ));
        }
        if self.tasks.at_limit() {
            return Err(SqsError::new(ErrorCode::OverLimit, TOO_MANY));
        }
        let id = self.rng.uuid();
        let handle = BASE64
            .encode(serde_json::json!({"taskId": id, "sourceArn": input.source_arn}).to_string());
        let to_move = self.q(source).counts.visible as i64;
        let (now, handed) = (self.now(), handle.clone());
        let index = self
            .tasks
            .start(id.to_string(), handed, source, input, to_move, now);
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
        let results = self.tasks.list(&input.source_arn, max as usize);
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
        let (index, running, moved) = self.tasks.find(&id).ok_or_else(|| {
            SqsError::new(ErrorCode::ResourceNotFoundException, "Task does not exist.")
        })?;
        if !running {
            return Err(SqsError::invalid(
                "Only a task that is RUNNING can be cancelled.",
            ));
        }
        self.finish_task(index, "CANCELLED", None);
        Ok(Response::CancelMessageMoveTask(
            CancelMessageMoveTaskOutput {
                approximate_number_of_messages_moved: moved,
            },
        ))
    }

    fn finish_task(&mut self, index: usize, status: &'static str, failure: Option<&str>) {
        let finished = self.tasks.finish(index, status, failure);
        let (handle, moved) = (finished.handle, finished.moved);
        let (source, source_arn) = (finished.source, finished.source_arn);
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
        let task = self.tasks.get(index);
        let Some(source) = self.q_opt(task.source()) else {
            return self.finish_task(index, "FAILED", GONE);
        };
        let more = match task.may_move(self.now()) {
            Ok(more) => more,
            Err(reason) => return self.finish_task(index, "FAILED", Some(reason)),
        };
        let next = if source.fifo() {
            source
                .groups
                .ready
                .first_key_value()
                .and_then(|(_, &group)| source.visible_prefix(group).next())
        } else {
            source.ready.first().map(|(_, slot)| slot)
        };
        let Some(slot) = next.filter(|_| more) else {
            return self.finish_task(index, "COMPLETED", None);
        };
        let msg = source.msg(slot);
        let destination_arn = task
            .destination_arn()
            .map(String::from)
            .or_else(|| msg.extras().and_then(|e| e.dlq_source_arn.clone()));
        let Some(destination) = destination_arn.and_then(|arn| self.by_arn(&arn)) else {
            return self.finish_task(index, "FAILED", GONE);
        };
        let source_uid = task.source();
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
        match self.tasks.moved_one(index, now) {
            Some(at) => self.clock.schedule(at, Timer::MoveTick(index)),
            None => self.finish_task(index, "COMPLETED", None),
        }
    }
}
