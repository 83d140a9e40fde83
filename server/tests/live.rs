//! The live view's side of `sqs-sim serve`: every call that reaches the engine is recorded with
//! its time and client and streamed as Server-Sent Events; a World on the stream's seed that
//! replays the steps is in the server engine's state (the page's copy shows what the server
//! holds), and a page that reconnects resumes where it left off.

mod common;

use common::{call_as, control, start};
use serde_json::{json, Value};
use sqs_sim::{LoggedStep, SimAction, Step, World};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// One event of the stream: its name, id and JSON data.
#[derive(Debug)]
struct Event {
    name: String,
    id: String,
    data: Value,
}

/// Reads the events stream (resuming after `last_id` if given) until `enough` holds of the
/// events read so far; at most 10 s.
fn events(at: SocketAddr, last_id: Option<&str>, enough: impl Fn(&[Event]) -> bool) -> Vec<Event> {
    let mut stream = TcpStream::connect(at).unwrap();
    let resume = last_id.map_or(String::new(), |id| format!("Last-Event-ID: {id}\r\n"));
    let head = format!("GET /_sqs-sim/events HTTP/1.1\r\nHost: {at}\r\n{resume}\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let (mut text, mut buffer) = (String::new(), [0u8; 65536]);
    let deadline = Instant::now() + Duration::from_secs(10);
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

fn steps(events: &[Event]) -> Vec<LoggedStep> {
    let all = events.iter().filter(|e| e.name == "steps");
    all.flat_map(|e| e.data["steps"].as_array().unwrap().clone())
        .map(|s| LoggedStep {
            at: s["at"].as_u64().unwrap(),
            step: Step::from_value(s["step"].clone()).unwrap(),
        })
        .collect()
}

fn clock(at: SocketAddr, change: Value) -> Value {
    control(at, "/_sqs-sim/clock", &change).json()
}

#[test]
fn a_world_replaying_the_stream_holds_what_the_server_holds() {
    let at = start();
    clock(at, json!({"pause": true}));
    let url = call_as(
        at,
        "producer",
        "CreateQueue",
        &json!({"QueueName": "orders", "Attributes": {"VisibilityTimeout": "30"}}),
    )
    .json()["QueueUrl"]
        .as_str()
        .unwrap()
        .to_string();
    call_as(
        at,
        "producer",
        "SendMessage",
        &json!({"QueueUrl": url, "MessageBody": "order-7"}),
    );
    let receive =
        json!({"QueueUrl": url, "MessageSystemAttributeNames": ["ApproximateReceiveCount"]});
    let first = call_as(at, "billing-1", "ReceiveMessage", &receive).json();
    let handle = first["Messages"][0]["ReceiptHandle"]
        .as_str()
        .unwrap()
        .to_string();
    // billing-1 crashes before DeleteMessage: 31 s later billing-2 receives it again.
    clock(at, json!({"advance": 31}));
    let second = call_as(at, "billing-2", "ReceiveMessage", &receive).json();
    assert_eq!(
        second["Messages"][0]["Attributes"]["ApproximateReceiveCount"],
        "2"
    );
    // A refused call is recorded too: the event log shows it.
    let stale = json!({"QueueUrl": url, "ReceiptHandle": "nonsense"});
    assert_eq!(
        call_as(at, "billing-1", "DeleteMessage", &stale).status,
        400
    );

    let told = events(at, None, |e| steps(e).len() >= 5);
    assert_eq!(told[0].name, "hello");
    let seed = told[0].data["seed"].as_u64().unwrap();
    let recorded = steps(&told);
    let names: Vec<(&str, &str)> = recorded
        .iter()
        .map(|s| match &s.step {
            Step::Sim(SimAction::Call { by, request, .. }) => (by.as_str(), request.action()),
            other => panic!("not a client's call: {other:?}"),
        })
        .collect();
    assert_eq!(
        names,
        [
            ("producer", "CreateQueue"),
            ("producer", "SendMessage"),
            ("billing-1", "ReceiveMessage"),
            ("billing-2", "ReceiveMessage"),
            ("billing-1", "DeleteMessage"),
        ][..],
        "the clock requests are not calls"
    );
    assert_eq!(
        recorded[3].at - recorded[2].at,
        31_000,
        "virtual times, as the clock moved"
    );

    // The page's copy: a World on the seed, the steps at their times.
    let now = told.last().unwrap().data["now"].as_u64().unwrap();
    let world = World::from_log(seed, &recorded, now).unwrap();
    let lanes = world.workers();
    let second_lane = lanes.iter().find(|w| w.name == "billing-2").unwrap();
    assert_eq!(second_lane.holding[0].receive_count, 2);
    let id = second_lane.holding[0].message_id.clone();
    assert_eq!(world.holder_of(&id), Some("billing-2"));
    let first_lane = lanes.iter().find(|w| w.name == "billing-1").unwrap();
    assert_eq!(
        first_lane.holding[0].receipt_handle, handle,
        "the same receipt handle"
    );
    assert!(first_lane.holding[0].lease_expired);

    // The first consumer's handle deletes at the server; recorded and replayed, it leaves
    // every lane of the copy too.
    let delete = json!({"QueueUrl": url, "ReceiptHandle": handle});
    assert_eq!(
        call_as(at, "billing-1", "DeleteMessage", &delete).status,
        200
    );
    let last_id = told
        .iter()
        .rev()
        .find(|e| e.name == "steps")
        .unwrap()
        .id
        .clone();
    let resumed = events(at, Some(&last_id), |e| !steps(e).is_empty());
    assert_eq!(resumed[0].name, "hello");
    assert_eq!(resumed[0].data["from"], 5, "resumed after the five sent");
    let mut all = recorded.clone();
    all.extend(steps(&resumed));
    assert_eq!(all.len(), 6);
    let world = World::from_log(seed, &all, now).unwrap();
    assert!(world.workers().iter().all(|w| w.holding.is_empty()));
}

#[test]
fn the_pages_own_calls_are_the_users_and_a_refused_one_changes_nothing() {
    let at = start();
    let page = |body: Value| control(at, "/_sqs-sim/call", &body);
    let created = page(json!({"call": "CreateQueue", "input": {"QueueName": "orders"}}));
    assert_eq!(created.status, 200, "{}", created.body);
    let url = created.json()["output"]["QueueUrl"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        url.starts_with("https://sqs.us-east-1.amazonaws.com/"),
        "the engine's own URL: {url}"
    );
    let refused = page(
        json!({"call": "SetQueueAttributes", "input": {"QueueUrl": url, "Attributes": {"VisibilityTimeout": "99999"}}}),
    );
    assert_eq!(refused.status, 400);
    assert_eq!(refused.json()["error"]["code"], "InvalidAttributeValue");
    assert_eq!(page(json!({"call": "Explode", "input": {}})).status, 400);
    assert_eq!(page(json!("not an object")).status, 400);
    let told = events(at, None, |e| !steps(e).is_empty());
    let recorded = steps(&told);
    assert_eq!(recorded.len(), 1, "only the accepted call: {recorded:?}");
    assert!(matches!(&recorded[0].step, Step::Call(r) if r.action() == "CreateQueue"));
}

#[test]
fn a_reset_begins_a_new_run_on_another_seed() {
    let at = start();
    call_as(at, "a", "CreateQueue", &json!({"QueueName": "q"}));
    let before = events(at, None, |e| !steps(e).is_empty());
    control(at, "/_sqs-sim/reset", &json!({}));
    let after = events(at, Some(&before.last().unwrap().id), |e| {
        e.iter().any(|e| e.name == "clock" || e.name == "steps")
    });
    assert_eq!(after[0].name, "hello");
    assert_ne!(after[0].data["seed"], before[0].data["seed"]);
    assert_eq!(
        after[0].data["from"], 0,
        "a new run starts from its beginning"
    );
    assert!(steps(&after).is_empty());
}
