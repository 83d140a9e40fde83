//! Golden scenarios: every `tests/golden/*.json` script runs against a fresh engine and its output
//! must equal `tests/golden/<name>.out.jsonl` line by line.
//!
//! Each file names in a top-level `"rule"` the SQS rule it checks, with the source tag of the
//! semantics reference (`shared/reference/sqs-semantics.md`). The expected files state what the
//! reference says, not what the engine happens to print: `UPDATE_GOLDEN=1 cargo test -p
//! sqs-engine --test golden` rewrites them all (`UPDATE_GOLDEN=<part of a file name>` only the
//! matching ones); read every rewritten file against the reference before keeping it.
//!
//! The identifiers the engine draws from its seed (MessageId, ReceiptHandle, TaskHandle) are
//! written as `<MessageId 1>`, `<ReceiptHandle 2>`, ... numbered in order of first appearance,
//! wherever they occur (an error message quoting a handle, a dedup id equal to a MessageId). The
//! files stay readable and keep checking identity (a new handle per receive, the original
//! MessageId for a duplicate) while the engine is free to change how it draws them.

use serde_json::Value;
use sqs_engine::script::{run, Line, ScriptFile};
use sqs_engine::Engine;
use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// The scenario library must stay at least this large.
const MIN_SCENARIOS: usize = 45;

/// Members whose values the engine draws from its seed.
const DRAWN: [&str; 3] = ["MessageId", "ReceiptHandle", "TaskHandle"];

fn scenarios() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    files
}

/// Placeholders for the drawn identifiers, in order of first appearance.
#[derive(Default)]
struct Placeholders {
    names: Vec<(String, String)>,
}

impl Placeholders {
    /// Walks `value` in sorted key order (independent of serde_json's map order).
    fn collect(&mut self, value: &Value) {
        match value {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                for key in keys {
                    match &map[key] {
                        Value::String(drawn) if DRAWN.contains(&key.as_str()) => {
                            if !self.names.iter().any(|(raw, _)| raw == drawn) {
                                let n = 1 + self
                                    .names
                                    .iter()
                                    .filter(|(_, p)| p.starts_with(&format!("<{key} ")))
                                    .count();
                                self.names.push((drawn.clone(), format!("<{key} {n}>")));
                            }
                        }
                        other => self.collect(other),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|item| self.collect(item)),
            _ => {}
        }
    }

    fn replace(&self, value: &mut Value) {
        match value {
            Value::String(text) => {
                for (raw, placeholder) in &self.names {
                    if text.contains(raw.as_str()) {
                        *text = text.replace(raw.as_str(), placeholder);
                    }
                }
            }
            Value::Object(map) => map.values_mut().for_each(|item| self.replace(item)),
            Value::Array(items) => items.iter_mut().for_each(|item| self.replace(item)),
            _ => {}
        }
    }
}

/// The script's output with placeholders, or why it has none.
fn output(script: &ScriptFile) -> String {
    let mut engine = Engine::new(script.seed);
    let mut lines: Vec<Line> = match catch_unwind(AssertUnwindSafe(|| run(&mut engine, script))) {
        Ok(Ok(lines)) => lines,
        Ok(Err(error)) => return format!("script error: {error}\n"),
        Err(_) => return "the engine panicked\n".to_string(),
    };
    let mut placeholders = Placeholders::default();
    for line in &lines {
        line.fields
            .values()
            .for_each(|value| placeholders.collect(value));
    }
    for line in &mut lines {
        line.fields
            .values_mut()
            .for_each(|value| placeholders.replace(value));
    }
    lines.iter().map(|line| format!("{line}\n")).collect()
}

/// Where two outputs first differ.
fn first_difference(expected: &str, actual: &str) -> Option<String> {
    let expected: Vec<&str> = expected.lines().collect();
    let actual: Vec<&str> = actual.lines().collect();
    (0..expected.len().max(actual.len())).find_map(|i| {
        let (e, a) = (expected.get(i), actual.get(i));
        (e != a).then(|| {
            format!(
                "line {}:\n  expected: {}\n  actual:   {}",
                i + 1,
                e.unwrap_or(&"(no line)"),
                a.unwrap_or(&"(no line)")
            )
        })
    })
}

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
        let name = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let text = fs::read_to_string(file).unwrap_or_else(|e| panic!("{name}: {e}"));
        let script = ScriptFile::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let rule = script.meta.get("rule").and_then(|rule| rule.as_str());
        assert!(
            rule.is_some_and(|rule| rule.contains('§') && rule.contains('[')),
            "{name}: needs a \"rule\" naming the reference section (§) and its source tag ([...])"
        );
        let actual = output(&script);
        let expected_path = file.with_extension("out.jsonl");
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
