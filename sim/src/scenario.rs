//! Scenario files: the `sqs-sim run` format plus the simulation's steps and a library entry's
//! metadata (title, narrative, what to watch, checked outcomes). The library lives in
//! `scenarios/<id>.json` at the repository root and is compiled into the app.

use serde::{Deserialize, Serialize};

/// A scenario file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// The file name without `.json` (e.g. `crash-before-delete`).
    #[serde(default)]
    pub id: String,
    /// Short title.
    #[serde(default)]
    pub title: String,
    /// A few sentences told to the audience.
    #[serde(default)]
    pub narrative: String,
    /// What to watch for, in order.
    #[serde(default)]
    pub watch: Vec<String>,
    /// The seed.
    #[serde(default)]
    pub seed: u64,
    /// Steps: `call`, `advance`, `await` (as `sqs-sim run`) and `sim` steps.
    pub steps: Vec<serde_json::Value>,
    /// Checked outcomes (summary fields and their expected values).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<serde_json::Value>,
}
