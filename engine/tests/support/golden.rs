//! What the golden tests share: the scripts under `engine/tests/golden`, their output with the
//! drawn identifiers replaced by placeholders, and the first difference from the expected file.
//! Included by the engine's `tests/golden.rs` (a bare engine) and the sim's
//! `tests/golden_world.rs` (`sqs-sim run`'s driver, the World).
//!
//! The identifiers the engine draws from its seed (MessageId, ReceiptHandle, TaskHandle) are
//! written as `<MessageId 1>`, `<ReceiptHandle 2>`, ... numbered in order of first appearance,
//! wherever they occur (an error message quoting a handle, a dedup id equal to a MessageId). The
//! files stay readable and keep checking identity (a new handle per receive, the original
//! MessageId for a duplicate) while the engine is free to change how it draws them.

use serde_json::Value;
use sqs_engine::script::{run, Driver, Line, ScriptFile};
use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// Members whose values the engine draws from its seed.
const DRAWN: [&str; 3] = ["MessageId", "ReceiptHandle", "TaskHandle"];

/// The golden scripts, sorted by name.
pub fn scenarios() -> Vec<PathBuf> {
    // From the engine or the sim crate: both are beside `engine/`.
    let dir = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../engine/tests/golden"
    ));
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
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

/// A golden script: its name, the script and the expected output's path.
pub fn read(file: &Path) -> (String, ScriptFile, PathBuf) {
    let name = file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let text = fs::read_to_string(file).unwrap_or_else(|e| panic!("{name}: {e}"));
    let script = ScriptFile::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    (name.to_string(), script, file.with_extension("out.jsonl"))
}

/// The script's output through `driver` with placeholders, or why it has none.
pub fn output<D: Driver>(driver: &mut D, script: &ScriptFile) -> String {
    let mut lines: Vec<Line> = match catch_unwind(AssertUnwindSafe(|| run(driver, script))) {
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
pub fn first_difference(expected: &str, actual: &str) -> Option<String> {
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
