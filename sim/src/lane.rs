//! A worker lane at run time: the jobs it is doing, the faults armed on it, its counters. Pure
//! bookkeeping and timing; the calls to SQS are made by the world (`consume`).

use crate::rng::Rng;
use crate::worker::{
    EffectStep, Heartbeat, HeldMessage, ProcessingTime, WorkerMode, WorkerPolicy, WorkerStatus,
    WorkerView, LAMBDA_POLLERS,
};
use sqs_engine::api::{Body, Message, MessageId, QueueUrl};
use sqs_engine::{Millis, Namespace, ReceiptHandle};
use std::cell::Cell;
use std::ops::{Index, IndexMut};
use std::sync::Arc;

/// Whether a lane is working.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Life {
    Alive,
    /// Killed: does nothing until restarted.
    Dead,
    /// Stuck: no progress, no heartbeats, no polls.
    Hung,
}

/// Faults armed for what comes next.
#[derive(Clone, Debug, Default)]
pub(crate) struct Armed {
    pub(crate) crash_after_commit: bool,
    pub(crate) lose_delete_response: bool,
    pub(crate) fail_job: bool,
    pub(crate) bad_item_identifier: bool,
}

/// Why a message's job fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    /// Its body has the policy's poison marker.
    Poison,
    /// FailJob was injected.
    Injected,
}

/// How a job ends its messages.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum JobKind {
    /// A polling worker: DeleteMessage right after each message.
    Worker,
    /// A Lambda invocation: the event-source mapping deletes the batch when the function returns.
    Lambda {
        function_timeout: Millis,
        report_batch_item_failures: bool,
    },
    /// Held by the user (manual mode): nothing happens until the user acts.
    Manual,
}

/// One received message inside a job.
#[derive(Clone, Debug)]
pub(crate) struct Task {
    pub(crate) message_id: MessageId,
    pub(crate) receipt_handle: ReceiptHandle,
    pub(crate) body: Body,
    pub(crate) receive_count: u32,
    pub(crate) received_at: Millis,
    /// When its processing started (None: waiting behind earlier messages of the batch).
    pub(crate) start: Option<Millis>,
    pub(crate) duration: Millis,
    pub(crate) effects_done: usize,
    pub(crate) failure: Option<Failure>,
    /// Finished: Some(true) succeeded, Some(false) failed.
    pub(crate) outcome: Option<bool>,
    pub(crate) lease_expired: bool,
    /// Already re-run once after a lost DeleteMessage response.
    pub(crate) retried: bool,
}

/// An effect step of a lane's policy, its name shared with the ledger entries it writes.
#[derive(Clone, Debug)]
pub(crate) struct Step {
    pub(crate) name: Arc<str>,
    pub(crate) idempotent: bool,
}

/// The policy's effect steps, to share.
fn steps(policy: &WorkerPolicy) -> Arc<[Step]> {
    let step = |e: &EffectStep| Step {
        name: e.name.as_str().into(),
        idempotent: e.idempotent,
    };
    policy.effects.iter().map(step).collect()
}

/// What a timer finds due in a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Due {
    /// The Lambda function timeout is reached.
    Timeout,
    /// The current message's job fails now.
    Fail,
    /// Its next effect is due.
    Effect,
    /// Its processing is complete (all effects done).
    Commit,
    /// Nothing yet; wake at this time.
    Wait(Millis),
    /// Nothing left to process.
    Idle,
}

/// A batch of received messages being worked on, one after the other.
#[derive(Clone, Debug)]
pub(crate) struct Job {
    pub(crate) id: u64,
    pub(crate) kind: JobKind,
    /// The queue its messages came from.
    pub(crate) queue_url: QueueUrl,
    pub(crate) tasks: Vec<Task>,
    /// The message being processed.
    pub(crate) current: usize,
    /// When processing began (None: a Lambda batch throttled, waiting for a free slot).
    pub(crate) started: Option<Millis>,
    /// The policy's effects and heartbeat when the job began.
    pub(crate) effects: Arc<[Step]>,
    pub(crate) heartbeat: Option<Heartbeat>,
    /// The first heartbeat (time, reserved order of scheduling), until the job is known to last
    /// that long: most jobs end before it, and a timer scheduled and cancelled per job costs.
    pub(crate) first_heartbeat: Option<(Millis, u64)>,
    pub(crate) extensions: u32,
    /// Stopped before its end (a Lambda timeout or function error): nothing is deleted.
    pub(crate) aborted: bool,
    /// A Lambda batch still gathering messages (MaximumBatchingWindowInSeconds) until this time
    /// or until it is full; None once it may be invoked.
    pub(crate) gather_until: Option<Millis>,
    /// When it could first start (its receive, or the end of its gathering): a wait after that
    /// is throttling.
    pub(crate) ready_at: Millis,
}

impl Job {
    /// Ends a Lambda batch's gathering once it holds `batch_size` messages. (Lambda also
    /// invokes at 6 MB of payload; the sim does not model that limit.)
    fn close_if_full(&mut self, batch_size: usize, now: Millis) {
        if self.tasks.len() >= batch_size {
            self.close_gathering(now);
        }
    }

    /// The batch may be invoked from `now` on.
    pub(crate) fn close_gathering(&mut self, now: Millis) {
        if self.gather_until.take().is_some() {
            self.ready_at = now;
        }
    }

    /// The message being processed, if any.
    pub(crate) fn current_task(&self) -> Option<&Task> {
        self.tasks.get(self.current)
    }

    /// Messages not finished yet (still held).
    pub(crate) fn unfinished(&self) -> impl Iterator<Item = &Task> {
        self.tasks.iter().filter(|t| t.outcome.is_none())
    }

    /// What is due at `now`.
    pub(crate) fn due(&self, now: Millis) -> Due {
        let Some(started) = self.started else {
            return Due::Idle;
        };
        if let JobKind::Lambda {
            function_timeout, ..
        } = self.kind
        {
            if now >= started + function_timeout {
                return Due::Timeout;
            }
        }
        let Some(task) = self.current_task() else {
            return Due::Idle;
        };
        let Some(start) = task.start else {
            return Due::Idle;
        };
        let n = self.effects.len() as u64;
        let next = if task.failure.is_some() {
            // A failing job fails where its first effect would be (at its end if it has none).
            let at = start + task.duration.checked_div(n).unwrap_or(task.duration);
            (at, Due::Fail)
        } else if task.effects_done < self.effects.len() {
            let i = task.effects_done as u64 + 1;
            (start + task.duration * i / n, Due::Effect)
        } else {
            (start + task.duration, Due::Commit)
        };
        if next.0 <= now {
            next.1
        } else {
            let wake = match self.kind {
                JobKind::Lambda {
                    function_timeout, ..
                } => next.0.min(started + function_timeout),
                _ => next.0,
            };
            Due::Wait(wake)
        }
    }
}

/// How many lane positions [`Lanes::pos`] remembers: lanes added one after the other get
/// consecutive ids, so up to this many never share a hint.
const LANE_HINTS: usize = 64;

/// The worker lanes, in the order they were added (so by id: ids only grow): the world's part
/// that owns them, found by id through remembered positions.
#[derive(Clone, Debug)]
pub(crate) struct Lanes {
    list: Vec<Lane>,
    /// Where each lane was found last, by its id modulo [`LANE_HINTS`]: a message's steps look
    /// up its lane again and again, and the steps of 20 lanes' messages interleave (one hint
    /// for the lane found last missed twice per message).
    hints: [Cell<usize>; LANE_HINTS],
}

impl Default for Lanes {
    fn default() -> Self {
        Lanes {
            list: Vec::new(),
            hints: std::array::from_fn(|_| Cell::new(0)),
        }
    }
}

impl Lanes {
    /// The position of the lane with this id: where its hint says if it is still there, else
    /// a binary search (lanes are only ever pushed with a fresh, larger id or removed, so they
    /// stay sorted by id). Inlined (a hint is checked in a few instructions) with the search
    /// kept out of line.
    #[inline]
    pub(crate) fn pos(&self, id: u64) -> Option<usize> {
        let at = self.hints[id as usize % LANE_HINTS].get();
        if self.list.get(at).is_some_and(|l| l.id == id) {
            return Some(at);
        }
        self.find(id)
    }

    /// [`Lanes::pos`] when the hint is stale.
    #[inline(never)]
    fn find(&self, id: u64) -> Option<usize> {
        let at = self.list.binary_search_by_key(&id, |l| l.id).ok()?;
        self.hints[id as usize % LANE_HINTS].set(at);
        Some(at)
    }

    /// The position of the lane named `name`.
    pub(crate) fn by_name(&self, name: &str) -> Option<usize> {
        self.list.iter().position(|l| *l.name == *name)
    }

    /// Adds a lane (its id larger than every other's).
    pub(crate) fn push(&mut self, lane: Lane) {
        debug_assert!(self.list.last().is_none_or(|l| l.id < lane.id));
        self.list.push(lane);
    }

    /// Removes the lane at position `i`.
    pub(crate) fn remove(&mut self, i: usize) -> Lane {
        self.list.remove(i)
    }

    pub(crate) fn iter(&self) -> std::slice::Iter<'_, Lane> {
        self.list.iter()
    }

    pub(crate) fn iter_mut(&mut self) -> std::slice::IterMut<'_, Lane> {
        self.list.iter_mut()
    }
}

impl Index<usize> for Lanes {
    type Output = Lane;

    #[inline]
    fn index(&self, i: usize) -> &Lane {
        &self.list[i]
    }
}

impl IndexMut<usize> for Lanes {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut Lane {
        &mut self.list[i]
    }
}

/// A worker lane.
#[derive(Clone, Debug)]
pub(crate) struct Lane {
    pub(crate) id: u64,
    /// Shared with the ledger entries it writes.
    pub(crate) name: Arc<str>,
    /// Set only by [`Lane::new`] and [`Lane::set_policy`], which keep `effects` in step.
    pub(crate) policy: WorkerPolicy,
    /// The policy's effects, shared by the jobs that start under it.
    effects: Arc<[Step]>,
    pub(crate) life: Life,
    /// Bumped on kill, hang and restart: a long poll answered after that is orphaned.
    pub(crate) epoch: u64,
    /// A ReceiveMessage is waiting (long poll).
    pub(crate) polling: bool,
    pub(crate) jobs: Vec<Job>,
    /// The emptied task list of the last job that ended, for the next job to fill: a lane
    /// takes one job per receive, and this saves an allocation for each.
    pub(crate) spare_tasks: Vec<Task>,
    pub(crate) armed: Armed,
    pub(crate) rng: Rng,
    pub(crate) warnings: Vec<String>,
    /// Its queue's URL, once looked up ([`crate::queue_url::cached_url`]).
    pub(crate) queue_url: Option<QueueUrl>,
    pub(crate) api_calls: u64,
    pub(crate) empty_receives: u64,
    pub(crate) deliveries: u64,
    /// A client of its own ([`crate::SimAction::Call`]): its process calls SQS itself.
    pub(crate) client: bool,
    /// The account and region of its queue: the engine's default, or a client's own.
    pub(crate) namespace: Namespace,
}

impl Lane {
    /// A new, idle lane drawing from its own stream of `seed`.
    pub(crate) fn new(id: u64, name: &str, policy: WorkerPolicy, seed: u64) -> Self {
        Lane {
            rng: Rng::for_name(seed, name),
            id,
            name: name.into(),
            effects: steps(&policy),
            policy,
            life: Life::Alive,
            epoch: 0,
            polling: false,
            jobs: Vec::new(),
            spare_tasks: Vec::new(),
            armed: Armed::default(),
            warnings: Vec::new(),
            queue_url: None,
            api_calls: 0,
            empty_receives: 0,
            deliveries: 0,
            client: false,
            namespace: Namespace::DEFAULT,
        }
    }

    /// A new policy, from its next job on.
    pub(crate) fn set_policy(&mut self, policy: WorkerPolicy) {
        // A function that no longer reports batch item failures has no such response to get wrong.
        self.armed.bad_item_identifier &= policy.mode.reports_batch_item_failures();
        self.effects = steps(&policy);
        self.queue_url = None;
        self.policy = policy;
    }

    /// Whether it should call ReceiveMessage now: alive, not already waiting, and with room.
    #[inline]
    pub(crate) fn wants_to_poll(&self) -> bool {
        let room = match self.policy.mode {
            WorkerMode::Auto => self.jobs.is_empty(),
            WorkerMode::Lambda { .. } => (self.jobs.len() as u32) < LAMBDA_POLLERS,
            WorkerMode::Manual => false,
        };
        self.life == Life::Alive && !self.polling && room
    }

    /// MaxNumberOfMessages for its next receive (a Lambda batch being gathered asks for what
    /// it still lacks).
    pub(crate) fn batch_size(&self) -> u32 {
        match self.policy.mode {
            WorkerMode::Lambda { batch_size, .. } => {
                let gathered = self.jobs.iter().find(|j| j.gather_until.is_some());
                batch_size.saturating_sub(gathered.map_or(0, |j| j.tasks.len() as u32))
            }
            _ => self.policy.max_messages,
        }
        .clamp(1, 10)
    }

    /// WaitTimeSeconds for its receives: Lambda's pollers always long-poll (20 s).
    pub(crate) fn wait_time_seconds(&self) -> u32 {
        match self.policy.mode {
            WorkerMode::Lambda { .. } => 20,
            _ => self.policy.wait_time_seconds.min(20),
        }
    }

    /// MaximumBatchingWindowInSeconds, in milliseconds (0 for a lane that is not Lambda).
    fn batching_window(&self) -> Millis {
        match self.policy.mode {
            WorkerMode::Lambda {
                maximum_batching_window_in_seconds: window,
                ..
            } => Millis::from(window) * 1000,
            _ => 0,
        }
    }

    /// Takes received messages: into the Lambda batch being gathered if there is one, else as
    /// a new job `id` (gathering if the policy has a batching window). Returns the end of the
    /// new job's gathering, for a timer.
    pub(crate) fn take(
        &mut self,
        id: u64,
        queue_url: QueueUrl,
        messages: &mut Vec<Message>,
        receive_count: impl Fn(&Message) -> u32,
        now: Millis,
    ) -> Option<Millis> {
        let mut tasks = self.tasks_for(messages, receive_count, now);
        let batch_size = match self.policy.mode {
            WorkerMode::Lambda { batch_size, .. } => batch_size as usize,
            _ => usize::MAX,
        };
        let window = self.batching_window();
        if let Some(job) = self.jobs.iter_mut().find(|j| j.gather_until.is_some()) {
            // Only a batch of the same mapping and queue takes them (a SetPolicy since may
            // have changed either): else it is invoked with what it has.
            if window > 0 && job.queue_url == queue_url {
                job.tasks.append(&mut tasks);
                job.close_if_full(batch_size, now);
                self.spare_tasks = tasks;
                return None;
            }
            job.close_gathering(now);
        }
        let mut job = self.job_for(id, queue_url, tasks, now);
        if window > 0 {
            job.gather_until = Some(now + window);
            job.close_if_full(batch_size, now);
        }
        let gathering = job.gather_until;
        self.jobs.push(job);
        gathering
    }

    /// How many invocations may run at once (Lambda), or jobs (others: no limit).
    pub(crate) fn concurrency(&self) -> usize {
        match self.policy.mode {
            WorkerMode::Lambda {
                reserved_concurrency,
                ..
            } => reserved_concurrency.unwrap_or(LAMBDA_POLLERS).max(1) as usize,
            _ => usize::MAX,
        }
    }

    /// The tasks for messages just received (taken out of `messages`), per the current policy;
    /// `receive_count` gives each message's ApproximateReceiveCount.
    fn tasks_for(
        &mut self,
        messages: &mut Vec<Message>,
        receive_count: impl Fn(&Message) -> u32,
        now: Millis,
    ) -> Vec<Task> {
        // Collected into the spare Vec: in place, the smaller Tasks would reallocate the Messages'.
        let mut tasks = std::mem::take(&mut self.spare_tasks);
        tasks.reserve(messages.len());
        tasks.extend(messages.drain(..).map(|m| {
            let poison = self
                .policy
                .poison_marker
                .as_deref()
                .is_some_and(|marker| !marker.is_empty() && contains(&m.body, marker));
            let injected = std::mem::take(&mut self.armed.fail_job);
            Task {
                receive_count: receive_count(&m),
                message_id: m.message_id,
                receipt_handle: m.receipt_handle,
                body: m.body,
                received_at: now,
                start: None,
                duration: draw(&self.policy.processing, &mut self.rng),
                effects_done: 0,
                failure: if injected {
                    Some(Failure::Injected)
                } else if poison {
                    Some(Failure::Poison)
                } else {
                    None
                },
                outcome: None,
                lease_expired: false,
                retried: false,
            }
        }));
        tasks
    }

    /// A job for these tasks, per the current policy.
    fn job_for(&self, id: u64, queue_url: QueueUrl, tasks: Vec<Task>, now: Millis) -> Job {
        let kind = match self.policy.mode {
            WorkerMode::Auto => JobKind::Worker,
            WorkerMode::Manual => JobKind::Manual,
            WorkerMode::Lambda {
                function_timeout,
                report_batch_item_failures,
                ..
            } => JobKind::Lambda {
                function_timeout: Millis::from(function_timeout) * 1000,
                report_batch_item_failures,
            },
        };
        let heartbeat = match kind {
            JobKind::Worker => self.policy.heartbeat.clone(),
            _ => None,
        };
        Job {
            id,
            kind,
            queue_url,
            tasks,
            current: 0,
            started: None,
            effects: Arc::clone(&self.effects),
            heartbeat,
            first_heartbeat: None,
            extensions: 0,
            aborted: false,
            gather_until: None,
            ready_at: now,
        }
    }

    /// The job with this id.
    pub(crate) fn job_mut(&mut self, job: u64) -> Option<&mut Job> {
        self.jobs.iter_mut().find(|j| j.id == job)
    }

    /// The held message with this id.
    pub(crate) fn task_mut(&mut self, message_id: &str) -> Option<&mut Task> {
        self.jobs
            .iter_mut()
            .flat_map(|j| j.tasks.iter_mut())
            .find(|t| *t.message_id == *message_id && t.outcome.is_none())
    }

    /// Whether it holds messages by hand (manual mode).
    pub(crate) fn manual_jobs(&self) -> bool {
        self.jobs.iter().any(|j| j.kind == JobKind::Manual)
    }

    /// Drops a message held by hand (manual mode) once it has left the queue.
    pub(crate) fn forget_manual(&mut self, message_id: &str) {
        for job in self.jobs.iter_mut().filter(|j| j.kind == JobKind::Manual) {
            job.tasks.retain(|t| *t.message_id != *message_id);
        }
        self.jobs.retain(|j| !j.tasks.is_empty());
    }

    /// Invocations (or jobs) running.
    pub(crate) fn running(&self) -> usize {
        self.jobs.iter().filter(|j| j.started.is_some()).count()
    }

    /// Messages held (not finished).
    pub(crate) fn held(&self) -> usize {
        self.jobs.iter().map(|j| j.unfinished().count()).sum()
    }

    /// What the UI draws.
    pub(crate) fn view(&self) -> WorkerView {
        let status = match self.life {
            Life::Dead => WorkerStatus::Dead,
            Life::Hung => WorkerStatus::Hung,
            Life::Alive if self.running() > 0 => WorkerStatus::Processing,
            Life::Alive if self.polling => WorkerStatus::Polling,
            Life::Alive => WorkerStatus::Idle,
        };
        let holding = self
            .jobs
            .iter()
            .flat_map(|job| {
                job.unfinished().map(move |task| HeldMessage {
                    message_id: task.message_id.to_string(),
                    receipt_handle: task.receipt_handle.to_string(),
                    started_at: task.start.unwrap_or(task.received_at),
                    done_at: match (self.life, task.start) {
                        (Life::Alive, Some(start)) => Some(start + task.duration),
                        _ => None,
                    },
                    effects_done: job.effects[..task.effects_done]
                        .iter()
                        .map(|e| e.name.to_string())
                        .collect(),
                    receive_count: task.receive_count,
                    lease_expired: task.lease_expired,
                })
            })
            .collect();
        let armed = &self.armed;
        let armed_faults = [
            (armed.crash_after_commit, "CrashAfterCommit"),
            (armed.lose_delete_response, "LoseDeleteResponse"),
            (armed.fail_job, "FailJob"),
            (armed.bad_item_identifier, "BadItemIdentifier"),
        ]
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| name.to_string())
        .collect();
        WorkerView {
            name: self.name.to_string(),
            policy: self.policy.clone(),
            status,
            holding,
            armed_faults,
            warnings: self.warnings.clone(),
            api_calls: self.api_calls,
            empty_receives: self.empty_receives,
            deliveries: self.deliveries,
            client: self.client,
        }
    }
}

/// Whether `text` contains `part`, by a scan for its first byte: for the short bodies of a
/// simulation, std's substring search costs more to set up (per message received) than this.
fn contains(text: &str, part: &str) -> bool {
    let (text, part) = (text.as_bytes(), part.as_bytes());
    let Some((&first, rest)) = part.split_first() else {
        return true;
    };
    (0..text.len()).any(|i| text[i] == first && text[i + 1..].starts_with(rest))
}

/// Draws a job's duration in milliseconds.
fn draw(processing: &ProcessingTime, rng: &mut Rng) -> Millis {
    let seconds = match *processing {
        ProcessingTime::Fixed { seconds } => seconds,
        ProcessingTime::Uniform { min, max } => min + (max - min).max(0.0) * rng.unit(),
        ProcessingTime::LongTail { median, max } => {
            // A log-logistic draw: half the jobs under the median, 1 in 100 at `max`.
            let u = rng.unit().clamp(1e-9, 1.0 - 1e-9);
            let spread = (max / median).max(1.0).ln() / 99f64.ln();
            (median * (spread * (u / (1.0 - u)).ln()).exp()).min(max)
        }
    };
    (seconds.max(0.0) * 1000.0).round() as Millis
}

/// The policy problems a lane shows, given its queue's VisibilityTimeout in seconds.
pub(crate) fn warnings(policy: &WorkerPolicy, queue_visibility: Option<u32>) -> Vec<String> {
    let Some(visibility) = policy.visibility_timeout.or(queue_visibility) else {
        return Vec::new();
    };
    let mut warnings = Vec::new();
    if let WorkerMode::Lambda {
        function_timeout,
        maximum_batching_window_in_seconds: window,
        ..
    } = policy.mode
    {
        // AWS: at least six times the function timeout, plus the batching window.
        let advised = 6 * function_timeout + window;
        if visibility < function_timeout {
            warnings.push(format!(
                "The visibility timeout ({visibility} s) is now shorter than the function timeout ({function_timeout} s): Lambda refuses to create such a mapping, and a batch comes back to the queue while the function still runs."
            ));
        } else if visibility < advised {
            let (plus, sum) = if window > 0 {
                (" plus the batching window", format!(" + {window} s"))
            } else {
                ("", String::new())
            };
            warnings.push(format!(
                "Visibility timeout {visibility} s is under 6x the function timeout{plus} (6 x {function_timeout} s{sum} = {advised} s): throttled or retried batches can be processed twice."
            ));
        }
    }
    if let Some(hb) = &policy.heartbeat {
        if hb.every >= f64::from(visibility) {
            warnings.push(format!(
                "The heartbeat comes every {} s, but the visibility timeout is {visibility} s: it runs out before the first extension.",
                hb.every
            ));
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_tail_draws_stay_within_max_and_centre_on_the_median() {
        let mut rng = Rng::for_name(1, "w");
        let tail = ProcessingTime::LongTail {
            median: 2.0,
            max: 60.0,
        };
        let draws: Vec<Millis> = (0..1000).map(|_| draw(&tail, &mut rng)).collect();
        assert!(draws.iter().all(|&d| d <= 60_000));
        let under = draws.iter().filter(|&&d| d <= 2_000).count();
        assert!(
            (400..600).contains(&under),
            "{under} of 1000 under the median"
        );
    }

    #[test]
    fn contains_finds_a_part_anywhere_in_the_text() {
        assert!(contains("order-7 tag-0", "tag-0"));
        assert!(contains("tag-0", "tag-0"));
        assert!(contains("ttag-0x", "tag-0"));
        assert!(contains("é tag", "tag"));
        assert!(contains("abc", ""));
        assert!(!contains("order-7 tag-10", "tag-0"));
        assert!(!contains("tag-", "tag-0"));
        assert!(!contains("", "t"));
    }

    #[test]
    fn the_six_x_rule_is_a_warning() {
        let mut policy = WorkerPolicy::new("q");
        policy.mode = WorkerMode::Lambda {
            batch_size: 1,
            maximum_batching_window_in_seconds: 0,
            function_timeout: 30,
            report_batch_item_failures: false,
            reserved_concurrency: None,
        };
        assert_eq!(warnings(&policy, Some(30)).len(), 1);
        assert!(warnings(&policy, Some(30))[0].contains("6 x 30 s = 180 s"));
        assert!(warnings(&policy, Some(180)).is_empty());
        assert!(warnings(&policy, Some(10))[0].contains("refuse"));
    }
}
