//! The request log: one line per call through `tracing`, on stderr (stdout carries the
//! `listening on` line that scripts read).
//!
//! The line is our own format (`Line`, `Fields`): UTC time to the millisecond (the date and
//! second formatted once a second), level, message, then `name=value` fields, a value quoted only
//! when it is empty or holds a space, a quote, an `=` or a character beyond ASCII, control
//! characters escaped so that a call is one line. tracing-subscriber's own format also writes
//! each event's target and quotes every string, which costs a call more than its answer's JSON.
//!
//! Calls do not write to stderr themselves, so that none waits for the terminal or the pipe: a
//! call appends its line to a buffer (`Pending`) and the log's thread writes the buffer out, in
//! one write, `INTERVAL` after the first line of a batch arrived. Why not the usual
//! `tracing_appender::non_blocking`: its thread waits on its channel whenever the channel is
//! empty, so that under load nearly every line wakes it (a call of the kernel for the sender, a
//! write for each line or two, tokio-rs/tracing#3446), which costs a call about as much CPU as
//! the rest of its logging. No line is dropped: a call that finds `MAX_PENDING` bytes waiting
//! waits for the thread.
//!
//! A call's line is one event written when its answer is ready ([`CallsLayer`]), not a span: a
//! span per request costs its fields formatted again at every field recorded later.

use crate::sqs::Called;
use axum::http::{Method, Request, Uri};
use axum::response::Response;
use pin_project_lite::pin_project;
use std::cell::RefCell;
use std::fmt::{self, Write as _};
use std::future::Future;
use std::io::Write;
use std::pin::Pin;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::task::{ready, Context, Poll};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};
use tower::{Layer, Service};
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::field::RecordFields;
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::EnvFilter;

/// The levels `--log-level` takes.
const LEVELS: [&str; 5] = ["error", "warn", "info", "debug", "trace"];

/// How long a line waits for others to be written with it.
const INTERVAL: Duration = Duration::from_millis(10);

/// The most bytes of lines that wait for the log's thread: a call that finds this many waits
/// until the thread has taken them (the terminal or the pipe is behind).
const MAX_PENDING: usize = 1 << 20;

/// Starts the log at `level`, or as `RUST_LOG` says when it is set. The log lasts as long as
/// the guard answered (dropped, it writes what is left).
pub fn init(level: &str) -> Result<Guard, String> {
    if !LEVELS.contains(&level) {
        return Err(format!(
            "--log-level: one of {}, not {level:?}",
            LEVELS.join(", ")
        ));
    }
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(level));
    let (pending, guard) = Pending::start(std::io::stderr(), INTERVAL);
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .event_format(Line)
        .fmt_fields(Fields)
        .with_writer(pending)
        .try_init()
        .map_err(|e| format!("the log: {e}"))?;
    Ok(guard)
}

/// The log's line: time, level, message and fields
/// (`2026-12-06T10:44:36.194Z  INFO call method=POST path=/ action=CreateQueue …`).
struct Line;

impl<S, N> FormatEvent<S, N> for Line
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        write_now(&mut writer)?;
        writer.write_str(match *event.metadata().level() {
            Level::ERROR => " ERROR ",
            Level::WARN => "  WARN ",
            Level::INFO => "  INFO ",
            Level::DEBUG => " DEBUG ",
            Level::TRACE => " TRACE ",
        })?;
        ctx.field_format().format_fields(writer.by_ref(), event)?;
        writeln!(writer)
    }
}

thread_local! {
    /// The last second a line was written in, and its text (`2026-12-06T10:44:36`).
    static SECOND: RefCell<(u64, String)> = const { RefCell::new((u64::MAX, String::new())) };
}

/// The time now, UTC, to the millisecond.
fn write_now(writer: &mut Writer<'_>) -> fmt::Result {
    let now = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    SECOND.with_borrow_mut(|(second, text)| {
        if *second != now.as_secs() {
            let t = i64::try_from(now.as_secs())
                .ok()
                .and_then(|s| time::OffsetDateTime::from_unix_timestamp(s).ok())
                .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
            *second = now.as_secs();
            text.clear();
            write!(
                text,
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
                t.year(),
                u8::from(t.month()),
                t.day(),
                t.hour(),
                t.minute(),
                t.second()
            )?;
        }
        let millis = now.subsec_millis();
        let digits =
            [millis / 100, millis / 10 % 10, millis % 10].map(|d| char::from(b'0' + d as u8));
        writer.write_str(text)?;
        writer.write_char('.')?;
        for digit in digits {
            writer.write_char(digit)?;
        }
        writer.write_char('Z')
    })
}

/// An event's fields: the message as it is, the others as `name=value` ([`Visitor`]).
struct Fields;

impl<'w> FormatFields<'w> for Fields {
    fn format_fields<R: RecordFields>(&self, writer: Writer<'w>, fields: R) -> fmt::Result {
        let mut visitor = Visitor {
            writer,
            result: Ok(()),
            first: true,
        };
        fields.record(&mut visitor);
        visitor.result
    }
}

/// Writes the fields it visits, separated by spaces.
struct Visitor<'w> {
    writer: Writer<'w>,
    result: fmt::Result,
    first: bool,
}

impl Visitor<'_> {
    /// Writes one field with `write`, after the separator: `name=` unless it is the message.
    fn field(&mut self, field: &Field, write: impl FnOnce(&mut Writer<'_>) -> fmt::Result) {
        if self.result.is_err() {
            return;
        }
        let separator = if self.first { "" } else { " " };
        self.first = false;
        let name = field.name();
        self.result = self.writer.write_str(separator).and_then(|()| {
            if name != "message" {
                self.writer.write_str(name)?;
                self.writer.write_char('=')?;
            }
            write(&mut self.writer)
        });
    }
}

impl Visit for Visitor<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        let plain = !value.is_empty()
            && value
                .bytes()
                .all(|b| b.is_ascii_graphic() && b != b'"' && b != b'=');
        if plain {
            self.field(field, |writer| writer.write_str(value));
        } else if field.name() == "message" {
            self.field(field, |writer| Escaped(writer).write_str(value));
        } else {
            self.field(field, |writer| write!(Escaped(writer), "{value:?}"));
        }
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.field(field, |writer| {
            writer.write_str(itoa::Buffer::new().format(value))
        });
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.field(field, |writer| {
            writer.write_str(itoa::Buffer::new().format(value))
        });
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.field(field, |writer| write!(writer, "{value}"));
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.field(field, |writer| write!(Escaped(writer), "{value:?}"));
    }
}

/// A writer that escapes control characters (a line break, a terminal's escape sequences).
struct Escaped<'a, 'w>(&'a mut Writer<'w>);

impl fmt::Write for Escaped<'_, '_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        // Printable ASCII, the usual case, is written as it is.
        if text.bytes().all(|b| matches!(b, b' '..=b'~')) {
            return self.0.write_str(text);
        }
        for c in text.chars() {
            if c.is_control() {
                write!(self.0, "{}", c.escape_default())?;
            } else {
                self.0.write_char(c)?;
            }
        }
        Ok(())
    }
}

/// The lines logged and not yet written: calls append theirs (`Write for &Pending`), the log's
/// thread takes them all at once and writes them.
struct Pending {
    lines: Mutex<Lines>,
    /// Told when a line arrives in an empty buffer, and when the log closes.
    arrived: Condvar,
    /// Told when the log's thread has taken the lines.
    taken: Condvar,
}

#[derive(Default)]
struct Lines {
    bytes: Vec<u8>,
    closed: bool,
}

impl Pending {
    /// The writer the log's lines go to, and the guard of the thread that writes them to `out`,
    /// `interval` after the first line of each batch.
    fn start(out: impl Write + Send + 'static, interval: Duration) -> (Arc<Pending>, Guard) {
        let pending = Arc::new(Pending {
            lines: Mutex::default(),
            arrived: Condvar::new(),
            taken: Condvar::new(),
        });
        let writing = pending.clone();
        let thread = std::thread::Builder::new()
            .name("sqs-sim-log".into())
            .spawn(move || writing.write_out(out, interval))
            .expect("the log's thread");
        let guard = Guard {
            pending: pending.clone(),
            thread: Some(thread),
        };
        (pending, guard)
    }

    /// The log's thread: writes the lines in batches until the log closes.
    fn write_out(&self, mut out: impl Write, interval: Duration) {
        let mut batch = Vec::new();
        loop {
            let mut lines = self.lock();
            while lines.bytes.is_empty() && !lines.closed {
                lines = self.arrived.wait(lines).unwrap_or_else(|e| e.into_inner());
            }
            let closed = lines.closed;
            drop(lines);
            if !closed {
                std::thread::sleep(interval);
            }
            std::mem::swap(&mut self.lock().bytes, &mut batch);
            self.taken.notify_all();
            // Nowhere to tell that stderr cannot be written: those lines are lost.
            let _ = out.write_all(&batch).and_then(|()| out.flush());
            batch.clear();
            if closed {
                return;
            }
        }
    }

    fn lock(&self) -> MutexGuard<'_, Lines> {
        self.lines.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Write for &Pending {
    fn write(&mut self, line: &[u8]) -> std::io::Result<usize> {
        let mut lines = self.lock();
        while lines.bytes.len() >= MAX_PENDING && !lines.closed {
            lines = self.taken.wait(lines).unwrap_or_else(|e| e.into_inner());
        }
        if lines.bytes.is_empty() {
            self.arrived.notify_one();
        }
        lines.bytes.extend_from_slice(line);
        Ok(line.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Keeps the log's thread: dropped, it writes the lines still pending and stops the thread.
pub struct Guard {
    pending: Arc<Pending>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Guard {
    fn drop(&mut self) {
        self.pending.lock().closed = true;
        self.pending.arrived.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
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
                method = method.as_str(),
                path,
                action,
                queue = queue.as_deref().unwrap_or("-"),
                status,
                latency_us,
                "call"
            ),
            None => tracing::info!(
                method = method.as_str(),
                path,
                status,
                latency_us,
                "request"
            ),
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

#[cfg(test)]
mod tests {
    use super::*;
    use tracing_subscriber::fmt::MakeWriter;

    /// A writer whose bytes a test reads.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Captured {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    impl<'a> MakeWriter<'a> for Captured {
        type Writer = Captured;

        fn make_writer(&'a self) -> Captured {
            self.clone()
        }
    }

    /// The lines `log` writes in our format.
    fn lines_of(log: impl FnOnce()) -> String {
        let out = Captured::default();
        let subscriber = tracing_subscriber::fmt()
            .event_format(Line)
            .fmt_fields(Fields)
            .with_writer(out.clone())
            .finish();
        tracing::subscriber::with_default(subscriber, log);
        out.text()
    }

    #[test]
    fn a_line_is_time_level_message_and_fields_quoted_only_when_needed() {
        let text = lines_of(|| {
            tracing::info!(
                method = %Method::POST,
                action = "SendMessage",
                queue = "a queue",
                path = "",
                status = 200u16,
                "call"
            )
        });
        let line = text.strip_suffix('\n').unwrap();
        let (time, rest) = line.split_once(' ').unwrap();
        assert_eq!(time.len(), "2026-12-06T10:44:36.194Z".len(), "{line}");
        assert!(time.ends_with('Z') && time.as_bytes()[10] == b'T', "{line}");
        assert_eq!(
            rest,
            r#" INFO call method=POST action=SendMessage queue="a queue" path="" status=200"#
        );
    }

    #[test]
    fn control_characters_stay_on_the_line() {
        let text =
            lines_of(|| tracing::warn!(queue = "q\nfake line", "refused {}", "\u{1b}[31mred"));
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(!text.contains('\u{1b}'), "{text}");
        let expected = r#" WARN refused \u{1b}[31mred queue="q\nfake line""#;
        assert!(text.trim_end().ends_with(expected), "{text}");
    }

    #[test]
    fn the_thread_writes_every_line_in_order_and_the_rest_when_dropped() {
        let out = Captured::default();
        let (pending, guard) = Pending::start(out.clone(), Duration::from_millis(1));
        let writers: Vec<_> = (0..4)
            .map(|writer| {
                let pending = pending.clone();
                std::thread::spawn(move || {
                    for n in 0..2000 {
                        let line = format!("{writer} {n}\n");
                        (&*pending).write_all(line.as_bytes()).unwrap();
                    }
                })
            })
            .collect();
        for writer in writers {
            writer.join().unwrap();
        }
        drop(guard);
        let text = out.text();
        assert_eq!(text.lines().count(), 8000);
        for writer in 0..4 {
            let numbers: Vec<usize> = text
                .lines()
                .filter_map(|l| l.strip_prefix(&format!("{writer} ")))
                .map(|n| n.parse().unwrap())
                .collect();
            assert_eq!(numbers, (0..2000).collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_line_waits_no_longer_than_the_interval() {
        let out = Captured::default();
        let (pending, _guard) = Pending::start(out.clone(), Duration::from_millis(10));
        (&*pending).write_all(b"one\n").unwrap();
        let started = Instant::now();
        while out.text().is_empty() {
            assert!(started.elapsed() < Duration::from_secs(5), "never written");
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(out.text(), "one\n");
    }
}
