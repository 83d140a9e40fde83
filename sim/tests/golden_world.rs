//! `sqs-sim run` reproduces the golden files: the binary drives a World, not a bare engine, so
//! every `engine/tests/golden/*.json` script runs here through a World and must print exactly
//! its expected `.out.jsonl` (a script without `sim` steps has no summary line).

#[path = "../../engine/tests/support/golden.rs"]
mod support;

use sqs_sim::World;
use std::fs;
use support::{first_difference, output, read, scenarios};

#[test]
fn sqs_sim_run_prints_every_golden_file() {
    let files = scenarios();
    assert!(!files.is_empty(), "no golden files found");
    let mut failures = Vec::new();
    for file in &files {
        let (name, script, expected_path) = read(file);
        let expected = fs::read_to_string(&expected_path).unwrap_or_default();
        let actual = output(&mut World::new(script.seed), &script);
        if let Some(difference) = first_difference(&expected, &actual) {
            failures.push(format!("{name}: {difference}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} golden scenarios differ when run through a World:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}
