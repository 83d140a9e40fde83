//! The world that starts from an engine's state: see [`crate::resume`].

use super::World;
use crate::narration::EVENT_BUFFER;
use crate::scenario::Scenario;
use sqs_engine::Engine;

impl World {
    /// A world whose engine is `engine` (its state and its time), on `seed`, with nothing else
    /// yet: see the module documentation.
    pub fn resume(seed: u64, engine: Engine) -> World {
        let at = engine.now();
        let mut world = World::with_engine(seed, engine);
        // As `World::new` sets it: the world narrates the events SQS implies too.
        world.engine.record_implied_events(true);
        world.metrics.start_at(at);
        // The stored messages are named from the engine (their bodies), as after a lapse.
        world.narration.labels_mut().lapse();
        world.set_event_buffer(EVENT_BUFFER);
        // A server whose clients called in another region than its own: their queues show.
        if let Some(first) = world.engine.namespaces().first() {
            world.follow(first);
        }
        world
    }

    /// The world `scenario` starts from, before its steps: its `start` state, or an empty
    /// engine on its seed.
    pub(crate) fn start(scenario: &Scenario) -> World {
        match &scenario.start {
            Some(start) => World::resume(scenario.seed, start.engine().clone()),
            None => World::new(scenario.seed),
        }
    }
}
