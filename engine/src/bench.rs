//! The lifecycle benchmark behind `sqs-sim bench`, shared by the native and the wasm build.
//!
//! One *lifecycle* is one message sent, received and deleted through [`Engine::call`] with typed
//! requests, as a worker would do it. One message in ten is not deleted after its first receive:
//! its visibility timeout (30 s) runs out, the clock jumps past it, and the message is received a
//! second time and then deleted. Messages go in rounds of [`ROUND`] (so the virtual clock stays
//! well inside the 4-day retention period even for millions of messages).
//!
//! Two [`Batching`] modes: [`Batching::Single`] sends, receives (MaxNumberOfMessages 1) and
//! deletes one message per call; [`Batching::Ten`] uses SendMessageBatch, ReceiveMessage with
//! MaxNumberOfMessages 10 and DeleteMessageBatch, as a real high-throughput worker does.
//!
//! The engine crate never reads a clock: [`measure`] takes the caller's clock as a closure.

use crate::api::{
    Body, CreateQueueInput, DeleteMessageBatchEntry, DeleteMessageBatchInput, DeleteMessageInput,
    Message, QueueUrl, ReceiveMessageInput, ReceiveMessageOutput, SendMessageBatchEntry,
    SendMessageBatchInput, SendMessageInput,
};
use crate::{Engine, Event, Reply, Request, Response};
use std::fmt;

/// Messages per round: sent, received and (mostly) deleted before the clock jumps 30 s.
pub const ROUND: u64 = 1000;

/// The queue's visibility timeout in seconds.
const VISIBILITY_TIMEOUT: u64 = 30;

/// How many messages each call handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Batching {
    /// One message per call.
    Single,
    /// Up to ten messages per call (SendMessageBatch, receive 10, DeleteMessageBatch).
    Ten,
}

impl Batching {
    fn size(self) -> usize {
        match self {
            Batching::Single => 1,
            Batching::Ten => 10,
        }
    }
}

impl fmt::Display for Batching {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Batching::Single => "single",
            Batching::Ten => "batch10",
        })
    }
}

/// What one run did (the same for every run with the same arguments).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LifecycleCounts {
    /// Messages sent, received and deleted.
    pub lifecycles: u64,
    /// Messages received a second time after their visibility timeout ran out.
    pub redeliveries: u64,
    /// SQS calls made.
    pub calls: u64,
}

/// Runs `n` lifecycles on a fresh engine. Panics if the engine loses or duplicates a message
/// (the benchmark doubles as a smoke test).
pub fn run_lifecycles(n: u64, seed: u64, batching: Batching) -> LifecycleCounts {
    let mut bench = Bench::new(seed);
    let mut sent = 0;
    while sent < n {
        let round = ROUND.min(n - sent);
        bench.send(sent, round, batching);
        sent += round;
        let mut first = 0;
        let mut kept = 0;
        while first < round {
            let messages = bench.receive(batching);
            assert!(!messages.is_empty(), "the engine lost visible messages");
            let (received, mut position) = (messages.len(), first);
            first += received as u64;
            let mut messages = messages;
            messages.retain(|_| {
                position += 1;
                position % 10 != 0
            });
            kept += received - messages.len();
            bench.delete(messages, batching);
        }
        let now = bench.engine.now();
        bench.engine.advance_to(now + VISIBILITY_TIMEOUT * 1000);
        bench.hand_on_events();
        let mut again = 0;
        while again < kept {
            let messages = bench.receive(batching);
            assert!(!messages.is_empty(), "an expired message did not come back");
            again += messages.len();
            bench.counts.redeliveries += messages.len() as u64;
            bench.delete(messages, batching);
        }
    }
    assert_eq!(
        bench.counts.lifecycles, n,
        "every message completes one lifecycle"
    );
    bench.counts
}

struct Bench {
    engine: Engine,
    /// Reused for every drain.
    events: Vec<Event>,
    queue_url: QueueUrl,
    counts: LifecycleCounts,
    /// Batch entry Ids, lent to each batch request and taken back from its answer (which
    /// returns them): the driver's own allocations are not what the benchmark measures.
    ids: Vec<String>,
    /// The next message's body text.
    text: Numbered,
}

impl Bench {
    fn new(seed: u64) -> Self {
        let mut engine = Engine::new(seed);
        let create = Request::CreateQueue(CreateQueueInput {
            queue_name: "bench".into(),
            attributes: Some(
                [(
                    "VisibilityTimeout".to_string(),
                    VISIBILITY_TIMEOUT.to_string(),
                )]
                .into(),
            ),
            tags: None,
        });
        let Ok(Response::CreateQueue(out)) = done(engine.call(create)) else {
            panic!("CreateQueue failed");
        };
        Bench {
            engine,
            events: Vec::new(),
            queue_url: out.queue_url,
            counts: LifecycleCounts::default(),
            ids: (0..10)
                .map(|i: u8| char::from(b'0' + i).to_string())
                .collect(),
            text: Numbered::new("message "),
        }
    }

    fn call(&mut self, request: Request) -> Response {
        self.counts.calls += 1;
        // Matched in one go: unwrapping the reply, then the result, moved the answer (up to
        // 150 bytes) once per step.
        let response = match self.engine.call(request) {
            Reply::Done(Ok(response)) => response,
            Reply::Done(Err(e)) => panic!("{e}"),
            Reply::Pending(_) => panic!("{SHORT_POLL_PENDING}"),
        };
        self.hand_on_events();
        response
    }

    /// Drains the events after each call, as the simulation does; a UI would animate them,
    /// the benchmark drops them.
    fn hand_on_events(&mut self) {
        self.engine.drain_events_into(&mut self.events);
        self.events.clear();
    }

    fn send(&mut self, from: u64, count: u64, batching: Batching) {
        let end = from + count;
        for first in (from..end).step_by(batching.size()) {
            let request = match batching {
                Batching::Single => Request::SendMessage(SendMessageInput {
                    queue_url: self.queue_url.clone(),
                    message_body: self.text.next_body(),
                    ..Default::default()
                }),
                Batching::Ten => {
                    let count = end.min(first + 10) - first;
                    let text = &mut self.text;
                    let entries = self
                        .ids
                        .drain(..count as usize)
                        .map(|id| SendMessageBatchEntry {
                            id,
                            message_body: text.next_body(),
                            ..Default::default()
                        })
                        .collect();
                    Request::SendMessageBatch(SendMessageBatchInput {
                        queue_url: self.queue_url.clone(),
                        entries,
                    })
                }
            };
            let mut response = self.call(request);
            if let Response::SendMessageBatch(out) = &mut response {
                assert!(
                    out.failed.is_empty(),
                    "SendMessageBatch failed: {:?}",
                    out.failed
                );
                self.ids.extend(out.successful.drain(..).map(|e| e.id));
            }
            self.engine.recycle(response);
        }
    }

    fn receive(&mut self, batching: Batching) -> Vec<Message> {
        let request = Request::ReceiveMessage(ReceiveMessageInput {
            queue_url: self.queue_url.clone(),
            max_number_of_messages: Some(batching.size() as i64),
            ..Default::default()
        });
        match self.call(request) {
            Response::ReceiveMessage(out) => out.messages.unwrap_or_default(),
            other => panic!("unexpected ReceiveMessage answer {other:?}"),
        }
    }

    /// Deletes the received `messages`, then hands their answer's buffer back to the engine.
    fn delete(&mut self, mut messages: Vec<Message>, batching: Batching) {
        self.counts.lifecycles += messages.len() as u64;
        match batching {
            Batching::Single => {
                for message in messages.drain(..) {
                    let response = self.call(Request::DeleteMessage(DeleteMessageInput {
                        queue_url: self.queue_url.clone(),
                        receipt_handle: message.receipt_handle.into(),
                    }));
                    self.engine.recycle(response);
                }
            }
            Batching::Ten if messages.is_empty() => {}
            Batching::Ten => {
                let count = messages.len();
                // The handles are copied out; the messages are dropped where they lie.
                let entries = messages
                    .iter()
                    .zip(self.ids.drain(..count))
                    .map(|(m, id)| DeleteMessageBatchEntry {
                        id,
                        receipt_handle: m.receipt_handle.into(),
                    })
                    .collect();
                let request = Request::DeleteMessageBatch(DeleteMessageBatchInput {
                    queue_url: self.queue_url.clone(),
                    entries,
                });
                let mut response = self.call(request);
                if let Response::Batch(out) = &mut response {
                    assert!(
                        out.failed.is_empty(),
                        "DeleteMessageBatch failed: {:?}",
                        out.failed
                    );
                    self.ids.extend(out.successful.drain(..).map(|e| e.id));
                }
                self.engine.recycle(response);
            }
        }
        self.engine
            .recycle(Response::ReceiveMessage(ReceiveMessageOutput {
                messages: Some(messages),
            }));
    }
}

/// A prefix and a decimal counter from 0, "message 0", "message 1", …: message `i`'s body is the
/// `i`-th. The counter is counted up in place rather than written out afresh for each body (the
/// driver's own cost is not what the benchmark measures).
struct Numbered {
    text: String,
    /// Where the digits start.
    digits: usize,
}

impl Numbered {
    fn new(prefix: &str) -> Self {
        Numbered {
            text: format!("{prefix}0"),
            digits: prefix.len(),
        }
    }

    /// The current text as a body (one allocation, the shared body); counts up.
    fn next_body(&mut self) -> Body {
        let body = Body::from(self.text.as_str());
        let mut nines = 0;
        while self.text.len() > self.digits && self.text.as_bytes().last() == Some(&b'9') {
            self.text.pop();
            nines += 1;
        }
        if self.text.len() > self.digits {
            let digit = self.text.pop().expect("a digit") as u8;
            self.text.push(char::from(digit + 1));
        } else {
            self.text.push('1');
        }
        self.text.extend(std::iter::repeat_n('0', nines));
        body
    }
}

fn done(reply: Reply) -> Result<Response, crate::SqsError> {
    match reply {
        Reply::Done(result) => result,
        Reply::Pending(_) => panic!("{SHORT_POLL_PENDING}"),
    }
}

const SHORT_POLL_PENDING: &str = "a short poll was left pending";

/// The figures of [`measure`].
#[derive(Clone, Debug, PartialEq)]
pub struct BenchResult {
    /// The batching mode measured.
    pub batching: Batching,
    /// What each run did.
    pub counts: LifecycleCounts,
    /// Each run's duration in seconds, in run order.
    pub run_secs: Vec<f64>,
    /// The median run's duration in seconds.
    pub median_secs: f64,
    /// Lifecycles per second of the median run.
    pub lifecycles_per_sec: f64,
}

impl fmt::Display for BenchResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let runs: Vec<String> = self.run_secs.iter().map(|s| format!("{s:.3}")).collect();
        write!(
            f,
            "{}: lifecycles={} redeliveries={} calls={} runs_s=[{}] median_s={:.3} lifecycles_per_sec={:.0} calls_per_sec={:.0}",
            self.batching,
            self.counts.lifecycles,
            self.counts.redeliveries,
            self.counts.calls,
            runs.join(","),
            self.median_secs,
            self.lifecycles_per_sec,
            self.counts.calls as f64 / self.median_secs,
        )
    }
}

/// Runs [`run_lifecycles`] `runs` times (at least once) and reports the median. `clock` returns
/// seconds from any fixed origin (the caller's monotonic clock).
pub fn measure(n: u64, batching: Batching, runs: usize, clock: impl Fn() -> f64) -> BenchResult {
    let mut counts = LifecycleCounts::default();
    let mut run_secs = Vec::new();
    for run in 0..runs.max(1) {
        let start = clock();
        counts = run_lifecycles(n, run as u64, batching);
        run_secs.push(clock() - start);
    }
    let mut sorted = run_secs.clone();
    sorted.sort_by(f64::total_cmp);
    let median_secs = sorted[sorted.len() / 2];
    BenchResult {
        batching,
        counts,
        run_secs,
        median_secs,
        lifecycles_per_sec: n as f64 / median_secs.max(f64::MIN_POSITIVE),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_completes_one_lifecycle_and_one_in_ten_comes_back() {
        // Per round of 1000: 1000 sends, 1000 receives, 900 deletes, then 100 receives and 100
        // deletes after the visibility timeout; a batch of 10 needs a tenth of the calls.
        let single = run_lifecycles(2500, 1, Batching::Single);
        assert_eq!(
            single,
            LifecycleCounts {
                lifecycles: 2500,
                redeliveries: 250,
                calls: 7750
            }
        );
        let ten = run_lifecycles(2500, 1, Batching::Ten);
        assert_eq!(
            ten,
            LifecycleCounts {
                lifecycles: 2500,
                redeliveries: 250,
                calls: 800
            }
        );
    }

    #[test]
    fn bodies_are_numbered_from_zero() {
        let mut text = Numbered::new("message ");
        for i in 0..1001 {
            assert_eq!(text.next_body(), format!("message {i}").as_str());
        }
    }

    #[test]
    fn measure_reports_the_median_run() {
        let ticks = std::cell::Cell::new(0.0);
        let clock = || {
            ticks.set(ticks.get() + 1.0);
            ticks.get()
        };
        let result = measure(100, Batching::Ten, 3, clock);
        assert_eq!(result.run_secs, vec![1.0, 1.0, 1.0]);
        assert_eq!(result.lifecycles_per_sec, 100.0);
    }
}
