//! The world's producers at work: added, removed, and each send on its timer.

use super::{named, World};
use crate::actor::Who;
use crate::timers::Timer;
use crate::worker::ProducerSpec;
use serde_json::Value;

impl World {
    pub(crate) fn add_producer(&mut self, spec: ProducerSpec) -> Result<Value, String> {
        self.producers.check(&spec)?;
        let id = self.fresh_id();
        let result = named("producer", &spec.name);
        self.producers.add(id, spec);
        self.schedule(self.now(), Timer::Produce { producer: id });
        Ok(result.into())
    }

    pub(crate) fn remove_producer(&mut self, name: &str) -> Result<Value, String> {
        let (producer, sent) = self.producers.remove(name)?;
        self.cancel(Timer::Produce { producer });
        let mut result = named("producer", name);
        result.field("sent", &sent);
        Ok(result.into())
    }

    /// A producer's next send.
    pub(crate) fn produce(&mut self, id: u64) {
        let Some(send) = self.producers.next_send(id, &self.engine) else {
            return;
        };
        match send.request {
            Ok(request) => {
                self.call(Who::Producer(id), request);
            }
            Err(text) => {
                let actor = self.actor_of(Who::Producer(id));
                self.say(actor, None, text)
            }
        }
        match send.every {
            Some(every) => self.schedule(self.now() + every, Timer::Produce { producer: id }),
            None => self.producers.finish(id),
        }
    }
}
