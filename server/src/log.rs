//! The request log: one line per call through `tracing` (on stderr: stdout carries the
//! `listening on` line that scripts read). A thread of its own writes the lines
//! (`tracing_appender::non_blocking`), so that a call does not wait for the terminal or the file,
//! in batches (its writer, `Batches`, pauses between them).
//! A call's line is one event written when its answer is ready ([`CallsLayer`]), not a span: a span
//! per request costs its fields formatted again at every field recorded later.

use crate::sqs::Called;
use axum::http::{Method, Request, Uri};
use axum::response::Response;
use pin_project_lite::pin_project;
use std::future::Future;
use std::io::{BufWriter, IsTerminal, Stderr, Write};
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use std::time::{Duration, Instant};
use tower::{Layer, Service};
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
    let (writer, guard) = tracing_appender::non_blocking(Batches::default());
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init()
        .map_err(|e| format!("the log: {e}"))?;
    Ok(guard)
}

/// How long the log's thread waits after writing a batch of lines before it takes the next.
const PAUSE: Duration = Duration::from_millis(10);

/// What the log's thread writes to: stderr through a buffer, written out when the thread's queue
/// runs dry (tracing-appender flushes then). The thread then waits [`PAUSE`] before it takes
/// more, so that under load a call's line joins the queue of a thread that is not asleep: without
/// the pause, the thread empties its queue and sleeps after nearly every line, and each call pays
/// for waking it. A line is on stderr at most [`PAUSE`] after it is logged.
struct Batches {
    stderr: BufWriter<Stderr>,
}

impl Default for Batches {
    fn default() -> Self {
        Batches {
            stderr: BufWriter::new(std::io::stderr()),
        }
    }
}

impl Write for Batches {
    fn write(&mut self, line: &[u8]) -> std::io::Result<usize> {
        self.stderr.write(line)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.stderr.flush()?;
        std::thread::sleep(PAUSE);
        Ok(())
    }
}

/// The request log as a tower layer around the whole service ([`crate::serve::service`]): each
/// request's line at `info` (method, path, the SQS action and queue when it was an SQS call,
/// status and latency), written when its answer is ready.
#[derive(Clone, Copy, Debug, Default)]
pub struct CallsLayer;

impl<S> Layer<S> for CallsLayer {
    type Service = Calls<S>;

    fn layer(&self, inner: S) -> Calls<S> {
        Calls { inner }
    }
}

/// A service whose requests are logged ([`CallsLayer`]).
#[derive(Clone, Debug)]
pub struct Calls<S> {
    inner: S,
}

impl<S, B> Service<Request<B>> for Calls<S>
where
    S: Service<Request<B>, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = CallFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let call = tracing::enabled!(Level::INFO).then(|| Call {
            method: request.method().clone(),
            uri: request.uri().clone(),
            started: Instant::now(),
        });
        CallFuture {
            inner: self.inner.call(request),
            call,
        }
    }
}

/// What a request's line says before its answer is ready.
#[derive(Debug)]
struct Call {
    method: Method,
    uri: Uri,
    started: Instant,
}

impl Call {
    /// Writes the line of the call `response` answers.
    fn log(self, response: &Response) {
        let Call {
            method,
            uri,
            started,
        } = self;
        let (path, latency_us) = (uri.path(), started.elapsed().as_micros() as u64);
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
    }
}

pin_project! {
    /// A logged request's answer ([`Calls`]).
    pub struct CallFuture<F> {
        #[pin]
        inner: F,
        call: Option<Call>,
    }
}

impl<F, E> Future for CallFuture<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let result = ready!(this.inner.poll(cx));
        if let (Ok(response), Some(call)) = (&result, this.call.take()) {
            call.log(response);
        }
        Poll::Ready(result)
    }
}
