//! A session: what it takes to rebuild a playground exactly — the scenario it started from, every
//! user action with its virtual time, and where the playhead stood. The seed lives in the
//! scenario, so replay is deterministic.

use serde::{Deserialize, Serialize};
use sqs_engine::Millis;
use sqs_sim::{LoggedStep, Scenario, World};

/// Where the session's scenario comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ScenarioSource {
    /// A library scenario, by id (short links).
    Library(String),
    /// A whole scenario (an imported file, or one not in this build's library).
    Inline(Scenario),
}

/// Everything a link or a session file carries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// The starting point.
    pub scenario: ScenarioSource,
    /// The user's actions after the scenario loaded, in time order.
    #[serde(default)]
    pub actions: Vec<LoggedStep>,
    /// The virtual time shown.
    #[serde(default)]
    pub playhead: Millis,
    /// Playback speed (1 to 1000).
    #[serde(default = "default_speed")]
    pub speed: f64,
}

fn default_speed() -> f64 {
    1.0
}

impl Session {
    /// The scenario itself, looking library ids up with `library`.
    pub fn resolve(&self, library: impl Fn(&str) -> Option<Scenario>) -> Result<Scenario, String> {
        match &self.scenario {
            ScenarioSource::Library(id) => library(id)
                .ok_or_else(|| format!("There is no scenario named {id:?} in the library.")),
            ScenarioSource::Inline(s) => Ok(s.clone()),
        }
    }

    /// Rebuilds the world at the playhead by deterministic replay. A bad action is an error
    /// naming it, and nothing is built.
    pub fn rebuild(&self, library: impl Fn(&str) -> Option<Scenario>) -> Result<World, String> {
        World::replay(&self.resolve(library)?, &self.actions, self.playhead)
    }
}
