//! Worker lanes beyond the library: manual mode, drag-and-drop delivery, Lambda's partial batch
//! failure reporting, heartbeat caps, holders, samples and the narration.

use serde_json::json;
use sqs_sim::command::SimAction;
use sqs_sim::worker::{EffectStep, Heartbeat, ProcessingTime, WorkerMode};
use sqs_sim::{Actor, Scenario, Step, WorkerPolicy, WorkerStatus, World};

fn call(world: &mut World, action: &str, input: serde_json::Value) -> serde_json::Value {
    let step: Step = serde_json::from_value(json!({"call": action, "input": input})).unwrap();
    world.apply(step).unwrap()
}

fn sim(world: &mut World, action: SimAction) -> Result<serde_json::Value, String> {
    world.apply(Step::Sim(action))
}

/// A world with queue `q` (VisibilityTimeout `vt`) holding these bodies; returns their ids.
fn world_with(vt: u32, bodies: &[&str]) -> (World, Vec<String>) {
    let mut world = World::new(5);
    call(
        &mut world,
        "CreateQueue",
        json!({"QueueName": "q", "Attributes": {"VisibilityTimeout": vt.to_string()}}),
    );
    let url = world.engine().queue_url("q").unwrap();
    let ids = bodies
        .iter()
        .map(|body| {
            let out = call(
                &mut world,
                "SendMessage",
                json!({"QueueUrl": url, "MessageBody": body}),
            );
            out["MessageId"].as_str().unwrap().to_string()
        })
        .collect();
    (world, ids)
}

fn manual() -> WorkerPolicy {
    WorkerPolicy {
        mode: WorkerMode::Manual,
        ..WorkerPolicy::new("q")
    }
}

fn add(world: &mut World, name: &str, policy: WorkerPolicy) {
    sim(
        world,
        SimAction::AddWorker {
            name: name.into(),
            policy,
        },
    )
    .unwrap();
}

#[test]
fn in_manual_mode_the_user_receives_extends_and_deletes() {
    let (mut world, ids) = world_with(30, &["M"]);
    add(&mut world, "You", manual());
    world.advance_to(5_000);
    assert_eq!(
        world.summary().deliveries,
        0,
        "a manual worker never polls by itself"
    );
    sim(
        &mut world,
        SimAction::Receive {
            worker: "You".into(),
        },
    )
    .unwrap();
    assert_eq!(world.holder_of(&ids[0]), Some("You"));
    assert_eq!(world.workers()[0].holding.len(), 1);
    sim(
        &mut world,
        SimAction::Extend {
            worker: "You".into(),
            message_id: ids[0].clone(),
            visibility_timeout: 120,
        },
    )
    .unwrap();
    world.advance_to(60_000);
    assert_eq!(
        world.holder_of(&ids[0]),
        Some("You"),
        "extended past the 30 s timeout"
    );
    sim(
        &mut world,
        SimAction::Delete {
            worker: "You".into(),
            message_id: ids[0].clone(),
        },
    )
    .unwrap();
    assert_eq!(world.holder_of(&ids[0]), None);
    assert!(world.workers()[0].holding.is_empty());
    assert_eq!(world.summary().deleted, 1);
    let texts: Vec<String> = world.drain_events().into_iter().map(|e| e.text).collect();
    assert!(
        texts.contains(&"You called ChangeMessageVisibility: M hidden for 120 s more".to_string()),
        "{texts:#?}"
    );
    assert!(
        texts.contains(&"You called DeleteMessage: M deleted".to_string()),
        "{texts:#?}"
    );
}

#[test]
fn a_dragged_message_goes_to_that_worker() {
    let (mut world, ids) = world_with(30, &["first", "second"]);
    add(&mut world, "Hands", manual());
    sim(
        &mut world,
        SimAction::Deliver {
            worker: "Hands".into(),
            message_id: ids[1].clone(),
        },
    )
    .unwrap();
    assert_eq!(world.holder_of(&ids[1]), Some("Hands"));
    assert_eq!(world.holder_of(&ids[0]), None);
    let again = sim(
        &mut world,
        SimAction::Deliver {
            worker: "Hands".into(),
            message_id: ids[1].clone(),
        },
    );
    assert!(again.is_err(), "a message in flight cannot be taken again");
}

#[test]
fn an_expired_lease_is_marked_on_the_worker_still_holding_it() {
    let (mut world, ids) = world_with(10, &["M"]);
    add(
        &mut world,
        "Slow",
        WorkerPolicy {
            processing: ProcessingTime::Fixed { seconds: 30.0 },
            ..WorkerPolicy::new("q")
        },
    );
    world.advance_to(11_000);
    let slow = &world.workers()[0];
    assert_eq!(slow.status, WorkerStatus::Processing);
    assert!(slow.holding[0].lease_expired);
    assert_eq!(
        world.holder_of(&ids[0]),
        None,
        "visible again: nobody holds it"
    );
}

fn lambda(report: bool) -> WorkerPolicy {
    WorkerPolicy {
        mode: WorkerMode::Lambda {
            batch_size: 4,
            maximum_batching_window_in_seconds: 0,
            function_timeout: 30,
            report_batch_item_failures: report,
            reserved_concurrency: None,
        },
        processing: ProcessingTime::Fixed { seconds: 1.0 },
        effects: vec![EffectStep {
            name: "fulfil".into(),
            idempotent: false,
        }],
        poison_marker: Some("POISON".into()),
        ..WorkerPolicy::new("q")
    }
}

#[test]
fn lambda_with_report_batch_item_failures_deletes_all_but_the_failed_message() {
    let (mut world, ids) = world_with(180, &["m1", "m2 POISON", "m3", "m4"]);
    add(&mut world, "Lambda", lambda(true));
    world.advance_to(10_000);
    assert_eq!(world.summary().deleted, 3);
    assert_eq!(world.metrics().api_calls()["DeleteMessageBatch"], 1);
    let left = world.engine().messages("q");
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].message_id, ids[1]);
    assert!(world.workers()[0].warnings.is_empty(), "180 s is 6x 30 s");
}

#[test]
fn lambda_without_reporting_sends_the_whole_batch_back_and_redoes_the_good_messages() {
    let (mut world, _) = world_with(180, &["m1", "m2 POISON", "m3", "m4"]);
    add(&mut world, "Lambda", lambda(false));
    world.advance_to(10_000);
    assert_eq!(world.summary().deleted, 0);
    world.advance_to(200_000);
    assert!(world.ledger().duplicates() >= 1, "m1 is fulfilled again");
}

#[test]
fn lambda_refuses_a_mapping_whose_function_timeout_exceeds_the_visibility_timeout() {
    let (mut world, _) = world_with(20, &["m1"]);
    let refused = sim(
        &mut world,
        SimAction::AddWorker {
            name: "Lambda".into(),
            policy: lambda(true),
        },
    );
    assert_eq!(
        refused.unwrap_err(),
        "InvalidParameterValueException: Queue visibility timeout: 20 seconds is less than Function timeout: 30 seconds"
    );
    assert!(world.workers().is_empty(), "nothing was added");
    // Equal is allowed; a later change of the queue is not checked again, only warned about.
    let url = world.engine().queue_url("q").unwrap();
    let set = |world: &mut World, vt: &str| {
        let input = json!({"QueueUrl": url, "Attributes": {"VisibilityTimeout": vt}});
        call(world, "SetQueueAttributes", input);
    };
    set(&mut world, "30");
    add(&mut world, "Lambda", lambda(true));
    set(&mut world, "10");
    assert!(world.workers()[0].warnings[0].contains("Lambda refuses to create such a mapping"));
    let update = SimAction::SetPolicy {
        worker: "Lambda".into(),
        policy: lambda(false),
    };
    assert!(sim(&mut world, update)
        .unwrap_err()
        .contains("Function timeout: 30 seconds"));
}

#[test]
fn the_lambda_function_timeout_ends_the_invocation_without_deletes() {
    let (mut world, _) = world_with(180, &["m1", "m2"]);
    let mut policy = lambda(true);
    policy.processing = ProcessingTime::Fixed { seconds: 20.0 };
    add(&mut world, "Lambda", policy);
    world.advance_to(31_000);
    assert_eq!(world.summary().deleted, 0);
    assert_eq!(
        world.ledger().performed_named("fulfil"),
        1,
        "m2 never finished"
    );
    assert!(world.workers()[0].holding.is_empty());
}

#[test]
fn the_heartbeat_stops_at_its_cap_and_the_message_comes_back() {
    let (mut world, _) = world_with(20, &["long job"]);
    let policy = WorkerPolicy {
        processing: ProcessingTime::Fixed { seconds: 100.0 },
        heartbeat: Some(Heartbeat {
            every: 10.0,
            extend_by: 20,
            max_extensions: Some(2),
            max_total: None,
        }),
        ..WorkerPolicy::new("q")
    };
    add(&mut world, "A", policy);
    world.advance_to(45_000);
    assert_eq!(world.metrics().api_calls()["ChangeMessageVisibility"], 2);
    assert!(
        world.workers()[0].holding[0].lease_expired,
        "hidden until 40 s, then visible"
    );
}

#[test]
fn a_hung_worker_stops_heartbeating() {
    let (mut world, _) = world_with(20, &["job"]);
    let policy = WorkerPolicy {
        processing: ProcessingTime::Fixed { seconds: 100.0 },
        heartbeat: Some(Heartbeat {
            every: 10.0,
            extend_by: 20,
            max_extensions: None,
            max_total: None,
        }),
        ..WorkerPolicy::new("q")
    };
    add(&mut world, "A", policy);
    world.advance_to(15_000);
    sim(&mut world, SimAction::Hang { worker: "A".into() }).unwrap();
    world.advance_to(60_000);
    assert_eq!(world.metrics().api_calls()["ChangeMessageVisibility"], 1);
    assert_eq!(world.workers()[0].status, WorkerStatus::Hung);
    assert_eq!(world.engine().messages("q").len(), 1);
}

#[test]
fn producers_send_on_their_schedule_with_templates() {
    let (mut world, _) = world_with(30, &[]);
    sim(
        &mut world,
        SimAction::AddProducer(sqs_sim::worker::ProducerSpec {
            name: "P".into(),
            queue: "q".into(),
            every: 2.0,
            count: Some(3),
            body: "job-{n}".into(),
            delay_seconds: None,
            group_id: None,
            deduplication_id: None,
        }),
    )
    .unwrap();
    world.advance_to(10_000);
    let bodies: Vec<String> = world
        .engine()
        .messages("q")
        .into_iter()
        .map(|m| m.body)
        .collect();
    assert_eq!(bodies, ["job-1", "job-2", "job-3"]);
    assert!(world
        .drain_events()
        .iter()
        .any(|e| e.actor == Actor::Producer("P".into())
            && e.text == "P called SendMessage: job-3 stored in q"));
}

#[test]
fn samples_follow_the_depth_every_second() {
    let (mut world, _) = world_with(30, &["a", "b"]);
    world.advance_to(3_500);
    let samples = &world.metrics().samples;
    assert_eq!(
        samples.iter().map(|s| s.at).collect::<Vec<_>>(),
        [0, 1000, 2000, 3000]
    );
    assert!(samples.iter().all(|s| s.visible == 2));
}

#[test]
fn mistakes_are_refused_and_change_nothing() {
    let (mut world, _) = world_with(30, &[]);
    let before = world.log().len();
    assert!(sim(
        &mut world,
        SimAction::Kill {
            worker: "nobody".into()
        }
    )
    .is_err());
    let bad: Step = serde_json::from_value(
        json!({"call": "DeleteMessage", "input": {"QueueUrl": "nope", "ReceiptHandle": "x"}}),
    )
    .unwrap();
    assert!(world.apply(bad).is_err());
    assert_eq!(world.log().len(), before);
    assert_eq!(world.summary().api_calls, 1, "CreateQueue and nothing else");
}

#[test]
fn parse_errors_name_the_file_and_step() {
    let error = Scenario::parse(
        "x",
        r#"{"steps": [{"advance": 1}, {"sim": "Explode", "input": {}}]}"#,
    )
    .unwrap_err();
    assert!(
        error.starts_with("x: step 1: sim step: unknown variant `Explode`"),
        "{error}"
    );
    let error = Scenario::parse("y", r#"{"steps": [{"jump": 1}]}"#).unwrap_err();
    assert_eq!(
        error,
        "y: step 0: unknown step kind (expected \"call\", \"sim\", \"advance\" or \"await\")"
    );
}

#[test]
fn sim_steps_serialise_as_documented() {
    let step = Step::Sim(SimAction::Extend {
        worker: "A".into(),
        message_id: "m".into(),
        visibility_timeout: 60,
    });
    assert_eq!(
        serde_json::to_value(&step).unwrap(),
        json!({"sim": "Extend", "input": {"worker": "A", "message_id": "m", "visibility_timeout": 60}})
    );
    let policy: WorkerPolicy = serde_json::from_value(json!({"queue": "q"})).unwrap();
    assert_eq!(policy, WorkerPolicy::new("q"));
}

#[test]
fn the_heartbeat_stops_once_its_total_time_cap_is_reached() {
    let (mut world, _) = world_with(20, &["job"]);
    let policy = WorkerPolicy {
        processing: ProcessingTime::Fixed { seconds: 100.0 },
        heartbeat: Some(Heartbeat {
            every: 10.0,
            extend_by: 20,
            max_extensions: None,
            max_total: Some(25.0),
        }),
        ..WorkerPolicy::new("q")
    };
    add(&mut world, "A", policy);
    world.advance_to(80_000);
    // Extensions at 10 s and 20 s; at 30 s the job has run past 25 s, so no more.
    assert_eq!(world.metrics().api_calls()["ChangeMessageVisibility"], 2);
    assert!(world
        .drain_events()
        .iter()
        .any(|e| e.text == "A stops its heartbeat: the extension cap is reached"));
}

#[test]
fn a_policy_sqs_would_refuse_is_refused_up_front() {
    let (mut world, _) = world_with(30, &[]);
    let policy = WorkerPolicy {
        max_messages: 11,
        ..WorkerPolicy::new("q")
    };
    let error = sim(
        &mut world,
        SimAction::AddWorker {
            name: "A".into(),
            policy,
        },
    )
    .unwrap_err();
    assert!(error.contains("between 1 and 10"), "{error}");
    assert!(world.workers().is_empty());
}

#[test]
fn a_manual_lane_lets_go_of_a_message_deleted_by_a_raw_call() {
    let (mut world, ids) = world_with(30, &["M"]);
    add(&mut world, "You", manual());
    sim(
        &mut world,
        SimAction::Receive {
            worker: "You".into(),
        },
    )
    .unwrap();
    let handle = world.workers()[0].holding[0].receipt_handle.clone();
    let url = world.engine().queue_url("q").unwrap();
    call(
        &mut world,
        "DeleteMessage",
        json!({"QueueUrl": url, "ReceiptHandle": handle}),
    );
    assert!(world.workers()[0].holding.is_empty());
    assert_eq!(world.holder_of(&ids[0]), None);
}

/// §12's flow as recorded against AWS (LocalStack's test_report_batch_item_failures): a FIFO queue
/// with VisibilityTimeout 8 and maxReceiveCount 2, a mapping with ReportBatchItemFailures. The
/// first invocation reports m2, m3 and m4; the second gets those three with
/// ApproximateReceiveCount 2 and reports m4; m4 then lands in the dead-letter queue and there is
/// no third invocation.
#[test]
fn lambda_partial_batch_failures_on_fifo_follow_the_aws_recorded_flow() {
    let mut world = World::new(5);
    let fifo = json!({"FifoQueue": "true", "ContentBasedDeduplication": "true"});
    call(
        &mut world,
        "CreateQueue",
        json!({"QueueName": "dlq.fifo", "Attributes": fifo}),
    );
    let dlq_url = world.engine().queue_url("dlq.fifo").unwrap();
    let dlq = call(
        &mut world,
        "GetQueueAttributes",
        json!({"QueueUrl": dlq_url, "AttributeNames": ["QueueArn"]}),
    );
    let redrive =
        json!({"deadLetterTargetArn": dlq["Attributes"]["QueueArn"], "maxReceiveCount": 2});
    let mut attributes = fifo.clone();
    attributes["VisibilityTimeout"] = json!("8");
    attributes["RedrivePolicy"] = json!(redrive.to_string());
    call(
        &mut world,
        "CreateQueue",
        json!({"QueueName": "q.fifo", "Attributes": attributes}),
    );
    let url = world.engine().queue_url("q.fifo").unwrap();
    for body in ["m1", "m2", "m3", "m4 POISON"] {
        let input = json!({"QueueUrl": url, "MessageBody": body, "MessageGroupId": "g"});
        call(&mut world, "SendMessage", input);
    }
    let mut policy = lambda(true);
    policy.queue = "q.fifo".into();
    policy.mode = WorkerMode::Lambda {
        batch_size: 10,
        maximum_batching_window_in_seconds: 0,
        function_timeout: 8,
        report_batch_item_failures: true,
        reserved_concurrency: None,
    };
    add(&mut world, "Lambda", policy);
    let bodies_held = |world: &World| -> Vec<(String, u32)> {
        let lane = &world.workers()[0];
        lane.holding
            .iter()
            .map(|h| {
                let m = world.engine().messages("q.fifo");
                let body = m.iter().find(|m| m.message_id == h.message_id).unwrap();
                (body.body.to_string(), h.receive_count)
            })
            .collect()
    };
    // One second per message: the function fails m2 (at 1.5 s) and m3 (at 2 s); m4 is poison.
    world.advance_to(500);
    let first: Vec<String> = bodies_held(&world).into_iter().map(|(b, _)| b).collect();
    assert_eq!(first, ["m1", "m2", "m3", "m4 POISON"]);
    world.advance_to(1_500);
    sim(
        &mut world,
        SimAction::FailJob {
            worker: "Lambda".into(),
        },
    )
    .unwrap();
    world.advance_to(2_000);
    sim(
        &mut world,
        SimAction::FailJob {
            worker: "Lambda".into(),
        },
    )
    .unwrap();
    world.advance_to(8_500);
    let second = bodies_held(&world);
    let expected = [("m2", 2), ("m3", 2), ("m4 POISON", 2)].map(|(b, n)| (b.to_string(), n));
    assert_eq!(second, expected, "the reported three, each received twice");
    world.advance_to(60_000);
    let invocations = world
        .drain_events()
        .iter()
        .filter(|e| e.text.starts_with("Lambda invoked"))
        .count();
    assert_eq!(invocations, 2, "no third invocation");
    assert_eq!(world.summary().deleted, 3);
    assert!(world.engine().messages("q.fifo").is_empty());
    let dead = world.engine().messages("dlq.fifo");
    assert_eq!(dead.len(), 1);
    assert_eq!(&*dead[0].body, "m4 POISON");
}

/// §12: with MaximumBatchingWindowInSeconds a poller keeps receiving (10 at a time) until the
/// batch holds BatchSize messages or the window ends; the messages' visibility timeouts run
/// meanwhile.
#[test]
fn a_lambda_batching_window_gathers_up_to_the_batch_size() {
    let bodies: Vec<String> = (1..=12).map(|n| format!("m{n}")).collect();
    let bodies: Vec<&str> = bodies.iter().map(String::as_str).collect();
    let (mut world, _) = world_with(120, &bodies);
    let mut policy = lambda(true);
    policy.processing = ProcessingTime::Fixed { seconds: 0.1 };
    policy.mode = WorkerMode::Lambda {
        batch_size: 25,
        maximum_batching_window_in_seconds: 5,
        function_timeout: 30,
        report_batch_item_failures: true,
        reserved_concurrency: None,
    };
    add(&mut world, "Lambda", policy);
    assert!(
        world.workers()[0].warnings[0].contains("6 x 30 s + 5 s = 185 s"),
        "the 6x rule adds the batching window"
    );
    world.drain_events();
    world.advance_to(4_900);
    let lane = &world.workers()[0];
    assert_eq!(lane.holding.len(), 12, "received in two calls, 10 then 2");
    assert!(
        lane.holding.iter().all(|h| h.done_at.is_none()),
        "not invoked yet"
    );
    assert_eq!(world.summary().deleted, 0);
    world.advance_to(7_000);
    let invoked: Vec<(u64, String)> = world
        .drain_events()
        .into_iter()
        .filter(|e| e.text.starts_with("Lambda invoked"))
        .map(|e| (e.at, e.text))
        .collect();
    assert_eq!(invoked.len(), 1);
    assert_eq!(invoked[0].0, 5_000, "at the end of the window");
    assert!(
        invoked[0].1.contains("gathered over 5 s"),
        "{}",
        invoked[0].1
    );
    assert_eq!(world.summary().deleted, 12);

    // 30 more: a full batch of 25 is invoked at once, the other 5 wait for their window.
    let url = world.engine().queue_url("q").unwrap();
    for n in 13..=42 {
        let input = json!({"QueueUrl": url, "MessageBody": format!("m{n}")});
        call(&mut world, "SendMessage", input);
    }
    world.advance_to(7_001);
    let sizes: Vec<usize> = world
        .drain_events()
        .into_iter()
        .filter(|e| e.text.starts_with("Lambda invoked"))
        .map(|e| {
            let label = |w: &&str| {
                w.strip_prefix('m')
                    .is_some_and(|n| n.parse::<u32>().is_ok())
            };
            e.text.split([' ', ',']).filter(label).count()
        })
        .collect();
    assert_eq!(sizes, [25], "one invocation, full, without waiting");
    assert_eq!(world.workers()[0].holding.len(), 30);
    world.advance_to(20_000);
    assert_eq!(world.summary().deleted, 42);
}

/// Lambda refuses a batching window, or a batch over 10, on a FIFO queue.
#[test]
fn a_fifo_mapping_takes_no_batching_window_and_at_most_ten() {
    let mut world = World::new(5);
    let attributes = json!({"FifoQueue": "true", "VisibilityTimeout": "300"});
    call(
        &mut world,
        "CreateQueue",
        json!({"QueueName": "q.fifo", "Attributes": attributes}),
    );
    let mapping = |batch_size, window| {
        let mut policy = lambda(true);
        policy.queue = "q.fifo".into();
        policy.mode = WorkerMode::Lambda {
            batch_size,
            maximum_batching_window_in_seconds: window,
            function_timeout: 30,
            report_batch_item_failures: true,
            reserved_concurrency: None,
        };
        SimAction::AddWorker {
            name: "Lambda".into(),
            policy,
        }
    };
    assert_eq!(
        sim(&mut world, mapping(10, 1)).unwrap_err(),
        "InvalidParameterValueException: Batching window is not supported for FIFO queues"
    );
    assert!(sim(&mut world, mapping(11, 0))
        .unwrap_err()
        .contains("greater than 0 if maximum batch size is greater than 10"));
    assert!(world.workers().is_empty());
    sim(&mut world, mapping(10, 0)).unwrap();
}

/// §12: a batchItemFailures entry whose itemIdentifier is no MessageId of the batch fails the
/// whole batch, even the messages the function processed.
#[test]
fn a_bad_item_identifier_fails_the_whole_batch() {
    let (mut world, _) = world_with(180, &["m1", "m2", "m3"]);
    add(&mut world, "Lambda", lambda(true));
    let bad = |world: &mut World| {
        let worker = "Lambda".to_string();
        sim(world, SimAction::BadItemIdentifier { worker })
    };
    bad(&mut world).unwrap();
    assert_eq!(world.workers()[0].armed_faults, ["BadItemIdentifier"]);
    world.advance_to(10_000);
    assert_eq!(world.summary().deleted, 0, "nothing deleted");
    assert_eq!(
        world.ledger().performed_named("fulfil"),
        3,
        "all were processed"
    );
    assert!(world.workers()[0].armed_faults.is_empty(), "used up");
    world.advance_to(200_000);
    assert_eq!(
        world.summary().deleted,
        3,
        "the next invocation's response is good"
    );
    // Only a Lambda worker that reports batch item failures has such a response.
    add(&mut world, "Lambda 2", lambda(false));
    let worker = "Lambda 2".to_string();
    let refused = sim(&mut world, SimAction::BadItemIdentifier { worker });
    assert!(refused.unwrap_err().contains("ReportBatchItemFailures"));
    assert!(world.workers()[1].armed_faults.is_empty());
}

#[test]
fn after_a_worker_is_removed_the_others_are_still_found_by_what_they_hold() {
    let (mut world, ids) = world_with(30, &["a", "b", "c"]);
    for name in ["A", "B", "C"] {
        add(&mut world, name, manual());
    }
    for (name, id) in ["A", "B", "C"].iter().zip(&ids) {
        let deliver = SimAction::Deliver {
            worker: name.to_string(),
            message_id: id.clone(),
        };
        sim(&mut world, deliver).unwrap();
    }
    // Each hand delivery counts as a ReceiveMessage.
    assert_eq!(world.metrics().api_calls()["ReceiveMessage"], 3);
    // C, looked up last, moves from the third place to the second.
    assert_eq!(world.holder_of(&ids[2]), Some("C"));
    let remove = SimAction::RemoveWorker { worker: "B".into() };
    sim(&mut world, remove).unwrap();
    assert_eq!(world.holder_of(&ids[2]), Some("C"));
    assert_eq!(world.holder_of(&ids[0]), Some("A"));
    assert_eq!(world.holder_of(&ids[1]), None);
    let held: Vec<usize> = world.workers().iter().map(|w| w.holding.len()).collect();
    assert_eq!(held, [1, 1]);
}

/// A batch still gathering when its mapping moves to another queue is invoked with what it has:
/// the new queue's messages go into a batch of their own, deleted from their own queue.
#[test]
fn a_gathering_batch_takes_no_message_of_another_queue() {
    let (mut world, _) = world_with(120, &["q1", "q2"]);
    call(
        &mut world,
        "CreateQueue",
        json!({"QueueName": "r", "Attributes": {"VisibilityTimeout": "120"}}),
    );
    let windowed = |queue: &str, window| {
        let mut policy = lambda(true);
        policy.queue = queue.into();
        policy.mode = WorkerMode::Lambda {
            batch_size: 50,
            maximum_batching_window_in_seconds: window,
            function_timeout: 20,
            report_batch_item_failures: true,
            reserved_concurrency: None,
        };
        policy
    };
    add(&mut world, "Lambda", windowed("q", 60));
    world.advance_to(1_000);
    assert_eq!(world.workers()[0].holding.len(), 2, "gathering q's two");
    let update = SimAction::SetPolicy {
        worker: "Lambda".into(),
        policy: windowed("r", 10),
    };
    sim(&mut world, update).unwrap();
    let r = world.engine().queue_url("r").unwrap();
    for body in ["r1", "r2"] {
        call(
            &mut world,
            "SendMessage",
            json!({"QueueUrl": r, "MessageBody": body}),
        );
    }
    // The long poll on q ends empty at 20 s; the poll on r then gets r1 and r2 while q's batch
    // still gathers (until 60 s).
    world.advance_to(90_000);
    assert_eq!(
        world.summary().deleted,
        4,
        "each batch deleted from its own queue"
    );
    assert!(world.engine().messages("q").is_empty() && world.engine().messages("r").is_empty());
}

/// A worker polls again at the instant its job ends, after what was already due at that instant
/// (here a send scheduled before): the poll then takes the message at once. When nothing else
/// is due, the poll is made at that instant too.
#[test]
fn a_worker_polls_again_when_its_job_ends_after_what_was_due_then() {
    use sqs_engine::EventKind;
    let (mut world, _) = world_with(30, &[]);
    let policy = WorkerPolicy {
        wait_time_seconds: 20,
        processing: ProcessingTime::Fixed { seconds: 1.0 },
        ..WorkerPolicy::new("q")
    };
    add(&mut world, "W", policy);
    sim(
        &mut world,
        SimAction::AddProducer(sqs_sim::worker::ProducerSpec {
            name: "P".into(),
            queue: "q".into(),
            every: 1.0,
            count: Some(2),
            body: "m-{n}".into(),
            delay_seconds: None,
            group_id: None,
            deduplication_id: None,
        }),
    )
    .unwrap();
    world.advance_to(2_500);
    let events = world.drain_events();
    let long_polls: Vec<u64> = events
        .iter()
        .filter(|e| matches!(e.engine, Some(EventKind::LongPollStarted { .. })))
        .map(|e| e.at)
        .collect();
    // At 0 the first poll waits for m-1; at 1 s the job for m-1 ends as P sends m-2, which
    // was due first: the poll finds m-2 without waiting; at 2 s nothing else is due.
    assert_eq!(long_polls, [0, 2_000]);
    let received: Vec<(u64, Option<&str>)> = events
        .iter()
        .filter(|e| matches!(e.engine, Some(EventKind::Received { .. })))
        .map(|e| (e.at, e.action.as_deref()))
        .collect();
    assert_eq!(
        received,
        [(0, Some("ReceiveMessage")), (1_000, Some("ReceiveMessage"))]
    );
}

#[test]
fn a_worker_whose_queue_is_deleted_stops_calling_and_consumes_the_queue_made_again() {
    let (mut world, _) = world_with(30, &[]);
    add(&mut world, "W", WorkerPolicy::new("q"));
    world.advance_to(3_000);
    let url = world.engine().queue_url("q").unwrap();
    call(&mut world, "DeleteQueue", json!({"QueueUrl": url}));
    let calls = world.workers()[0].api_calls;
    world.advance_to(30_000);
    assert_eq!(
        world.workers()[0].api_calls,
        calls,
        "no queue of that name: nothing to call"
    );
    world.advance_to(63_000);
    call(&mut world, "CreateQueue", json!({"QueueName": "q"}));
    let url = world.engine().queue_url("q").unwrap();
    call(
        &mut world,
        "SendMessage",
        json!({"QueueUrl": url, "MessageBody": "M"}),
    );
    world.advance_to(75_000);
    assert_eq!(world.workers()[0].deliveries, 1);
    assert_eq!(world.summary().deleted, 1);
}
