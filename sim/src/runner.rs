//! The scenario runner: a [`Scenario`] (plain data) loaded into a [`World`], run to its end,
//! and its checked outcomes (`expect`) compared with what the world did.

use crate::scenario::Scenario;
use crate::world::World;
use serde_json::{json, Value};

impl Scenario {
    /// Loads the scenario and runs it to its end.
    pub fn run(&self) -> Result<World, String> {
        let mut world = World::load(self)?;
        world.advance_to(self.duration());
        Ok(world)
    }

    /// The checked outcomes `world` misses, in words (empty: all met).
    pub fn check(&self, world: &World) -> Vec<String> {
        let mut misses = Vec::new();
        let Some(expect) = &self.expect else {
            return misses;
        };
        let summary = serde_json::to_value(world.summary()).unwrap_or_default();
        if let Some(expected) = expect.get("summary") {
            subset(expected, &summary, "summary", &mut misses);
        }
        for (name, expected) in members(expect.get("performed")) {
            let actual = json!(world.ledger().performed_named(name));
            subset(
                expected,
                &actual,
                &format!("performed \"{name}\""),
                &mut misses,
            );
        }
        for (queue, expected) in members(expect.get("queues")) {
            let actual = serde_json::to_value(world.queue_depth(queue)).unwrap_or_default();
            subset(expected, &actual, &format!("queue {queue}"), &mut misses);
        }
        let workers = world.workers();
        for (name, expected) in members(expect.get("workers")) {
            match workers.iter().find(|w| &w.name == name) {
                Some(view) => {
                    let actual = serde_json::to_value(view).unwrap_or_default();
                    subset(expected, &actual, &format!("worker {name}"), &mut misses);
                }
                None => misses.push(format!("worker {name}: there is no such worker")),
            }
        }
        misses
    }
}

fn members(value: Option<&Value>) -> impl Iterator<Item = (&String, &Value)> {
    value.and_then(Value::as_object).into_iter().flatten()
}

/// Records where `actual` differs from `expected` (objects: only the members `expected` has).
fn subset(expected: &Value, actual: &Value, path: &str, misses: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(want), _) => {
            for (key, value) in want {
                let got = actual.get(key).unwrap_or(&Value::Null);
                subset(value, got, &format!("{path}.{key}"), misses);
            }
        }
        (Value::Number(a), Value::Number(b))
            if (a.as_f64().unwrap_or(f64::NAN) - b.as_f64().unwrap_or(f64::NAN)).abs() < 1e-9 => {}
        _ if expected == actual => {}
        _ => misses.push(format!("{path}: expected {expected}, got {actual}")),
    }
}
