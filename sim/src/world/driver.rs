//! The world as the `sqs-sim run` driver: scripts' calls go through the world (counted,
//! narrated, logged), the clock moves the workers too, `{"sim": ...}` steps are the
//! simulation's own, and the run ends with the summary line.

use super::World;
use crate::actor::Who;
use crate::command::{LoggedStep, Step};
use serde_json::Value;
use sqs_engine::api::ReceiveMessageOutput;
use sqs_engine::script::Driver;
use sqs_engine::{Engine, Millis, PollId, Reply, Request};

impl Driver for World {
    fn engine(&mut self) -> &mut Engine {
        self.engine_mut()
    }

    fn now(&self) -> Millis {
        World::now(self)
    }

    fn advance_to(&mut self, t: Millis) {
        World::advance_to(self, t)
    }

    fn next_deadline(&self) -> Option<Millis> {
        World::next_deadline(self)
    }

    fn call(&mut self, request: Request) -> Reply {
        let reply = World::call(self, Who::User, request.clone());
        if !matches!(reply, Reply::Done(Err(_))) {
            self.record(LoggedStep {
                at: self.now(),
                step: Step::Call(request),
            });
        }
        reply
    }

    fn take_completed_polls(&mut self) -> Vec<(PollId, ReceiveMessageOutput)> {
        World::take_completed_polls(self)
    }

    fn run_extra(&mut self, step: &Value) -> Option<Result<Value, String>> {
        step.get("sim")?;
        Some(self.run_sim_value(step))
    }

    /// The summary line, for scripts that use the simulation (a plain engine script prints
    /// exactly what it prints with the bare engine).
    fn summary(&self) -> Option<Value> {
        let simulated = self.log().iter().any(|s| matches!(s.step, Step::Sim(_)));
        simulated
            .then(|| serde_json::to_value(World::summary(self)).ok())
            .flatten()
    }
}
