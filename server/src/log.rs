//! The request log: one line per call through `tracing` (on stderr: stdout carries the
//! `listening on` line that scripts read). A thread of its own writes the lines
//! (`tracing_appender::non_blocking`), so that a call does not wait for the terminal or the file.
//! A call's line is one event written when its answer is ready ([`calls`]), not a span: a span
//! per request costs its fields formatted again at every field recorded later.

use crate::sqs::Called;
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use std::io::IsTerminal;
use std::time::Instant;
use tracing::Level;
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

/// The middleware that logs each request at `info`: method, path, the SQS action and queue when
/// it was an SQS call, status and latency.
pub async fn calls(request: Request, next: Next) -> Response {
    if !tracing::enabled!(Level::INFO) {
        return next.run(request).await;
    }
    let (method, path) = (request.method().clone(), request.uri().path().to_owned());
    let started = Instant::now();
    let response = next.run(request).await;
    let latency_us = started.elapsed().as_micros() as u64;
    let status = response.status().as_u16();
    match response.extensions().get::<Called>() {
        Some(Called { action, queue }) => tracing::info!(
            %method,
            path,
            action,
            queue = queue.as_deref().unwrap_or("-"),
            status,
            latency_us,
            "call"
        ),
        None => tracing::info!(%method, path, status, latency_us, "request"),
    }
    response
}
