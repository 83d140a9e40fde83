//! Clients of their own (`SimAction::Call`): the processes `sqs-sim serve`'s live view records.
//! A client's calls replayed in a World must answer what the bare engine answered the client
//! (the server's engine and the page's World agree), and a consumer's lane must show what it
//! holds, as SQS documents the visibility timeout: a message received and not deleted comes
//! back when its timeout runs out, with ApproximateReceiveCount one higher.

use serde_json::{json, Value};
use sqs_engine::api::ToJson;
use sqs_engine::script::error_json;
use sqs_engine::{Engine, Millis, Namespace, Reply, Request};
use sqs_sim::command::SimAction;
use sqs_sim::{Actor, Step, World};

const URL: &str = "https://sqs.us-east-1.amazonaws.com/000000000000/orders";

fn request(action: &str, input: Value) -> Request {
    Request::from_input(action, input).unwrap()
}

fn by(client: &str, action: &str, input: Value) -> Step {
    Step::Sim(SimAction::Call {
        by: client.into(),
        namespace: Namespace::DEFAULT,
        request: request(action, input),
    })
}

/// What a crash before DeleteMessage looks like from two consumers' side, as (time, step).
fn crash_story(handle_of_first: &str) -> Vec<(Millis, Step)> {
    let receive =
        json!({"QueueUrl": URL, "MessageSystemAttributeNames": ["ApproximateReceiveCount"]});
    vec![
        (
            0,
            by(
                "producer",
                "CreateQueue",
                json!({"QueueName": "orders", "Attributes": {"VisibilityTimeout": "30"}}),
            ),
        ),
        (
            1_000,
            by(
                "producer",
                "SendMessage",
                json!({"QueueUrl": URL, "MessageBody": "order-7"}),
            ),
        ),
        (2_000, by("billing-1", "ReceiveMessage", receive.clone())),
        (33_000, by("billing-2", "ReceiveMessage", receive)),
        (
            34_000,
            by(
                "billing-1",
                "DeleteMessage",
                json!({"QueueUrl": URL, "ReceiptHandle": handle_of_first}),
            ),
        ),
    ]
}

#[test]
fn a_replayed_client_answers_what_the_engine_answered() {
    // The server's side: a bare engine, the calls at their times.
    let mut engine = Engine::new(42);
    let mut answers = Vec::new();
    for (at, step) in crash_story("stale") {
        engine.advance_to(at);
        let Step::Sim(SimAction::Call { request, .. }) = step else {
            unreachable!()
        };
        match engine.call(request) {
            Reply::Done(Ok(response)) => answers.push(response.to_json()),
            // A refusal as the World answers one: its code, type, status and message.
            Reply::Done(Err(error)) => answers.push(error_json(&error)),
            Reply::Pending(_) => panic!("no long poll here"),
        }
    }
    // The page's side: the same calls as Call steps in a World on the same seed.
    let mut world = World::new(42);
    for (i, (at, step)) in crash_story("stale").into_iter().enumerate() {
        world.advance_to(at);
        let answer = world.apply(step).unwrap();
        assert_eq!(answer, answers[i], "step {i}");
    }
}

#[test]
fn a_consumer_that_crashes_leaves_its_message_to_the_next_one() {
    let mut world = World::new(7);
    let story = crash_story("");
    let mut handle = String::new();
    for (at, step) in story.into_iter().take(3) {
        world.advance_to(at);
        let answer = world.apply(step).unwrap();
        if let Some(h) = answer.pointer("/Messages/0/ReceiptHandle") {
            handle = h.as_str().unwrap().to_string();
        }
    }
    // billing-1 became a consumer: a lane holding order-7 in flight.
    let lanes = world.workers();
    assert_eq!(
        lanes.iter().map(|w| w.name.as_str()).collect::<Vec<_>>(),
        ["billing-1"]
    );
    assert_eq!(lanes[0].holding.len(), 1);
    assert!(
        lanes[0].client,
        "a client's own process, not a simulated worker"
    );
    assert_eq!(lanes[0].holding[0].receipt_handle, handle);
    let id = lanes[0].holding[0].message_id.clone();
    assert_eq!(world.holder_of(&id), Some("billing-1"));
    // It crashed: nothing deletes; at 32 s the timeout has run out and nobody holds it.
    world.advance_to(32_000);
    assert_eq!(world.holder_of(&id), None);
    assert!(world.workers()[0].holding[0].lease_expired);
    world.advance_to(33_000);
    let receive =
        json!({"QueueUrl": URL, "MessageSystemAttributeNames": ["ApproximateReceiveCount"]});
    let again = world
        .apply(by("billing-2", "ReceiveMessage", receive))
        .unwrap();
    assert_eq!(
        again.pointer("/Messages/0/Attributes/ApproximateReceiveCount"),
        Some(&json!("2"))
    );
    assert_eq!(world.holder_of(&id), Some("billing-2"));
    let second = world
        .workers()
        .into_iter()
        .find(|w| w.name == "billing-2")
        .unwrap();
    assert_eq!(second.holding[0].receive_count, 2);
    // The first consumer's stale handle still deletes on a standard queue (§ receipt handles);
    // the message then leaves every lane.
    world.advance_to(34_000);
    let delete = json!({"QueueUrl": URL, "ReceiptHandle": handle});
    world
        .apply(by("billing-1", "DeleteMessage", delete))
        .unwrap();
    assert!(world.workers().iter().all(|w| w.holding.is_empty()));

    let events = world.drain_events();
    // The narration names each client as the actor of its own calls: the one that only sends
    // as a client, the consumers as the workers of their lanes.
    let said = |actor: Actor, text: &str| events.iter().any(|e| e.actor == actor && e.text == text);
    let client = |name: &str| Actor::Client(name.into());
    let worker = |name: &str| Actor::Worker(name.into());
    assert!(
        said(
            client("producer"),
            "producer called SendMessage: order-7 stored in orders"
        ),
        "{events:#?}"
    );
    assert!(said(
        worker("billing-1"),
        "billing-1 called ReceiveMessage: got order-7 (receive count 1)"
    ));
    assert!(said(
        worker("billing-2"),
        "billing-2 called ReceiveMessage: got order-7 (receive count 2)"
    ));
    assert!(said(
        worker("billing-1"),
        "billing-1 called DeleteMessage: order-7 deleted"
    ));
}

#[test]
fn a_long_poll_answers_the_consumer_that_waits() {
    let mut world = World::new(3);
    world
        .apply(by("p", "CreateQueue", json!({"QueueName": "orders"})))
        .unwrap();
    let wait = json!({"QueueUrl": URL, "WaitTimeSeconds": 20});
    let answer = world.apply(by("w", "ReceiveMessage", wait)).unwrap();
    assert!(answer.get("pending").is_some(), "{answer}");
    world.advance_to(5_000);
    world
        .apply(by(
            "p",
            "SendMessage",
            json!({"QueueUrl": URL, "MessageBody": "late"}),
        ))
        .unwrap();
    let lane = &world.workers()[0];
    assert_eq!(lane.name, "w");
    assert_eq!(lane.holding.len(), 1, "the waiting poll took it at once");
}

#[test]
fn a_refused_call_is_narrated_and_changes_nothing() {
    let mut world = World::new(3);
    world
        .apply(by("p", "CreateQueue", json!({"QueueName": "orders"})))
        .unwrap();
    let bad = json!({"QueueUrl": URL, "ReceiptHandle": "not-a-handle"});
    let answer = world.apply(by("w", "DeleteMessage", bad)).unwrap();
    assert!(
        answer.to_string().contains("ReceiptHandleIsInvalid"),
        "{answer}"
    );
    assert!(
        world.workers().is_empty(),
        "a client is a consumer only once it receives"
    );
    let events = world.drain_events();
    assert!(
        events
            .iter()
            .any(|e| e.actor == Actor::Client("w".into())
                && e.text.contains("ReceiptHandleIsInvalid")),
        "{events:#?}"
    );
    assert!(world.apply(by(" ", "ListQueues", json!({}))).is_err());
}

#[test]
fn a_client_in_another_region_calls_there() {
    let abroad = Namespace::new("123456789012", "eu-west-1");
    let call = |namespace: &Namespace, action: &str, input: Value| {
        Step::Sim(SimAction::Call {
            by: "eu-client".into(),
            namespace: namespace.clone(),
            request: request(action, input),
        })
    };
    let mut world = World::new(7);
    let created = world
        .apply(call(&abroad, "CreateQueue", json!({"QueueName": "orders"})))
        .unwrap();
    assert_eq!(
        created["QueueUrl"],
        "https://sqs.eu-west-1.amazonaws.com/123456789012/orders"
    );
    // Listed where it was made, not in the engine's default account and region.
    let listed = |world: &mut World, namespace: &Namespace| {
        world
            .apply(call(namespace, "ListQueues", json!({})))
            .unwrap()
    };
    assert_eq!(
        listed(&mut world, &abroad)["QueueUrls"][0],
        created["QueueUrl"]
    );
    assert_eq!(
        listed(&mut world, &Namespace::DEFAULT).get("QueueUrls"),
        None
    );
    // The step reads back from its JSON with its namespace.
    let step = call(&abroad, "ListQueues", json!({}));
    let text = serde_json::to_string(&step).unwrap();
    assert!(text.contains("eu-west-1"), "{text}");
    let read: Step = serde_json::from_str(&text).unwrap();
    assert_eq!(read, step);
}

#[test]
fn the_world_shows_the_region_where_the_clients_queues_are() {
    let abroad = Namespace::new("000000000000", "eu-west-1");
    let url = abroad.queue_url("orders");
    let call = |by: &str, action: &str, input: Value| {
        Step::Sim(SimAction::Call {
            by: by.into(),
            namespace: abroad.clone(),
            request: request(action, input),
        })
    };
    let mut world = World::new(7);
    assert_eq!(world.focus(), &Namespace::DEFAULT);
    world
        .apply(call("shop", "CreateQueue", json!({"QueueName": "orders"})))
        .unwrap();
    // The default namespace holds no queue: the world shows the client's.
    assert_eq!(world.focus(), &abroad);
    for body in ["order-1", "order-2"] {
        let send = json!({"QueueUrl": url, "MessageBody": body});
        world.apply(call("shop", "SendMessage", send)).unwrap();
    }
    world
        .apply(call(
            "billing-1",
            "ReceiveMessage",
            json!({"QueueUrl": url}),
        ))
        .unwrap();
    assert_eq!(world.queue_depth("orders")["visible"], 1);
    assert_eq!(world.queue_depth("orders")["in_flight"], 1);
    assert_eq!(world.by_state()["in_flight"], 1);
    // A queue of the default namespace (the page's, a scenario's) takes the stage back.
    world
        .apply(by("you", "CreateQueue", json!({"QueueName": "orders"})))
        .unwrap();
    assert_eq!(
        world.focus(),
        &abroad,
        "the namespace shown still holds a queue"
    );
    world
        .apply(call("shop", "DeleteQueue", json!({"QueueUrl": url})))
        .unwrap();
    assert_eq!(world.focus(), &Namespace::DEFAULT);
    assert_eq!(world.queue_depth("orders")["visible"], 0);
}
