//! The world's scheduler: its timers ([`Timers`]), the polls asked for at the current instant
//! while a timer fires, and the scenario's later steps with their times. The world's clock loop
//! asks it what comes next; the lanes and producers schedule and cancel through it.

use crate::timers::{Timer, Timers};
use serde_json::Value;
use sqs_engine::Millis;
use std::collections::VecDeque;
use std::sync::Arc;

/// What the world has scheduled for itself.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scheduler {
    timers: Timers,
    /// The scenario's later steps, with their times (fixed once loaded: shared by the copies),
    /// and how many of them have run.
    steps: Arc<[(Millis, Value)]>,
    steps_run: usize,
    /// Whether a timer is firing ([`Scheduler::start_firing`]).
    firing: bool,
    /// The job whose timer is firing, if a job's: that timer is no longer scheduled, so the
    /// job's end has none to cancel (a job's step schedules its next one only as it returns).
    firing_job: Option<u64>,
    /// Polls asked for at the current instant while a timer fired, as (order of scheduling,
    /// lane): timers in all but name; empty between two timers. In order, taken from the front.
    due_polls: VecDeque<(u64, u64)>,
}

/// A scenario step taken to run ([`Scheduler::take_step`]): shared with the copies, not copied.
pub(crate) struct ScheduledStep {
    steps: Arc<[(Millis, Value)]>,
    index: usize,
}

impl ScheduledStep {
    /// The step, as the scenario file has it.
    pub(crate) fn value(&self) -> &Value {
        &self.steps[self.index].1
    }
}

impl Scheduler {
    /// Schedules the scenario's later steps (in time order).
    pub(crate) fn set_steps(&mut self, steps: Vec<(Millis, Value)>) {
        self.steps = steps.into();
        self.steps_run = 0;
    }

    /// When the next scenario step runs.
    #[inline]
    pub(crate) fn next_step_at(&self) -> Option<Millis> {
        self.steps.get(self.steps_run).map(|&(at, _)| at)
    }

    /// The next scenario step, counted as run.
    pub(crate) fn take_step(&mut self) -> Option<ScheduledStep> {
        let index = self.steps_run;
        self.steps.get(index)?;
        self.steps_run += 1;
        Some(ScheduledStep {
            steps: Arc::clone(&self.steps),
            index,
        })
    }

    /// When the next timer fires.
    #[inline]
    pub(crate) fn first_at(&self) -> Option<Millis> {
        self.timers.first_at()
    }

    /// Takes the next timer.
    pub(crate) fn pop(&mut self) -> Option<Timer> {
        self.timers.pop()
    }

    /// Adds a timer, or moves it if it is scheduled.
    pub(crate) fn schedule(&mut self, at: Millis, timer: Timer) {
        self.timers.schedule(at, timer);
    }

    /// Adds a timer in the place of scheduling `order` ([`Scheduler::reserve`]).
    pub(crate) fn schedule_as(&mut self, at: Millis, order: u64, timer: Timer) {
        self.timers.schedule_as(at, order, timer);
    }

    /// A place in the order of scheduling, for a timer scheduled later in it.
    pub(crate) fn reserve(&mut self) -> u64 {
        self.timers.reserve()
    }

    /// Whether this timer is scheduled.
    pub(crate) fn has(&self, timer: Timer) -> bool {
        self.timers.has(timer)
    }

    /// Drops a timer if it is scheduled.
    pub(crate) fn cancel(&mut self, timer: Timer) {
        self.timers.cancel(timer);
    }

    /// Drops every timer of a lane, and its poll due now.
    pub(crate) fn cancel_lane(&mut self, lane: u64) {
        self.timers.cancel_where(|t| t.lane() == Some(lane));
        self.drop_due_poll(lane);
    }

    /// Drops a lane's poll due now (it moves, as a timer would).
    pub(crate) fn drop_due_poll(&mut self, lane: u64) {
        self.due_polls.retain(|&(_, l)| l != lane);
    }

    /// Timers scheduled.
    pub(crate) fn len(&self) -> usize {
        self.timers.len()
    }

    /// A timer starts firing.
    pub(crate) fn start_firing(&mut self, timer: Timer) {
        self.firing = true;
        if let Timer::Job { job, .. } = timer {
            self.firing_job = Some(job);
        }
    }

    /// The timer fired; the polls it asked for are next ([`Scheduler::next_due_poll`]).
    pub(crate) fn fired(&mut self) {
        self.firing_job = None;
    }

    /// The next poll asked for while the timer fired: (order of scheduling, lane).
    pub(crate) fn next_due_poll(&mut self) -> Option<(u64, u64)> {
        self.due_polls.pop_front()
    }

    /// The timer and the polls it asked for are done.
    pub(crate) fn stop_firing(&mut self) {
        self.firing = false;
    }

    /// The job whose timer is firing, if a job's.
    pub(crate) fn firing_job(&self) -> Option<u64> {
        self.firing_job
    }

    /// Schedules a poll of `lane` at `now`: due after the firing timer, in the order asked for,
    /// while one fires; else a timer.
    pub(crate) fn poll_now(&mut self, now: Millis, lane: u64) {
        if self.firing {
            let order = self.timers.reserve();
            self.due_polls.push_back((order, lane));
        } else {
            self.timers.schedule(now, Timer::Poll { lane });
        }
    }

    /// Whether a poll of `lane` is scheduled (as a timer or due now).
    pub(crate) fn has_poll(&self, lane: u64) -> bool {
        self.has(Timer::Poll { lane }) || self.due_polls.iter().any(|&(_, l)| l == lane)
    }
}
