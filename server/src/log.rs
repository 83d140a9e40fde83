//! The request log: one line per call through `tracing` (on stderr: stdout carries the
//! `listening on` line that scripts read).

use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

/// The levels `--log-level` takes.
const LEVELS: [&str; 5] = ["error", "warn", "info", "debug", "trace"];

/// Starts the log at `level`, or as `RUST_LOG` says when it is set.
pub fn init(level: &str) -> Result<(), String> {
    if !LEVELS.contains(&level) {
        return Err(format!(
            "--log-level: one of {}, not {level:?}",
            LEVELS.join(", ")
        ));
    }
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(level));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init()
        .map_err(|e| format!("the log: {e}"))
}
