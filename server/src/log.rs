//! The request log: one line per call through `tracing` (on stderr: stdout carries the
//! `listening on` line that scripts read). A thread of its own writes the lines
//! (`tracing_appender::non_blocking`), so that a call does not wait for the terminal or the file.

use std::io::IsTerminal;
use tracing_appender::non_blocking::WorkerGuard;
use tracing_subscriber::EnvFilter;

/// The levels `--log-level` takes.
const LEVELS: [&str; 5] = ["error", "warn", "info", "debug", "trace"];

/// Starts the log at `level`, or as `RUST_LOG` says when it is set. The log lasts as long as
/// the guard answered (dropped, it writes what is left).
pub fn init(level: &str) -> Result<WorkerGuard, String> {
    if !LEVELS.contains(&level) {
        return Err(format!(
            "--log-level: one of {}, not {level:?}",
            LEVELS.join(", ")
        ));
    }
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(level));
    let (writer, guard) = tracing_appender::non_blocking(std::io::stderr());
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init()
        .map_err(|e| format!("the log: {e}"))?;
    Ok(guard)
}
