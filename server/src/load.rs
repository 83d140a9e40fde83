//! `sqs-sim load`: concurrent SQS clients on loopback, for the benchmark (requests per second and
//! latency against any SQS endpoint: ours or moto's) and for the load test (every message sent is
//! received and deleted, none is seen twice within its visibility timeout).
//!
//! The clients speak the AWS JSON protocol through hyper's client (keep-alive connections from
//! its pool), not an SDK: an SDK's own overhead would be what such a run measures.

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::header::{AUTHORIZATION, CONTENT_TYPE};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// An unchecked SigV4 header, as an SDK sends: our server ignores it, moto's server picks the
/// service by its credential scope.
const SIGNATURE: &str = "AWS4-HMAC-SHA256 \
    Credential=any/20260101/us-east-1/sqs/aws4_request, SignedHeaders=host, Signature=0";

/// An SQS endpoint (`http://host:port`) and the HTTP client that calls it.
#[derive(Clone)]
struct Connection {
    endpoint: String,
    client: Client<HttpConnector, Full<Bytes>>,
}

impl Connection {
    fn new(endpoint: &str) -> Self {
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        Connection {
            endpoint: endpoint.trim_end_matches('/').into(),
            client: Client::builder(TokioExecutor::new()).build(connector),
        }
    }

    /// Calls `action` with `input`; answers the HTTP status and the JSON body.
    async fn call(&self, action: &str, input: &Value) -> Result<(u16, Value), String> {
        let request = hyper::Request::post(format!("{}/", self.endpoint))
            .header("x-amz-target", format!("AmazonSQS.{action}"))
            .header(CONTENT_TYPE, "application/x-amz-json-1.0")
            .header(AUTHORIZATION, SIGNATURE)
            .body(Full::new(Bytes::from(input.to_string())))
            .map_err(|e| e.to_string())?;
        let response = self
            .client
            .request(request)
            .await
            .map_err(|e| e.to_string())?;
        let status = response.status().as_u16();
        let body = response
            .into_body()
            .collect()
            .await
            .map_err(|e| e.to_string())?;
        let value = serde_json::from_slice(&body.to_bytes()).unwrap_or(Value::Null);
        Ok((status, value))
    }
}

/// Calls `action` and fails on an error answer.
async fn ok(connection: &Connection, action: &str, input: Value) -> Result<Value, String> {
    match connection.call(action, &input).await {
        Ok((200, value)) => Ok(value),
        Ok((status, value)) => Err(format!("{action}: HTTP {status}: {value}")),
        Err(error) => Err(format!("{action}: {error}")),
    }
}

/// A fresh queue's URL (its name unique to this run).
async fn create_queue(endpoint: &str, prefix: &str) -> Result<String, String> {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let connection = Connection::new(endpoint);
    let created = ok(
        &connection,
        "CreateQueue",
        json!({"QueueName": format!("{prefix}-{stamp}")}),
    )
    .await?;
    created["QueueUrl"]
        .as_str()
        .map(String::from)
        .ok_or_else(|| format!("CreateQueue answered {created}"))
}

/// The benchmark's figures.
#[derive(Debug)]
pub struct BenchResult {
    /// Requests answered.
    pub requests: u64,
    /// Wall seconds taken.
    pub seconds: f64,
    /// Median latency, milliseconds.
    pub p50_ms: f64,
    /// 99th percentile latency, milliseconds.
    pub p99_ms: f64,
}

impl std::fmt::Display for BenchResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "requests={} seconds={:.2} req_per_sec={:.0} p50_ms={:.2} p99_ms={:.2}",
            self.requests,
            self.seconds,
            self.requests as f64 / self.seconds,
            self.p50_ms,
            self.p99_ms
        )
    }
}

/// `clients` concurrent clients, each repeating SendMessage, ReceiveMessage (a short poll for
/// one message) and DeleteMessage of what it got, for `seconds`.
pub async fn bench(endpoint: &str, clients: usize, seconds: f64) -> Result<BenchResult, String> {
    let queue = create_queue(endpoint, "bench").await?;
    let started = Instant::now();
    let until = started + Duration::from_secs_f64(seconds);
    let tasks: Vec<_> = (0..clients)
        .map(|client| {
            let (endpoint, queue) = (endpoint.to_string(), queue.clone());
            tokio::spawn(async move {
                let connection = Connection::new(&endpoint);
                let mut latencies: Vec<Duration> = Vec::new();
                let mut timed = async |action: &str, input: Value| {
                    let at = Instant::now();
                    let answer = ok(&connection, action, input).await;
                    latencies.push(at.elapsed());
                    answer
                };
                let mut n = 0u64;
                while Instant::now() < until {
                    n += 1;
                    let body = format!("client {client} message {n}");
                    timed(
                        "SendMessage",
                        json!({"QueueUrl": queue, "MessageBody": body}),
                    )
                    .await?;
                    let got = timed(
                        "ReceiveMessage",
                        json!({"QueueUrl": queue, "MaxNumberOfMessages": 1}),
                    )
                    .await?;
                    if let Some(handle) = got["Messages"][0]["ReceiptHandle"].as_str() {
                        timed(
                            "DeleteMessage",
                            json!({"QueueUrl": queue, "ReceiptHandle": handle}),
                        )
                        .await?;
                    }
                }
                Ok::<_, String>(latencies)
            })
        })
        .collect();
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await.map_err(|e| e.to_string())??);
    }
    let seconds = started.elapsed().as_secs_f64();
    latencies.sort_unstable();
    let at = |q: f64| {
        let index = ((latencies.len() as f64 * q) as usize).min(latencies.len().saturating_sub(1));
        latencies
            .get(index)
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    Ok(BenchResult {
        requests: latencies.len() as u64,
        seconds,
        p50_ms: at(0.50),
        p99_ms: at(0.99),
    })
}

/// What the load test saw.
#[derive(Debug, Default)]
pub struct LoadResult {
    /// Messages sent (acknowledged).
    pub sent: u64,
    /// Distinct messages received.
    pub received: u64,
    /// Messages deleted (acknowledged).
    pub deleted: u64,
    /// Receives of a message already received, after its visibility timeout (allowed).
    pub redeliveries: u64,
    /// Receives of a message already received, within its visibility timeout (a bug).
    pub duplicates: u64,
    /// Requests made.
    pub requests: u64,
    /// Wall seconds taken.
    pub seconds: f64,
    /// The queue's depths at the end (visible, in flight, delayed): all 0 when none is lost.
    pub left: [u64; 3],
}

impl LoadResult {
    /// What went wrong, if anything.
    pub fn problems(&self, messages: u64) -> Vec<String> {
        let mut problems = Vec::new();
        if self.duplicates > 0 {
            problems.push(format!(
                "{} receives within the visibility timeout",
                self.duplicates
            ));
        }
        for (what, n) in [
            ("sent", self.sent),
            ("received", self.received),
            ("deleted", self.deleted),
        ] {
            if n != messages {
                problems.push(format!("{what} {n} of {messages}"));
            }
        }
        if self.left != [0; 3] {
            problems.push(format!(
                "left in the queue (visible, in flight, delayed): {:?}",
                self.left
            ));
        }
        problems
    }
}

impl std::fmt::Display for LoadResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "sent={} received={} deleted={} redeliveries={} duplicates_within_visibility={} \
             requests={} seconds={:.2} req_per_sec={:.0} left={:?}",
            self.sent,
            self.received,
            self.deleted,
            self.redeliveries,
            self.duplicates,
            self.requests,
            self.seconds,
            self.requests as f64 / self.seconds,
            self.left
        )
    }
}

/// The queue's visibility timeout in the load test.
const VISIBILITY_SECS: u64 = 30;

/// `clients` concurrent clients send `messages` distinct messages in batches of 10, long-poll
/// for them (10 at a time, 1 s waits) and delete what they receive in batches, until every
/// message is deleted or `limit` passes. Each receive is checked against the first receive of
/// that message: within the visibility timeout it is a duplicate.
pub async fn load(
    endpoint: &str,
    clients: usize,
    messages: u64,
    limit: Duration,
) -> Result<LoadResult, String> {
    let queue = create_queue(endpoint, "load").await?;
    let started = Instant::now();
    let first_seen: Arc<Mutex<HashMap<u64, Instant>>> = Default::default();
    let counts: Arc<[AtomicU64; 6]> = Arc::new(Default::default());
    const SENT: usize = 0;
    const RECEIVED: usize = 1;
    const DELETED: usize = 2;
    const REDELIVERED: usize = 3;
    const DUPLICATES: usize = 4;
    const REQUESTS: usize = 5;
    let tasks: Vec<_> = (0..clients as u64)
        .map(|client| {
            let (endpoint, queue) = (endpoint.to_string(), queue.clone());
            let (first_seen, counts) = (first_seen.clone(), counts.clone());
            tokio::spawn(async move {
                let connection = Connection::new(&endpoint);
                let call = async |action: &str, input: Value| {
                    counts[REQUESTS].fetch_add(1, Ordering::Relaxed);
                    ok(&connection, action, input).await
                };
                let mut mine = (client..messages).step_by(clients);
                while counts[DELETED].load(Ordering::Relaxed) < messages && started.elapsed() < limit {
                    let batch: Vec<u64> = mine.by_ref().take(10).collect();
                    if !batch.is_empty() {
                        let entries: Vec<Value> = batch
                            .iter()
                            .map(|i| json!({"Id": format!("e{i}"), "MessageBody": format!("message {i}")}))
                            .collect();
                        let sent = call("SendMessageBatch", json!({"QueueUrl": queue, "Entries": entries})).await?;
                        let ok = sent["Successful"].as_array().map_or(0, Vec::len);
                        if ok != batch.len() {
                            return Err(format!("SendMessageBatch sent {ok} of {}: {sent}", batch.len()));
                        }
                        counts[SENT].fetch_add(ok as u64, Ordering::Relaxed);
                    }
                    let got = call(
                        "ReceiveMessage",
                        json!({"QueueUrl": queue, "MaxNumberOfMessages": 10, "WaitTimeSeconds": 1}),
                    )
                    .await?;
                    let Some(received) = got["Messages"].as_array().filter(|m| !m.is_empty()) else {
                        continue;
                    };
                    let now = Instant::now();
                    {
                        let mut seen = first_seen.lock().expect("not poisoned");
                        for message in received {
                            let body = message["Body"].as_str().unwrap_or_default();
                            let Some(i) = body.strip_prefix("message ").and_then(|i| i.parse().ok()) else {
                                return Err(format!("a message not sent by this test: {message}"));
                            };
                            match seen.insert(i, now) {
                                None => counts[RECEIVED].fetch_add(1, Ordering::Relaxed),
                                Some(first) if now - first < Duration::from_secs(VISIBILITY_SECS) => {
                                    counts[DUPLICATES].fetch_add(1, Ordering::Relaxed)
                                }
                                Some(_) => counts[REDELIVERED].fetch_add(1, Ordering::Relaxed),
                            };
                        }
                    }
                    let entries: Vec<Value> = received
                        .iter()
                        .enumerate()
                        .map(|(n, m)| json!({"Id": format!("d{n}"), "ReceiptHandle": m["ReceiptHandle"]}))
                        .collect();
                    let deleted = call("DeleteMessageBatch", json!({"QueueUrl": queue, "Entries": entries})).await?;
                    let ok = deleted["Successful"].as_array().map_or(0, Vec::len);
                    counts[DELETED].fetch_add(ok as u64, Ordering::Relaxed);
                }
                Ok(())
            })
        })
        .collect();
    for task in tasks {
        task.await.map_err(|e| e.to_string())??;
    }
    let seconds = started.elapsed().as_secs_f64();
    let connection = Connection::new(endpoint);
    let names = [
        "ApproximateNumberOfMessages",
        "ApproximateNumberOfMessagesNotVisible",
        "ApproximateNumberOfMessagesDelayed",
    ];
    let attributes = ok(
        &connection,
        "GetQueueAttributes",
        json!({"QueueUrl": queue, "AttributeNames": names}),
    )
    .await?;
    let depth = |name: &str| {
        attributes["Attributes"][name]
            .as_str()
            .and_then(|n| n.parse().ok())
            .unwrap_or(u64::MAX)
    };
    let count = |i: usize| counts[i].load(Ordering::Relaxed);
    Ok(LoadResult {
        sent: count(SENT),
        received: count(RECEIVED),
        deleted: count(DELETED),
        redeliveries: count(REDELIVERED),
        duplicates: count(DUPLICATES),
        requests: count(REQUESTS),
        seconds,
        left: names.map(depth),
    })
}
