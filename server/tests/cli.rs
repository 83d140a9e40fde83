//! The `sqs-sim` command's scenario runner: the binary runs a scenario file to its summary line.

#[test]
fn the_sqs_sim_binary_runs_a_scenario_file_and_ends_with_the_summary_line() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/r-022.json");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_sqs-sim"))
        .args(["run", file])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    let last: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    let summary = &last["summary"];
    for key in [
        "sent",
        "deliveries",
        "redeliveries",
        "deleted",
        "dead_lettered",
        "effects",
        "duplicate_effects",
        "prevented_effects",
        "api_calls",
        "by_state",
    ] {
        assert!(summary.get(key).is_some(), "summary lacks {key}: {summary}");
    }
    assert_eq!(summary["duplicate_effects"], 2);
}
