//! Faults injected into workers: kill, hang, restart, and the faults armed for the current or
//! next message (crash after commit, lost delete response, failed job).

use super::{named, World};
use crate::lane::{Armed, Failure, JobKind, Life};
use serde_json::Value;
use sqs_engine::api::MessageId;

impl World {
    /// Kill or Hang: the lane stops; what it holds waits for its visibility timeout.
    pub(crate) fn stop(&mut self, name: &str, life: Life) -> Result<Value, String> {
        let i = self.lane_index(name)?;
        if self.lanes[i].life != Life::Alive {
            return Err(format!("{name} is not running."));
        }
        let held: Vec<MessageId> = self.lanes[i]
            .jobs
            .iter()
            .flat_map(|j| j.unfinished().map(|t| t.message_id))
            .collect();
        let verb = match life {
            Life::Hung => "hung (no progress, no heartbeats)",
            _ => "crashed",
        };
        if held.is_empty() {
            self.say_lane(i, None, format!("{name} {verb}"));
        }
        for message_id in held {
            let m = self.label(&message_id);
            let text = format!("{name} {verb} while holding {m}");
            self.say_lane(i, Some(&message_id), text);
        }
        self.halt(i, life);
        Ok(named("worker", name).into())
    }

    /// Stops a lane's clock: no timers, and any long poll it waits on is orphaned.
    pub(crate) fn halt(&mut self, i: usize, life: Life) {
        let lane = &mut self.lanes[i];
        lane.life = life;
        lane.epoch += 1;
        lane.polling = false;
        let id = lane.id;
        self.cancel_lane(id);
    }

    pub(crate) fn restart(&mut self, name: &str) -> Result<Value, String> {
        let i = self.lane_index(name)?;
        let lane = &mut self.lanes[i];
        if lane.life == Life::Alive {
            return Err(format!("{name} is running; kill it or let it hang first."));
        }
        lane.life = Life::Alive;
        lane.epoch += 1;
        lane.jobs.clear();
        let id = lane.id;
        self.holders.retain(|_, holder| holder.lane != id);
        self.say_lane(
            i,
            None,
            format!("{name} restarted: it has forgotten what it held"),
        );
        self.ensure_polling(id);
        Ok(named("worker", name).into())
    }

    pub(crate) fn arm(
        &mut self,
        name: &str,
        fault: &str,
        flag: fn(&mut Armed) -> &mut bool,
    ) -> Result<Value, String> {
        let i = self.lane_index(name)?;
        *flag(&mut self.lanes[i].armed) = true;
        self.say_lane(
            i,
            None,
            format!("{fault} armed on {name} for its current or next message"),
        );
        let mut result = named("worker", name);
        result.field("armed", fault);
        Ok(result.into())
    }

    /// FailJob: the message being processed fails now; if none, the next one will.
    pub(crate) fn fail_job(&mut self, name: &str) -> Result<Value, String> {
        let i = self.lane_index(name)?;
        let lane = &mut self.lanes[i];
        let lane_id = lane.id;
        let alive = lane.life == Life::Alive;
        let running = lane.jobs.iter_mut().find(|j| {
            j.started.is_some() && j.kind != JobKind::Manual && j.current_task().is_some()
        });
        match running {
            Some(job) if alive => {
                let job_id = job.id;
                let current = job.current;
                job.tasks[current].failure = Some(Failure::Injected);
                self.fail_task(i, job_id);
                self.job_due(lane_id, job_id);
                let mut result = named("worker", name);
                result.field("failed", &true);
                Ok(result.into())
            }
            _ => self.arm(name, "FailJob", |a| &mut a.fail_job),
        }
    }

    /// BadItemIdentifier: armed for the response of the current or next invocation.
    pub(crate) fn bad_item_identifier(&mut self, name: &str) -> Result<Value, String> {
        let i = self.lane_index(name)?;
        if !self.lanes[i].policy.mode.reports_batch_item_failures() {
            return Err(format!("BadItemIdentifier needs a Lambda worker with ReportBatchItemFailures; {name} is not one."));
        }
        self.arm(name, "BadItemIdentifier", |a| &mut a.bad_item_identifier)
    }
}
