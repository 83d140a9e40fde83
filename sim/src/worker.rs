//! Workers and producers: their policies (data, part of the command log) and what the UI sees of
//! them. A worker talks to the engine only through ReceiveMessage, ChangeMessageVisibility,
//! DeleteMessage and their batch forms, as a real worker would.

use serde::{de, Deserialize, Serialize};
use serde_json::Value;
use sqs_engine::api::{Input, Output, ToJson};
use sqs_engine::Millis;

/// How long a job takes, drawn from the world's seed.
#[derive(Clone, Debug, PartialEq)]
pub enum ProcessingTime {
    /// Always this many seconds.
    Fixed {
        /// Seconds.
        seconds: f64,
    },
    /// Uniform in [min, max] seconds.
    Uniform {
        /// Seconds.
        min: f64,
        /// Seconds.
        max: f64,
    },
    /// Mostly near `median`, occasionally up to `max` (a long tail).
    LongTail {
        /// Seconds.
        median: f64,
        /// Seconds.
        max: f64,
    },
}

/// The heartbeat pattern: while the job makes progress, extend visibility every `every` seconds
/// by `extend_by` seconds, at most `max_extensions` times.
#[derive(Clone, Debug, PartialEq)]
pub struct Heartbeat {
    /// Seconds between ChangeMessageVisibility calls.
    pub every: f64,
    /// The VisibilityTimeout each call sets (counted from the call).
    pub extend_by: u32,
    /// A cap on extensions (None: until the job ends or fails).
    pub max_extensions: Option<u32>,
    /// A cap on the time since the receive, in seconds: no extension after it (None: no cap).
    pub max_total: Option<f64>,
}

/// One named side effect of a job (for example "record ticket", "send staff notice").
#[derive(Clone, Debug, PartialEq)]
pub struct EffectStep {
    /// What the effect is.
    pub name: String,
    /// Check an idempotency key (message body + effect name) against the durable ledger before
    /// performing it.
    pub idempotent: bool,
}

/// How a worker consumes.
#[derive(Clone, Debug, PartialEq)]
pub enum WorkerMode {
    /// Polls and processes by itself.
    Auto,
    /// The user is the worker: messages arrive only by drag (Deliver); delete/extend by hand.
    Manual,
    /// A Lambda event-source mapping: batches, a function timeout, optional partial batch
    /// failure reporting (ReportBatchItemFailures).
    Lambda {
        /// BatchSize (10 when absent, Lambda's default): up to 10 on a FIFO queue, up to 10,000
        /// on a standard one when a batching window is set.
        batch_size: u32,
        /// MaximumBatchingWindowInSeconds (0 when absent): how long a poller keeps receiving to
        /// fill a batch before it invokes the function; the messages' visibility timeouts run
        /// meanwhile. Not for FIFO queues. Left out of the JSON at 0, as links made before it were.
        maximum_batching_window_in_seconds: u32,
        /// The function timeout in seconds.
        function_timeout: u32,
        /// FunctionResponseTypes = ["ReportBatchItemFailures"] (false when absent: see
        /// `WorkerMode::read`).
        report_batch_item_failures: bool,
        /// The function's reserved concurrency: at most this many invocations at once (None: one
        /// per poller, [`LAMBDA_POLLERS`]). Batches received beyond it wait, throttled, while
        /// their visibility timeout runs: the reason for the 6x rule. None when absent.
        reserved_concurrency: Option<u32>,
    },
}

impl ProcessingTime {
    /// Read through [`Input`], as this file's other readers.
    fn read(mut input: Input) -> Result<Self, serde_json::Error> {
        let kind: String = input.field("kind")?;
        Ok(match kind.as_str() {
            "Fixed" => ProcessingTime::Fixed {
                seconds: input.field("seconds")?,
            },
            "Uniform" => ProcessingTime::Uniform {
                min: input.field("min")?,
                max: input.field("max")?,
            },
            "LongTail" => ProcessingTime::LongTail {
                median: input.field("median")?,
                max: input.field("max")?,
            },
            _ => {
                let kinds = &["Fixed", "Uniform", "LongTail"];
                return Err(de::Error::unknown_variant(&kind, kinds));
            }
        })
    }
}

impl WorkerMode {
    /// A Lambda mapping with FunctionResponseTypes ["ReportBatchItemFailures"].
    pub fn reports_batch_item_failures(&self) -> bool {
        matches!(
            self,
            WorkerMode::Lambda {
                report_batch_item_failures: true,
                ..
            }
        )
    }

    fn read(mut input: Input) -> Result<Self, serde_json::Error> {
        let kind: String = input.field("kind")?;
        Ok(match kind.as_str() {
            "Auto" => WorkerMode::Auto,
            "Manual" => WorkerMode::Manual,
            "Lambda" => WorkerMode::Lambda {
                batch_size: input.field_or("batch_size", 10)?,
                maximum_batching_window_in_seconds: input
                    .field_or_default("maximum_batching_window_in_seconds")?,
                function_timeout: input.field("function_timeout")?,
                report_batch_item_failures: input.field_or_default("report_batch_item_failures")?,
                reserved_concurrency: input.field_or_default("reserved_concurrency")?,
            },
            _ => {
                let kinds = &["Auto", "Manual", "Lambda"];
                return Err(de::Error::unknown_variant(&kind, kinds));
            }
        })
    }
}

sqs_engine::read_by_hand!(ProcessingTime, WorkerMode, WorkerPolicy);
sqs_engine::write_by_hand!(ProcessingTime, WorkerMode);

/// `{"kind": "Fixed", "seconds": 2.0}`.
impl ToJson for ProcessingTime {
    fn to_json(&self) -> Value {
        let mut out = Output::default();
        match self {
            ProcessingTime::Fixed { seconds } => {
                out.field("kind", "Fixed");
                out.field("seconds", seconds);
            }
            ProcessingTime::Uniform { min, max } => {
                out.field("kind", "Uniform");
                out.field("min", min);
                out.field("max", max);
            }
            ProcessingTime::LongTail { median, max } => {
                out.field("kind", "LongTail");
                out.field("median", median);
                out.field("max", max);
            }
        }
        out.into()
    }
}

/// `{"kind": "Auto"}`, `{"kind": "Lambda", "batch_size": 10, ...}`.
impl ToJson for WorkerMode {
    fn to_json(&self) -> Value {
        let mut out = Output::default();
        match self {
            WorkerMode::Auto => out.field("kind", "Auto"),
            WorkerMode::Manual => out.field("kind", "Manual"),
            WorkerMode::Lambda {
                batch_size,
                maximum_batching_window_in_seconds: window,
                function_timeout,
                report_batch_item_failures,
                reserved_concurrency,
            } => {
                out.field("kind", "Lambda");
                out.field("batch_size", batch_size);
                if *window > 0 {
                    out.field("maximum_batching_window_in_seconds", window);
                }
                out.field("function_timeout", function_timeout);
                out.field("report_batch_item_failures", report_batch_item_failures);
                out.field("reserved_concurrency", reserved_concurrency);
            }
        }
        out.into()
    }
}

sqs_engine::members! {
    Heartbeat {
        every: field("every"),
        extend_by: field("extend_by"),
        max_extensions: field_or_default("max_extensions"),
        max_total: field_or_default("max_total"),
    }
    EffectStep { name: field("name"), idempotent: field_or_default("idempotent") }
    ProducerSpec {
        name: field("name"),
        queue: field("queue"),
        every: field("every"),
        count: field_or_default("count"),
        body: field("body"),
        delay_seconds: field_or_default("delay_seconds"),
        group_id: field_or_default("group_id"),
        deduplication_id: field_or_default("deduplication_id"),
    }
}

impl WorkerPolicy {
    /// Every member may be missing: [`WorkerPolicy::default`]'s value then (a missing `queue`
    /// is refused by [`WorkerPolicy::check`], naming the problem).
    fn read(mut input: Input) -> Result<Self, serde_json::Error> {
        let defaults = WorkerPolicy::default();
        Ok(WorkerPolicy {
            queue: input.field_or("queue", defaults.queue)?,
            mode: input.field_or("mode", defaults.mode)?,
            wait_time_seconds: input.field_or("wait_time_seconds", defaults.wait_time_seconds)?,
            max_messages: input.field_or("max_messages", defaults.max_messages)?,
            visibility_timeout: input
                .field_or("visibility_timeout", defaults.visibility_timeout)?,
            idle_pause: input.field_or("idle_pause", defaults.idle_pause)?,
            processing: input.field_or("processing", defaults.processing)?,
            heartbeat: input.field_or("heartbeat", defaults.heartbeat)?,
            effects: input.field_or("effects", defaults.effects)?,
            poison_marker: input.field_or("poison_marker", defaults.poison_marker)?,
        })
    }
}

// Every member is written (read back with the defaults above when missing).
sqs_engine::writers! {
    WorkerPolicy {
        queue: field("queue"),
        mode: field("mode"),
        wait_time_seconds: field("wait_time_seconds"),
        max_messages: field("max_messages"),
        visibility_timeout: field("visibility_timeout"),
        idle_pause: field("idle_pause"),
        processing: field("processing"),
        heartbeat: field("heartbeat"),
        effects: field("effects"),
        poison_marker: field("poison_marker"),
    }
}

/// How many batches a Lambda event-source mapping holds at once (its pollers).
pub const LAMBDA_POLLERS: u32 = 5;

/// A worker's policy. In a scenario file only `queue` is required; the rest defaults to
/// [`WorkerPolicy::new`]'s values.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkerPolicy {
    /// The queue it consumes (queue name).
    pub queue: String,
    /// Auto, manual or Lambda.
    pub mode: WorkerMode,
    /// ReceiveMessage WaitTimeSeconds (0 = short poll; a Lambda worker always long-polls 20 s).
    pub wait_time_seconds: u32,
    /// ReceiveMessage MaxNumberOfMessages (a Lambda worker uses its batch size).
    pub max_messages: u32,
    /// ReceiveMessage VisibilityTimeout override (None: the queue's).
    pub visibility_timeout: Option<u32>,
    /// Pause after an empty short poll, in seconds (at least 0.1 s).
    pub idle_pause: f64,
    /// How long each message's job takes (a worker processes a received batch one message
    /// after the other; the effects are spread evenly over the job, the last one at its end).
    pub processing: ProcessingTime,
    /// Optional heartbeat.
    pub heartbeat: Option<Heartbeat>,
    /// The job's side effects, in order.
    pub effects: Vec<EffectStep>,
    /// Bodies containing this text always fail (a poison message). None: never.
    pub poison_marker: Option<String>,
}

impl WorkerPolicy {
    /// An automatic worker on `queue`: short polls one message at a time, pauses 1 s after an
    /// empty receive, takes 5 s a job, no heartbeat, no effects.
    pub fn new(queue: impl Into<String>) -> Self {
        WorkerPolicy {
            queue: queue.into(),
            mode: WorkerMode::Auto,
            wait_time_seconds: 0,
            max_messages: 1,
            visibility_timeout: None,
            idle_pause: 1.0,
            processing: ProcessingTime::Fixed { seconds: 5.0 },
            heartbeat: None,
            effects: Vec::new(),
            poison_marker: None,
        }
    }
}

impl WorkerPolicy {
    /// Why this policy cannot run, if it cannot (SQS's own ranges, and timings a worker can keep).
    pub fn check(&self) -> Result<(), String> {
        let seconds = |what: &str, value: f64, min: f64| {
            if value.is_finite() && value >= min {
                Ok(())
            } else {
                Err(format!("{what} must be at least {min} s."))
            }
        };
        if self.queue.is_empty() {
            return Err("A worker needs a queue to consume.".into());
        }
        if !(1..=10).contains(&self.max_messages) {
            return Err("The batch size (MaxNumberOfMessages) must be between 1 and 10.".into());
        }
        if self.wait_time_seconds > 20 {
            return Err("WaitTimeSeconds must be between 0 and 20.".into());
        }
        if self.visibility_timeout.is_some_and(|vt| vt > 43_200) {
            return Err("VisibilityTimeout must be between 0 and 43200 seconds (12 hours).".into());
        }
        seconds("The pause after an empty receive", self.idle_pause, 0.0)?;
        match self.processing {
            ProcessingTime::Fixed { seconds: s } => seconds("The processing time", s, 0.0)?,
            ProcessingTime::Uniform { min, max }
            | ProcessingTime::LongTail { median: min, max } => {
                seconds("The shortest processing time", min, 0.0)?;
                seconds("The longest processing time", max, min)?;
            }
        }
        if let Some(hb) = &self.heartbeat {
            seconds("The heartbeat interval", hb.every, 0.1)?;
        }
        if let WorkerMode::Lambda {
            batch_size,
            maximum_batching_window_in_seconds: window,
            function_timeout,
            ..
        } = self.mode
        {
            // Lambda's own limits and words (CreateEventSourceMapping); FIFO's are checked
            // with the queue (`World::check_mapping`).
            if !(1..=10_000).contains(&batch_size) {
                return Err(
                    "InvalidParameterValueException: BatchSize must be between 1 and 10000.".into(),
                );
            }
            if window > 300 {
                return Err("InvalidParameterValueException: MaximumBatchingWindowInSeconds must be between 0 and 300.".into());
            }
            if batch_size > 10 && window == 0 {
                return Err("InvalidParameterValueException: Maximum batch window in seconds must be greater than 0 if maximum batch size is greater than 10".into());
            }
            if !(1..=900).contains(&function_timeout) {
                return Err("The function timeout must be between 1 and 900 seconds.".into());
            }
        }
        Ok(())
    }
}

impl Default for WorkerPolicy {
    fn default() -> Self {
        WorkerPolicy::new("")
    }
}

/// What a worker is doing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WorkerStatus {
    /// Between polls.
    Idle,
    /// A ReceiveMessage is waiting (long poll).
    Polling,
    /// Working on messages.
    Processing,
    /// Crashed (Kill): does nothing until restarted.
    Dead,
    /// Alive but stuck: no progress, no heartbeats.
    Hung,
}

/// One message a worker holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeldMessage {
    /// MessageId.
    pub message_id: String,
    /// The receipt handle this worker got.
    pub receipt_handle: String,
    /// When its job started.
    pub started_at: Millis,
    /// When the job will finish (None when dead or hung, or not started yet).
    pub done_at: Option<Millis>,
    /// Side effects done so far, by name.
    pub effects_done: Vec<String>,
    /// Its ApproximateReceiveCount at this receive.
    #[serde(default)]
    pub receive_count: u32,
    /// Its visibility timeout ran out while this worker held it: another consumer may get it.
    #[serde(default)]
    pub lease_expired: bool,
}

/// What the UI draws for a worker lane.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkerView {
    /// The worker's name.
    pub name: String,
    /// Its policy.
    pub policy: WorkerPolicy,
    /// What it is doing.
    pub status: WorkerStatus,
    /// What it holds (on a dead or hung worker: what it held when it stopped).
    pub holding: Vec<HeldMessage>,
    /// Faults armed for its next job (e.g. "CrashAfterCommit").
    pub armed_faults: Vec<String>,
    /// Policy problems worth showing (the Lambda 6x rule, a heartbeat slower than the timeout).
    #[serde(default)]
    pub warnings: Vec<String>,
    /// SQS requests this worker made.
    #[serde(default)]
    pub api_calls: u64,
    /// Its ReceiveMessage calls that returned nothing.
    #[serde(default)]
    pub empty_receives: u64,
    /// Messages it received.
    #[serde(default)]
    pub deliveries: u64,
    /// A client of its own (a process talking to `sqs-sim serve`, as recorded): it calls SQS
    /// itself, so nothing can program, kill or restart it.
    #[serde(default)]
    pub client: bool,
}

/// A steady producer: sends `count` messages (None: forever), one every `every` seconds, the
/// first one at once.
#[derive(Clone, Debug, PartialEq)]
pub struct ProducerSpec {
    /// Unique name.
    pub name: String,
    /// Target queue (queue name).
    pub queue: String,
    /// Seconds between sends.
    pub every: f64,
    /// How many to send (None: until removed).
    pub count: Option<u64>,
    /// Body template; `{n}` is replaced by the message's number (from 1), `{n%K}` by n mod K.
    pub body: String,
    /// Per-message DelaySeconds (standard queues).
    pub delay_seconds: Option<u32>,
    /// FIFO: MessageGroupId template (`{n}`, `{n%K}` for K groups).
    pub group_id: Option<String>,
    /// FIFO: MessageDeduplicationId template (None: content-based or none).
    pub deduplication_id: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tagged_kinds_read_back_what_they_write() {
        let times = [
            ProcessingTime::Fixed { seconds: 1.5 },
            ProcessingTime::Uniform { min: 1.0, max: 2.0 },
            ProcessingTime::LongTail {
                median: 3.0,
                max: 30.0,
            },
        ];
        for time in times {
            let json = serde_json::to_value(&time).unwrap();
            assert_eq!(
                serde_json::from_value::<ProcessingTime>(json).unwrap(),
                time
            );
        }
        let modes = [
            WorkerMode::Auto,
            WorkerMode::Manual,
            WorkerMode::Lambda {
                batch_size: 10,
                maximum_batching_window_in_seconds: 0,
                function_timeout: 30,
                report_batch_item_failures: true,
                reserved_concurrency: Some(2),
            },
            WorkerMode::Lambda {
                batch_size: 100,
                maximum_batching_window_in_seconds: 5,
                function_timeout: 30,
                report_batch_item_failures: false,
                reserved_concurrency: None,
            },
        ];
        for mode in modes {
            let json = serde_json::to_value(&mode).unwrap();
            assert_eq!(serde_json::from_value::<WorkerMode>(json).unwrap(), mode);
        }
    }

    /// Every member set away from its default, so that a member name spelt differently by the
    /// reader and the writer cannot round-trip.
    #[test]
    fn policies_and_producers_read_back_what_they_write() {
        let policy = WorkerPolicy {
            queue: "orders".into(),
            mode: WorkerMode::Manual,
            wait_time_seconds: 20,
            max_messages: 10,
            visibility_timeout: Some(60),
            idle_pause: 0.5,
            processing: ProcessingTime::Fixed { seconds: 2.0 },
            heartbeat: Some(Heartbeat {
                every: 10.0,
                extend_by: 30,
                max_extensions: Some(3),
                max_total: Some(120.0),
            }),
            effects: vec![EffectStep {
                name: "charge".into(),
                idempotent: true,
            }],
            poison_marker: Some("poison".into()),
        };
        let json = serde_json::to_value(&policy).unwrap();
        assert_eq!(
            serde_json::from_value::<WorkerPolicy>(json).unwrap(),
            policy
        );
        let producer = ProducerSpec {
            name: "P".into(),
            queue: "orders.fifo".into(),
            every: 2.0,
            count: Some(10),
            body: "order-{n}".into(),
            delay_seconds: Some(5),
            group_id: Some("g-{n%3}".into()),
            deduplication_id: Some("d-{n}".into()),
        };
        let json = serde_json::to_value(&producer).unwrap();
        assert_eq!(
            serde_json::from_value::<ProducerSpec>(json).unwrap(),
            producer
        );
        // A missing member takes `WorkerPolicy::new`'s value.
        let read = serde_json::from_value::<WorkerPolicy>(json!({"queue": "q", "max_messages": 3}));
        assert_eq!(
            read.unwrap(),
            WorkerPolicy {
                max_messages: 3,
                ..WorkerPolicy::new("q")
            }
        );
        let error = serde_json::from_value::<ProducerSpec>(json!({"name": "P", "queue": "q"}));
        assert_eq!(error.unwrap_err().to_string(), "missing field `every`");
    }

    #[test]
    fn optional_lambda_members_default_and_errors_name_the_problem() {
        let mode = json!({"kind": "Lambda", "function_timeout": 60});
        assert_eq!(
            serde_json::from_value::<WorkerMode>(mode).unwrap(),
            WorkerMode::Lambda {
                batch_size: 10,
                maximum_batching_window_in_seconds: 0,
                function_timeout: 60,
                report_batch_item_failures: false,
                reserved_concurrency: None,
            }
        );
        let error = |json| {
            serde_json::from_value::<ProcessingTime>(json)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(error(json!({"seconds": 1})), "missing field `kind`");
        assert_eq!(error(json!({"kind": "Fixed"})), "missing field `seconds`");
        assert!(error(json!({"kind": "Slow"})).starts_with("unknown variant `Slow`"));
        assert_eq!(error(json!("Fixed")), "expected a JSON object");
    }

    #[test]
    fn lambda_batch_sizes_over_ten_need_a_batching_window() {
        let lambda = |batch_size, window| {
            let mut policy = WorkerPolicy::new("q");
            policy.mode = WorkerMode::Lambda {
                batch_size,
                maximum_batching_window_in_seconds: window,
                function_timeout: 30,
                report_batch_item_failures: false,
                reserved_concurrency: None,
            };
            policy.check()
        };
        assert_eq!(lambda(10, 0), Ok(()));
        assert_eq!(
            lambda(11, 0).unwrap_err(),
            "InvalidParameterValueException: Maximum batch window in seconds must be greater than 0 if maximum batch size is greater than 10"
        );
        assert_eq!(lambda(11, 1), Ok(()));
        assert_eq!(lambda(10_000, 300), Ok(()));
        assert!(lambda(10_001, 300)
            .unwrap_err()
            .contains("between 1 and 10000"));
        assert!(lambda(0, 0).unwrap_err().contains("between 1 and 10000"));
        assert!(lambda(100, 301).unwrap_err().contains("between 0 and 300"));
    }
}
