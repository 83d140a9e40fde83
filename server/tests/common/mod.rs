//! What the server's tests share: a server of their own on a free port, and raw HTTP/1.1 to it.
// Each test crate uses some of these.
#![allow(dead_code)]

use serde_json::Value;
use sqs_engine::api::FromJson;
use sqs_sim::{LoggedStep, Start, Step, World};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A server of its own, on a free loopback port.
pub fn start() -> SocketAddr {
    let (ready, address) = mpsc::channel();
    std::thread::spawn(move || {
        let config = sqs_server::Config {
            port: 0,
            account_id: "123456789012".into(),
            region: "eu-west-1".into(),
            ..Default::default()
        };
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime
            .block_on(sqs_server::serve(config, |at| ready.send(at).unwrap()))
            .unwrap();
    });
    address.recv().unwrap()
}

/// An answer: status, headers (names lower-cased), body.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        let found = self.headers.iter().find(|(n, _)| n == name);
        found.map(|(_, value)| value.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

/// Sends one request (`headers` as `Name: value` lines) and reads the whole answer.
pub fn send(at: SocketAddr, method: &str, path: &str, headers: &[&str], body: &[u8]) -> Answer {
    let mut stream = TcpStream::connect(at).unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {at}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for header in headers {
        head.push_str(header);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    // A server may answer before reading a body it refuses: a failed write is not the test's.
    let _ = stream.write_all(body);
    let mut text = Vec::new();
    stream.read_to_end(&mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|line| line.split_once(": "))
        .map(|(n, v)| (n.to_ascii_lowercase(), v.to_string()))
        .collect();
    Answer {
        status,
        headers,
        body: body.into(),
    }
}

/// A JSON-protocol call.
pub fn call(at: SocketAddr, action: &str, input: &Value) -> Answer {
    json_raw(
        at,
        &format!("AmazonSQS.{action}"),
        input.to_string().as_bytes(),
    )
}

pub fn json_raw(at: SocketAddr, target: &str, body: &[u8]) -> Answer {
    let target = format!("X-Amz-Target: {target}");
    let headers = [target.as_str(), "Content-Type: application/x-amz-json-1.0"];
    send(at, "POST", "/", &headers, body)
}

/// A JSON-protocol call signed (in form: signatures are not checked) with access key `key`.
pub fn call_as(at: SocketAddr, key: &str, action: &str, input: &Value) -> Answer {
    let target = format!("X-Amz-Target: AmazonSQS.{action}");
    let authorization = format!(
        "Authorization: AWS4-HMAC-SHA256 Credential={key}/20261202/eu-west-1/sqs/aws4_request, SignedHeaders=host, Signature=0"
    );
    let headers = [
        target.as_str(),
        authorization.as_str(),
        "Content-Type: application/x-amz-json-1.0",
    ];
    send(at, "POST", "/", &headers, input.to_string().as_bytes())
}

/// A control API request with a JSON body.
pub fn control(at: SocketAddr, path: &str, body: &Value) -> Answer {
    let headers = ["Content-Type: application/json"];
    send(at, "POST", path, &headers, body.to_string().as_bytes())
}

/// One event of the stream: its name, id and JSON data.
#[derive(Debug)]
pub struct Event {
    pub name: String,
    pub id: String,
    pub data: Value,
}

/// Reads the live view's event stream (resuming after `last_id` if given) until `enough` holds
/// of the events read so far; at most 30 s.
pub fn events(
    at: SocketAddr,
    last_id: Option<&str>,
    enough: impl Fn(&[Event]) -> bool,
) -> Vec<Event> {
    let mut stream = TcpStream::connect(at).unwrap();
    let resume = last_id.map_or(String::new(), |id| format!("Last-Event-ID: {id}\r\n"));
    let head = format!("GET /_sqs-sim/events HTTP/1.1\r\nHost: {at}\r\n{resume}\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let (mut text, mut buffer) = (String::new(), [0u8; 65536]);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(n) = stream.read(&mut buffer) {
            text.push_str(&String::from_utf8_lossy(&buffer[..n]));
        }
        let parsed = parse(&text);
        if enough(&parsed) {
            return parsed;
        }
        assert!(
            Instant::now() < deadline,
            "the stream did not tell enough: {text}"
        );
    }
}

/// The events in a chunked text/event-stream answer (each event is one chunk).
fn parse(text: &str) -> Vec<Event> {
    let mut events = Vec::new();
    let (mut name, mut id) = (String::new(), String::new());
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("event: ") {
            name = n.to_string();
        } else if let Some(i) = line.strip_prefix("id: ") {
            id = i.to_string();
        } else if let Some(data) = line.strip_prefix("data: ") {
            let data = serde_json::from_str(data).unwrap();
            events.push(Event {
                name: name.clone(),
                id: id.clone(),
                data,
            });
        }
    }
    events
}

pub fn steps(events: &[Event]) -> Vec<LoggedStep> {
    let all = events.iter().filter(|e| e.name == "steps");
    all.flat_map(|e| e.data["steps"].as_array().unwrap().clone())
        .map(|s| LoggedStep {
            at: s["at"].as_u64().unwrap(),
            step: Step::from_value(s["step"].clone()).unwrap(),
        })
        .collect()
}

/// The page's copy of the server after `told` (a stream from its first hello on, and what
/// resumed streams told after): each hello with a snapshot begins a World from it (one without,
/// from 0, an empty engine on its seed; one without, from where the copy is, goes on); the steps
/// run at their times, up to the server's time.
pub fn follow(told: &[Event]) -> World {
    let (mut world, mut count) = (None, 0);
    for event in told {
        let data = &event.data;
        if event.name == "hello" {
            let (seed, from) = (
                data["seed"].as_u64().unwrap(),
                data["from"].as_u64().unwrap(),
            );
            if let Some(start) = data.get("start") {
                let start = Start::from_json(start.clone()).unwrap();
                world = Some(World::resume(seed, start.engine().clone()));
            } else if world.is_none() || from != count {
                assert_eq!(
                    from, 0,
                    "a stream that does not go on begins with a snapshot"
                );
                world = Some(World::new(seed));
            }
            count = from;
        }
        let world = world.as_mut().expect("a hello first");
        for step in steps(std::slice::from_ref(event)) {
            world.advance_to(step.at);
            world.apply(step.step).unwrap();
            count += 1;
        }
        if let Some(now) = data["now"].as_u64() {
            world.advance_to(now);
        }
    }
    world.expect("a hello")
}
