//! The live view's side of `sqs-sim serve`: every call that reaches the engine is recorded with
//! its time and client and streamed as Server-Sent Events; a World on the stream's seed that
//! replays the steps is in the server engine's state (the page's copy shows what the server
//! holds), and a page that reconnects resumes where it left off.

mod common;

use common::{call_as, control, events, follow, start, steps};
use serde_json::{json, Value};
use sqs_engine::view::MessageState;
use sqs_server::journal::COMPACT_EVERY;
use sqs_sim::{SimAction, Step, World};
use std::net::SocketAddr;

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
    assert_eq!(
        told[0].data["home"],
        json!({"account": "123456789012", "region": "eu-west-1"}),
        "the server's own account and region (common::start's)"
    );
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

/// The stored messages of `queue` as the server lists them and as a World holds them: id, body,
/// state and receive count, oldest first.
fn listed(at: SocketAddr, queue: &str) -> Vec<(String, String, String, u64)> {
    let listing = common::send(
        at,
        "GET",
        &format!("/_sqs-sim/queues/{queue}/messages"),
        &[],
        b"",
    );
    let messages = listing.json()["messages"].as_array().unwrap().clone();
    messages
        .iter()
        .map(|m| {
            let text = |key: &str| m[key].as_str().unwrap().to_string();
            let count = m["receive_count"].as_u64().unwrap();
            (text("MessageId"), text("Body"), text("state"), count)
        })
        .collect()
}

fn held(world: &World, queue: &str) -> Vec<(String, String, String, u64)> {
    let state = |s: &MessageState| match s {
        MessageState::Visible => "visible",
        MessageState::Delayed { .. } => "delayed",
        MessageState::InFlight { .. } => "in_flight",
    };
    let messages = world.engine().messages(queue);
    messages
        .into_iter()
        .map(|m| {
            (
                m.message_id,
                m.body,
                state(&m.state).into(),
                m.receive_count.into(),
            )
        })
        .collect()
}

#[test]
fn a_page_that_connects_after_many_calls_gets_the_latest_snapshot_and_the_steps_after_it() {
    let at = start();
    clock(at, json!({"pause": true}));
    let created = call_as(at, "shop", "CreateQueue", &json!({"QueueName": "orders"}));
    let url = created.json()["QueueUrl"].as_str().unwrap().to_string();
    let send = |body: &str| {
        let input = json!({"QueueUrl": url, "MessageBody": body});
        assert_eq!(call_as(at, "shop", "SendMessage", &input).status, 200);
    };
    for body in ["order-1", "order-2", "order-3"] {
        send(body);
    }
    let receive = json!({"QueueUrl": url, "MaxNumberOfMessages": 1});
    call_as(at, "billing-1", "ReceiveMessage", &receive);
    // Enough calls for the journal to take a snapshot: a page does not replay them all.
    for _ in 0..COMPACT_EVERY {
        call_as(at, "poller", "ListQueues", &json!({}));
    }
    clock(at, json!({"advance": 5}));
    send("order-4");
    let recorded = COMPACT_EVERY + 6;

    let caught_up = |e: &[common::Event]| {
        let from = e.first().and_then(|h| h.data["from"].as_u64());
        from.is_some_and(|from| from as usize + steps(e).len() == recorded)
    };
    let told = events(at, None, caught_up);
    let hello = &told[0].data;
    assert_eq!(
        hello["from"], COMPACT_EVERY,
        "the snapshot holds the first calls"
    );
    assert!(hello["start"]["engine"].is_string(), "{hello}");
    let sent: usize = told.iter().map(|e| e.data.to_string().len()).sum();
    assert!(
        sent < 32_000,
        "{sent} bytes: the snapshot and 6 calls, not all of them"
    );

    let copy = follow(&told);
    let server = listed(at, "orders");
    assert_eq!(held(&copy, "orders"), server);
    let states: Vec<_> = server.iter().map(|m| (&m.1[..], &m.2[..], m.3)).collect();
    assert_eq!(
        states,
        [
            ("order-1", "in_flight", 1),
            ("order-2", "visible", 0),
            ("order-3", "visible", 0),
            ("order-4", "visible", 0)
        ]
    );

    // A page that left off before the snapshot begins again from it; one that left off after
    // it goes on without it.
    let run = told[0].id.split_once(':').unwrap().0;
    let behind = events(at, Some(&format!("{run}:5")), caught_up);
    assert_eq!(behind[0].data["from"], COMPACT_EVERY);
    assert!(behind[0].data.get("start").is_some());
    let last = told.last().unwrap().id.clone();
    call_as(at, "billing-2", "ReceiveMessage", &receive);
    let resumed = events(at, Some(&last), |e| !steps(e).is_empty());
    assert_eq!(resumed[0].data["from"], recorded);
    assert!(resumed[0].data.get("start").is_none(), "no snapshot again");
    let mut all = told;
    all.extend(resumed);
    assert_eq!(held(&follow(&all), "orders"), listed(at, "orders"));
}
