//! What workers do, through the SQS actions a real worker calls: ReceiveMessage (short or long
//! poll), ChangeMessageVisibility (heartbeat, by hand) and DeleteMessage (and the batch forms),
//! plus the faults injected into them and the user's hands in manual mode.

use super::{named, PollOwner, World};
use crate::actor::{Actor, Who};
use crate::lane::{warnings, Due, Failure, JobKind, Lane, Life};
use crate::ledger::Attempt;
use crate::narrate::secs;
use crate::queue_url::cached_url;
use crate::timers::Timer;
use crate::worker::{WorkerMode, WorkerPolicy};
use serde_json::Value;
use sqs_engine::api::{
    ChangeMessageVisibilityBatchEntry, ChangeMessageVisibilityBatchInput,
    ChangeMessageVisibilityInput, DeleteMessageBatchEntry, DeleteMessageBatchInput,
    DeleteMessageInput, Message, ReceiveMessageInput, ReceiveMessageOutput,
};
use sqs_engine::{Millis, PollId, ReceiptHandle, Reply, Request, Response};
use std::collections::hash_map::Entry;
use std::sync::Arc;

/// The shortest pause between two short polls, whatever the policy says.
const MIN_POLL_PAUSE: Millis = 100;
/// The pause before polling again after an error.
const ERROR_PAUSE: Millis = 1000;

impl World {
    pub(crate) fn lane_index(&self, name: &str) -> Result<usize, String> {
        self.lanes
            .by_name(name)
            .ok_or_else(|| format!("There is no worker named \"{name}\"."))
    }

    /// The position of the lane with this id.
    #[inline]
    pub(crate) fn lane_pos(&self, id: u64) -> Option<usize> {
        self.lanes.pos(id)
    }

    pub(crate) fn actor(&self, i: usize) -> Actor {
        Actor::Worker(self.lanes[i].name.to_string())
    }

    /// Records an event of lane `i`'s worker ([`World::say`]).
    pub(crate) fn say_lane(&mut self, i: usize, message_id: Option<&str>, text: String) {
        self.say(self.actor(i), message_id, text);
    }

    pub(crate) fn who(&self, i: usize) -> Who {
        Who::Lane(self.lanes[i].id)
    }

    /// The queue's VisibilityTimeout in seconds, if the queue exists.
    fn queue_visibility(&self, queue: &str) -> Option<u32> {
        let attributes = self.engine.attributes(queue)?;
        attributes.get("VisibilityTimeout")?.parse().ok()
    }

    /// Lambda validates an event-source mapping when it is created or updated: the queue's
    /// visibility timeout must be at least the function timeout, and a FIFO queue takes batches
    /// of at most 10 and no batching window (§12). A later change of the queue is not checked
    /// again (the lane then warns).
    fn check_mapping(&self, policy: &WorkerPolicy) -> Result<(), String> {
        let WorkerMode::Lambda {
            function_timeout,
            batch_size,
            maximum_batching_window_in_seconds: window,
            ..
        } = policy.mode
        else {
            return Ok(());
        };
        if policy.queue.ends_with(".fifo") {
            if window > 0 {
                return Err("InvalidParameterValueException: Batching window is not supported for FIFO queues".into());
            }
            if batch_size > 10 {
                return Err("InvalidParameterValueException: Maximum batch size must be between 1 and 10 inclusive for FIFO queues".into());
            }
        }
        match self.queue_visibility(&policy.queue) {
            Some(visibility) if visibility < function_timeout => Err(format!(
                "InvalidParameterValueException: Queue visibility timeout: {visibility} seconds is less than Function timeout: {function_timeout} seconds"
            )),
            _ => Ok(()),
        }
    }

    /// Recomputes the warnings of the lanes on `queue` (its VisibilityTimeout may have changed).
    pub(crate) fn refresh_warnings(&mut self, queue: &str) {
        let visibility = self.queue_visibility(queue);
        for lane in self.lanes.iter_mut().filter(|l| l.policy.queue == queue) {
            lane.warnings = warnings(&lane.policy, visibility);
        }
    }

    pub(crate) fn add_worker(&mut self, name: &str, policy: WorkerPolicy) -> Result<Value, String> {
        if name.trim().is_empty() {
            return Err("A worker needs a name.".into());
        }
        if self.lanes.iter().any(|l| *l.name == *name) {
            return Err(format!("There is already a worker named \"{name}\"."));
        }
        policy.check()?;
        self.check_mapping(&policy)?;
        let id = self.fresh_id();
        let queue = policy.queue.clone();
        self.lanes.push(Lane::new(id, name, policy, self.seed));
        self.refresh_warnings(&queue);
        self.say(
            Actor::Worker(name.into()),
            None,
            format!("{name} started, consuming {queue}"),
        );
        self.ensure_polling(id);
        Ok(named("worker", name).into())
    }

    pub(crate) fn remove_worker(&mut self, name: &str) -> Result<Value, String> {
        let i = self.lane_index(name)?;
        let lane = self.lanes.remove(i);
        self.cancel_lane(lane.id);
        self.holders.retain(|_, holder| holder.lane != lane.id);
        self.say(
            Actor::Worker(name.into()),
            None,
            format!("{name} was removed: what it held waits for its visibility timeout"),
        );
        Ok(named("worker", name).into())
    }

    pub(crate) fn set_policy(&mut self, name: &str, policy: WorkerPolicy) -> Result<Value, String> {
        let i = self.lane_index(name)?;
        policy.check()?;
        self.check_mapping(&policy)?;
        let queue = policy.queue.clone();
        self.lanes[i].set_policy(policy);
        self.refresh_warnings(&queue);
        self.say_lane(
            i,
            None,
            format!("{name} has a new policy from its next job on"),
        );
        let id = self.lanes[i].id;
        self.ensure_polling(id);
        Ok(named("worker", name).into())
    }

    /// Schedules a poll now if the lane wants one and none is scheduled.
    pub(crate) fn ensure_polling(&mut self, lane: u64) {
        let Some(i) = self.lane_pos(lane) else { return };
        if self.lanes[i].wants_to_poll() && !self.has_poll(lane) {
            self.poll_now(lane);
        }
    }

    fn poll_later(&mut self, lane: u64, pause: Millis) {
        // Moves a poll due now, as it moves a timer.
        self.scheduler.drop_due_poll(lane);
        self.schedule(self.now() + pause, Timer::Poll { lane });
    }

    /// The timer's ReceiveMessage, if the lane still wants it.
    pub(crate) fn poll(&mut self, lane: u64) {
        let Some(i) = self.lane_pos(lane) else { return };
        if self.lanes[i].wants_to_poll() {
            self.receive(i);
        }
    }

    /// Calls ReceiveMessage with the lane's policy.
    pub(crate) fn receive(&mut self, i: usize) {
        let lane = &mut self.lanes[i];
        let id = lane.id;
        let queue = (&lane.namespace, lane.policy.queue.as_str());
        let Some(queue_url) = cached_url(&self.engine, &mut lane.queue_url, queue) else {
            self.poll_later(id, ERROR_PAUSE);
            return;
        };
        let request = Request::ReceiveMessage(ReceiveMessageInput {
            queue_url,
            max_number_of_messages: Some(i64::from(lane.batch_size())),
            visibility_timeout: lane.policy.visibility_timeout.map(i64::from),
            wait_time_seconds: Some(i64::from(lane.wait_time_seconds())),
            ..ReceiveMessageInput::default()
        });
        let pause = ((self.lanes[i].policy.idle_pause * 1000.0) as Millis).max(MIN_POLL_PAUSE);
        match self.call(self.who(i), request) {
            Reply::Done(Ok(Response::ReceiveMessage(output))) => self.received(id, output, pause),
            Reply::Done(_) => self.poll_later(id, ERROR_PAUSE.max(pause)),
            Reply::Pending(poll) => self.wait_for(i, poll),
        }
    }

    /// Lane `i`'s ReceiveMessage waits (a long poll): its answer goes to the lane, unless the
    /// lane is killed or restarted meanwhile.
    pub(crate) fn wait_for(&mut self, i: usize, poll: PollId) {
        let lane = &mut self.lanes[i];
        lane.polling = true;
        let owner = PollOwner {
            lane: lane.id,
            epoch: lane.epoch,
        };
        self.polls.insert(poll, owner);
    }

    /// A long poll of a lane was answered.
    pub(crate) fn poll_answered(&mut self, owner: PollOwner, output: ReceiveMessageOutput) {
        let live = self
            .lane_pos(owner.lane)
            .filter(|&i| self.lanes[i].epoch == owner.epoch && self.lanes[i].life == Life::Alive);
        match live {
            Some(i) => {
                self.lanes[i].polling = false;
                self.received(owner.lane, output, 0);
            }
            None => {
                for message in output.messages.unwrap_or_default() {
                    self.holders.remove(&message.message_id);
                    let m = self.label(&message.message_id);
                    self.say(
                        Actor::Sqs,
                        Some(&message.message_id),
                        format!("The worker that asked for {m} is gone: nobody processes it until its visibility timeout runs out"),
                    );
                }
            }
        }
    }

    /// Messages arrived at a lane: a job for them, or the next poll after `pause` if none.
    pub(crate) fn received(&mut self, lane: u64, output: ReceiveMessageOutput, pause: Millis) {
        let Some(i) = self.lane_pos(lane) else { return };
        let messages = output.messages.unwrap_or_default();
        if messages.is_empty() {
            self.lanes[i].empty_receives += 1;
            self.metrics.empty_receives += 1;
            if self.lanes[i].wants_to_poll() {
                self.poll_later(lane, pause);
            }
            return;
        }
        self.take(i, messages);
        self.ensure_polling(lane);
    }

    /// Gives received messages to a lane as one job and starts what may start.
    pub(crate) fn take(&mut self, i: usize, mut messages: Vec<Message>) {
        let job = self.fresh_id();
        let now = self.now();
        let lane = &mut self.lanes[i];
        let queue = (&lane.namespace, lane.policy.queue.as_str());
        let Some(queue_url) = cached_url(&self.engine, &mut lane.queue_url, queue) else {
            return;
        };
        // ApproximateReceiveCount as the Received events (just absorbed) told it.
        let holders = &self.holders;
        let receive_count = |m: &Message| holders.get(&m.message_id).map_or(1, |h| h.receive_count);
        let lane = &mut self.lanes[i];
        self.held_by_hand |= lane.policy.mode == WorkerMode::Manual;
        let gathering = lane.take(job, queue_url, &mut messages, receive_count, now);
        // The emptied list goes back to the engine for its next answer (an allocation saved
        // per receive).
        self.engine
            .recycle(Response::ReceiveMessage(ReceiveMessageOutput {
                messages: Some(messages),
            }));
        if let Some(end) = gathering {
            let lane = lane.id;
            self.schedule(end, Timer::Job { lane, job });
        }
        self.start_ready_jobs(i);
    }

    /// Starts waiting jobs, oldest first, while the lane is alive and has room (a Lambda
    /// function's concurrency).
    fn start_ready_jobs(&mut self, i: usize) {
        let lane = &self.lanes[i];
        let room = lane.concurrency().saturating_sub(lane.running());
        for _ in 0..room {
            let lane = &self.lanes[i];
            if lane.life != Life::Alive {
                return;
            }
            let ready = lane.jobs.iter().find(|j| {
                j.started.is_none() && j.gather_until.is_none() && j.kind != JobKind::Manual
            });
            let Some(job) = ready.map(|j| j.id) else {
                return;
            };
            self.start_job(i, job);
        }
    }

    fn start_job(&mut self, i: usize, job_id: u64) {
        let now = self.now();
        let lane_id = self.lanes[i].id;
        let Some(job) = self.lanes[i].job_mut(job_id) else {
            return;
        };
        job.started = Some(now);
        if let Some(task) = job.tasks.first_mut() {
            task.start = Some(now);
        }
        if let Some(hb) = &job.heartbeat {
            let every = ((hb.every * 1000.0) as Millis).max(1);
            job.first_heartbeat = Some((now + every, self.scheduler.reserve()));
        }
        if self.narrating() {
            self.say_job_started(i, job_id, now);
        } else {
            self.skip();
        }
        self.job_due(lane_id, job_id);
    }

    /// Narrates the start of a job.
    fn say_job_started(&mut self, i: usize, job_id: u64, now: Millis) {
        let Some(job) = self.lanes[i].jobs.iter().find(|j| j.id == job_id) else {
            return;
        };
        let first = &job.tasks[0];
        let text = match &job.kind {
            JobKind::Lambda {
                function_timeout, ..
            } => {
                let gathered = job.ready_at - first.received_at;
                let gathered = if gathered > 0 {
                    format!(", gathered over {}", secs(gathered))
                } else {
                    String::new()
                };
                let waited = now - job.ready_at;
                let throttled = if waited > 0 {
                    format!(" after {} throttled", secs(waited))
                } else {
                    String::new()
                };
                format!(
                    "Lambda invoked with {}{gathered}{throttled} (function timeout {})",
                    self.list(job.tasks.iter().map(|t| t.message_id.as_str())),
                    secs(*function_timeout)
                )
            }
            _ => self.job_started(i, &first.message_id, first.duration),
        };
        let message_id = first.message_id;
        self.say_lane(i, Some(&message_id), text);
    }

    /// "Worker A started the job for M (takes 45 s)".
    fn job_started(&self, i: usize, message_id: &str, duration: Millis) -> String {
        format!(
            "{} started the job for {} (takes {})",
            self.lanes[i].name,
            self.label(message_id),
            secs(duration)
        )
    }

    /// "M1, M2 and M3".
    fn list<'a>(&self, ids: impl Iterator<Item = &'a str>) -> String {
        let labels: Vec<String> = ids.map(|id| self.label(id)).collect();
        match labels.as_slice() {
            [] => String::new(),
            [one] => one.clone(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
        }
    }

    /// Does whatever a job has due now, then sleeps until its next step.
    pub(crate) fn job_due(&mut self, lane: u64, job: u64) {
        loop {
            let Some(i) = self.lane_pos(lane) else { return };
            if self.lanes[i].life != Life::Alive {
                return;
            }
            let Some(due) = self.lanes[i].jobs.iter().find(|j| j.id == job) else {
                return;
            };
            if due.gather_until.is_some_and(|end| end <= self.now()) {
                // The batching window is over: invoke with what was gathered (or wait, throttled).
                let now = self.now();
                self.lanes[i]
                    .job_mut(job)
                    .expect("found above")
                    .close_gathering(now);
                self.start_ready_jobs(i);
                return;
            }
            match due.due(self.now()) {
                Due::Idle => return,
                Due::Wait(at) => {
                    // The job lasts until its first heartbeat: that one is scheduled now, in
                    // its place (a job runs on only through its steps).
                    let job_mut = self.lanes[i].job_mut(job).expect("found above");
                    if let Some((beat, order)) = job_mut.first_heartbeat.filter(|&(b, _)| at >= b) {
                        job_mut.first_heartbeat = None;
                        self.scheduler
                            .schedule_as(beat, order, Timer::Heartbeat { lane, job });
                    }
                    self.schedule(at, Timer::Job { lane, job });
                    return;
                }
                Due::Timeout => {
                    self.abort_job(i, job, "Lambda invocation timed out");
                    return;
                }
                Due::Fail => self.fail_task(i, job),
                Due::Effect => self.perform_effect(i, job),
                Due::Commit => self.commit(i, job),
            }
        }
    }

    fn perform_effect(&mut self, i: usize, job_id: u64) {
        let now = self.now();
        let lane = &mut self.lanes[i];
        let Some(job) = lane.jobs.iter_mut().find(|j| j.id == job_id) else {
            return;
        };
        let task = &mut job.tasks[job.current];
        let step = &job.effects[task.effects_done];
        task.effects_done += 1;
        let effect = self.ledger.record(Attempt {
            at: now,
            worker: Arc::clone(&lane.name),
            name: Arc::clone(&step.name),
            message_id: task.message_id,
            body: task.body.clone(),
            attempt: task.receive_count,
            check: step.idempotent,
        });
        let (prevented, duplicate) = (effect.prevented, effect.duplicate);
        self.metrics.effects = self.ledger.performed();
        self.metrics.duplicate_effects = self.ledger.duplicates();
        self.metrics.prevented_effects = self.ledger.prevented();
        if !self.narrating() {
            self.skip();
            return;
        }
        let effect = self.ledger.effects.last().expect("just recorded");
        let (name, effect_name, attempt) = (&effect.worker, &effect.name, effect.attempt);
        let m = self.label(&effect.message_id);
        let text = if prevented {
            format!(
                "{name} skipped \"{effect_name}\" for {m}: the ledger already has key {}",
                effect.key()
            )
        } else if duplicate {
            format!("Duplicate effect! {name} performed \"{effect_name}\" for {m} again (delivery {attempt})")
        } else {
            format!("{name} performed \"{effect_name}\" for {m} (delivery {attempt})")
        };
        let message_id = effect.message_id;
        self.say_lane(i, Some(&message_id), text);
    }

    /// The current message is processed and its effects are done.
    fn commit(&mut self, i: usize, job_id: u64) {
        let lane = &mut self.lanes[i];
        let Some(job) = lane.jobs.iter().find(|j| j.id == job_id) else {
            return;
        };
        let kind = job.kind.clone();
        let crash = lane
            .armed
            .crash_after_commit
            .then(|| job.tasks[job.current].message_id);
        if let Some(message_id) = crash {
            lane.armed.crash_after_commit = false;
            let m = self.label(&message_id);
            let text = format!(
                "{} committed the work for {m}, then crashed before DeleteMessage",
                self.lanes[i].name
            );
            self.say_lane(i, Some(&message_id), text);
            self.halt(i, Life::Dead);
            return;
        }
        match kind {
            JobKind::Worker => self.delete_current(i, job_id),
            _ => self.finish_task(i, job_id, true),
        }
    }

    /// DeleteMessage for the message just processed.
    fn delete_current(&mut self, i: usize, job_id: u64) {
        let lane = &mut self.lanes[i];
        let lose = std::mem::take(&mut lane.armed.lose_delete_response);
        let Some(job) = lane.job_mut(job_id) else {
            return;
        };
        // Only a job run again after a lost response deletes with the same handle again; a job
        // that ends with this message needs its queue's URL no more.
        let last = !lose && job.current + 1 == job.tasks.len();
        let queue_url = match last {
            true => std::mem::take(&mut job.queue_url),
            false => job.queue_url.clone(),
        };
        let task = &mut job.tasks[job.current];
        let retried = task.retried;
        let receipt_handle = match lose {
            true => task.receipt_handle,
            false => std::mem::take(&mut task.receipt_handle),
        };
        let request = Request::DeleteMessage(DeleteMessageInput {
            queue_url,
            receipt_handle: receipt_handle.into(),
        });
        let deleted = matches!(self.call(self.who(i), request), Reply::Done(Ok(_)));
        if deleted && !lose {
            self.finish_task(i, job_id, true);
            return;
        }
        let Some(job) = self.lanes[i].job_mut(job_id) else {
            return;
        };
        let message_id = job.tasks[job.current].message_id;
        let (name, m) = (self.lanes[i].name.clone(), self.label(&message_id));
        if lose && !retried {
            self.say_lane(i, Some(&message_id),
                format!("The DeleteMessage response for {m} was lost: {name} thinks the delete failed and runs the job again"),
            );
            let now = self.now();
            if let Some(job) = self.lanes[i].job_mut(job_id) {
                let task = &mut job.tasks[job.current];
                task.retried = true;
                task.effects_done = 0;
                task.start = Some(now);
            }
        } else {
            self.say_lane(
                i,
                Some(&message_id),
                format!("{name} gives up on {m}: it did not see DeleteMessage succeed"),
            );
            self.finish_task(i, job_id, false);
        }
    }

    pub(crate) fn fail_task(&mut self, i: usize, job_id: u64) {
        let name = self.lanes[i].name.clone();
        let Some(job) = self.lanes[i].job_mut(job_id) else {
            return;
        };
        let task = &job.tasks[job.current];
        let message_id = task.message_id;
        let why = match task.failure {
            Some(Failure::Poison) => " (poison message)",
            _ => "",
        };
        let whole_batch = matches!(
            job.kind,
            JobKind::Lambda {
                report_batch_item_failures: false,
                ..
            }
        );
        let m = self.label(&message_id);
        if whole_batch {
            let text = format!("Lambda function error on {m}{why}: without ReportBatchItemFailures the whole batch goes back");
            self.say_lane(i, Some(&message_id), text);
            self.abort_job(i, job_id, "The invocation failed");
            return;
        }
        let text = format!("{name}: the job for {m} failed{why}; no DeleteMessage, so {m} comes back when its visibility timeout runs out");
        self.say_lane(i, Some(&message_id), text);
        self.finish_task(i, job_id, false);
    }

    /// Ends the current message with `ok`, then moves to the next one (or ends the job).
    fn finish_task(&mut self, i: usize, job_id: u64, ok: bool) {
        let now = self.now();
        let Some(job) = self.lanes[i].job_mut(job_id) else {
            return;
        };
        job.tasks[job.current].outcome = Some(ok);
        job.current += 1;
        let next = job.tasks.get_mut(job.current).map(|task| {
            task.start = Some(now);
            (task.message_id, task.duration)
        });
        match next {
            Some((message_id, duration)) if job.kind == JobKind::Worker => {
                if self.narrating() {
                    let text = self.job_started(i, &message_id, duration);
                    self.say_lane(i, Some(&message_id), text);
                } else {
                    self.skip();
                }
            }
            Some(_) => {}
            None => self.end_job(i, job_id),
        }
    }

    /// Stops a Lambda invocation before it returns: nothing of its batch is deleted.
    fn abort_job(&mut self, i: usize, job_id: u64, why: &str) {
        let Some(job) = self.lanes[i].job_mut(job_id) else {
            return;
        };
        job.aborted = true;
        for task in job.tasks.iter_mut().filter(|t| t.outcome.is_none()) {
            task.outcome = Some(false);
        }
        let text = format!(
            "{why}: none of its {} message(s) is deleted; they come back when their visibility timeout runs out",
            job.tasks.len()
        );
        self.say_lane(i, None, text);
        self.end_job(i, job_id);
    }

    /// A job is over: a Lambda batch is deleted as the function reported, the lane moves on.
    fn end_job(&mut self, i: usize, job_id: u64) {
        let lane_id = self.lanes[i].id;
        let Some(at) = self.lanes[i].jobs.iter().position(|j| j.id == job_id) else {
            return;
        };
        let job = self.lanes[i].jobs.remove(at);
        if self.scheduler.firing_job() != Some(job_id) {
            self.cancel(Timer::Job {
                lane: lane_id,
                job: job_id,
            });
        }
        // Its heartbeat is a timer only once it started and its first beat was scheduled.
        if job.heartbeat.is_some() && job.started.is_some() && job.first_heartbeat.is_none() {
            self.cancel(Timer::Heartbeat {
                lane: lane_id,
                job: job_id,
            });
        }
        // A worker's message deleted is let go of already (its Deleted event); with no other
        // job in the lane, no other task of the lane can hold it again.
        let sole_worker_job = job.kind == JobKind::Worker && self.lanes[i].jobs.is_empty();
        for task in &job.tasks {
            if sole_worker_job && task.outcome == Some(true) {
                continue;
            }
            if let Entry::Occupied(held) = self.holders.entry(task.message_id) {
                if held.get().lane == lane_id {
                    held.remove();
                }
            }
        }
        if let JobKind::Lambda {
            report_batch_item_failures,
            ..
        } = job.kind
        {
            let failed: Vec<&str> = job
                .tasks
                .iter()
                .filter(|t| t.outcome == Some(false))
                .map(|t| t.message_id.as_str())
                .collect();
            let entries: Vec<DeleteMessageBatchEntry> = job
                .tasks
                .iter()
                .enumerate()
                .filter(|(_, t)| t.outcome == Some(true))
                .map(|(n, t)| DeleteMessageBatchEntry {
                    id: n.to_string(),
                    receipt_handle: t.receipt_handle.into(),
                })
                .collect();
            let returned = !job.aborted;
            let armed = &mut self.lanes[i].armed.bad_item_identifier;
            let bad_response = returned && report_batch_item_failures && std::mem::take(armed);
            if bad_response {
                let text = format!(
                    "Lambda's response lists an itemIdentifier that is no MessageId of the batch: the whole batch counts as failed, and its {} message(s) come back when their visibility timeout runs out",
                    job.tasks.len()
                );
                self.say_lane(i, None, text);
            }
            let deletes = returned
                && !bad_response
                && (failed.is_empty() || report_batch_item_failures)
                && !entries.is_empty();
            if deletes {
                if !failed.is_empty() {
                    let text = format!(
                        "Lambda returned batchItemFailures [{}]: the event source mapping deletes the other {}",
                        self.list(failed.iter().copied()),
                        entries.len()
                    );
                    self.say_lane(i, None, text);
                }
                // DeleteMessageBatch takes 10 entries at most: a bigger batch (a batching
                // window) is deleted 10 at a time.
                for entries in entries.chunks(10) {
                    let request = Request::DeleteMessageBatch(DeleteMessageBatchInput {
                        queue_url: job.queue_url.clone(),
                        entries: entries.to_vec(),
                    });
                    self.call(self.who(i), request);
                }
            }
        }
        let mut tasks = job.tasks;
        tasks.clear();
        self.lanes[i].spare_tasks = tasks;
        self.start_ready_jobs(i);
        self.ensure_polling(lane_id);
    }

    /// The heartbeat: extend what the job still holds, within the policy's caps.
    pub(crate) fn heartbeat(&mut self, lane: u64, job_id: u64) {
        let Some(i) = self.lane_pos(lane) else { return };
        let now = self.now();
        let name = self.lanes[i].name.clone();
        if self.lanes[i].life != Life::Alive {
            return;
        }
        let Some(job) = self.lanes[i].job_mut(job_id) else {
            return;
        };
        let (Some(hb), Some(started)) = (job.heartbeat.clone(), job.started) else {
            return;
        };
        let capped = hb.max_extensions.is_some_and(|max| job.extensions >= max)
            || hb
                .max_total
                .is_some_and(|max| (now - started) as f64 >= max * 1000.0);
        let handles: Vec<ReceiptHandle> = job.unfinished().map(|t| t.receipt_handle).collect();
        let first = job.unfinished().next().map(|t| t.message_id);
        if capped {
            let text = format!("{name} stops its heartbeat: the extension cap is reached");
            self.say_lane(i, first.as_deref(), text);
            return;
        }
        job.extensions += 1;
        let queue_url = job.queue_url.clone();
        let request = match handles.as_slice() {
            [handle] => Request::ChangeMessageVisibility(ChangeMessageVisibilityInput {
                queue_url,
                receipt_handle: (*handle).into(),
                visibility_timeout: i64::from(hb.extend_by),
            }),
            _ => Request::ChangeMessageVisibilityBatch(ChangeMessageVisibilityBatchInput {
                queue_url,
                entries: handles
                    .iter()
                    .enumerate()
                    .map(|(n, handle)| ChangeMessageVisibilityBatchEntry {
                        id: n.to_string(),
                        receipt_handle: (*handle).into(),
                        visibility_timeout: Some(i64::from(hb.extend_by)),
                    })
                    .collect(),
            }),
        };
        self.call(self.who(i), request);
        let every = ((hb.every * 1000.0) as Millis).max(1);
        self.schedule(now + every, Timer::Heartbeat { lane, job: job_id });
    }
}
