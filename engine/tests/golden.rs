//! Golden scenarios: every `tests/golden/*.json` script runs against a fresh engine and its output
//! must equal `tests/golden/<name>.out.jsonl` line by line.
//!
//! Each file names in a top-level `"rule"` the SQS rule it checks, with the source tag of the
//! semantics reference (`shared/reference/sqs-semantics.md`). The expected files state what the
//! reference says, not what the engine happens to print: `UPDATE_GOLDEN=1 cargo test -p
//! sqs-engine --test golden` rewrites them all (`UPDATE_GOLDEN=<part of a file name>` only the
//! matching ones); read every rewritten file against the reference before keeping it.
//!
//! Drawn identifiers (MessageId, ReceiptHandle, TaskHandle) appear as numbered placeholders: see
//! `support/golden.rs`.

#[path = "support/golden.rs"]
mod support;

use sqs_engine::Engine;
use std::fs;
use support::{first_difference, output, read, scenarios};

/// The scenario library must stay at least this large.
const MIN_SCENARIOS: usize = 45;

#[test]
fn golden_scenarios() {
    let files = scenarios();
    assert!(
        files.len() >= MIN_SCENARIOS,
        "{} golden scenarios, want at least {MIN_SCENARIOS}",
        files.len()
    );
    let update = std::env::var("UPDATE_GOLDEN").ok();
    let mut failures = Vec::new();
    for file in &files {
        let (name, script, expected_path) = read(file);
        let rule = script.meta.get("rule").and_then(|rule| rule.as_str());
        assert!(
            rule.is_some_and(|rule| rule.contains('§') && rule.contains('[')),
            "{name}: needs a \"rule\" naming the reference section (§) and its source tag ([...])"
        );
        let actual = output(&mut Engine::new(script.seed), &script);
        if update
            .as_deref()
            .is_some_and(|u| u == "1" || name.contains(u))
        {
            fs::write(&expected_path, &actual).unwrap_or_else(|e| panic!("{name}: {e}"));
            continue;
        }
        let expected = fs::read_to_string(&expected_path).unwrap_or_default();
        if let Some(difference) = first_difference(&expected, &actual) {
            failures.push(format!(
                "{name}: {}\n  {difference}",
                rule.unwrap_or_default()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} golden scenarios differ:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}
