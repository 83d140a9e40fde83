//! Determinism: the same seed and the same log give the same world, whichever way it is rebuilt
//! (the scenario plus the user's actions, or the whole log into a fresh world), and `sqs-sim
//! run` (the script runner driving a World) ends where the playground does (the binary itself is
//! tested in server/tests/cli.rs).

use sqs_engine::script::{run, ScriptFile};
use sqs_sim::command::SimAction;
use sqs_sim::scenario::{find, library};
use sqs_sim::{Step, World, WorldEvent};

fn texts(world: &mut World) -> Vec<WorldEvent> {
    world.drain_events()
}

fn sim(action: SimAction) -> Step {
    Step::Sim(action)
}

/// A session: the scenario, plus a few user actions at odd times.
fn session(id: &str) -> World {
    let scenario = find(id).unwrap();
    let mut world = World::load(&scenario).unwrap();
    world.advance_to(7_500);
    let _ = world.apply(sim(SimAction::AddWorker {
        name: "Late worker".into(),
        policy: sqs_sim::WorkerPolicy {
            wait_time_seconds: 5,
            ..sqs_sim::WorkerPolicy::new(
                world
                    .workers()
                    .first()
                    .map_or("orders".into(), |w| w.policy.queue.clone()),
            )
        },
    }));
    world.advance_to(21_250);
    let _ = world.apply(sim(SimAction::Kill {
        worker: "Late worker".into(),
    }));
    world.advance_to(44_000);
    let _ = world.apply(sim(SimAction::Restart {
        worker: "Late worker".into(),
    }));
    world.advance_to(scenario.duration().max(60_000));
    world
}

#[test]
fn replaying_the_actions_over_the_scenario_rebuilds_the_same_world() {
    for scenario in library() {
        let mut original = session(&scenario.id);
        let end = original.now();
        let mut replayed = World::replay(&scenario, original.actions(), end).unwrap();
        assert_eq!(original.summary(), replayed.summary(), "{}", scenario.id);
        assert_eq!(original.ledger(), replayed.ledger(), "{}", scenario.id);
        assert_eq!(original.metrics(), replayed.metrics(), "{}", scenario.id);
        assert_eq!(
            texts(&mut original),
            texts(&mut replayed),
            "{}",
            scenario.id
        );
    }
}

#[test]
fn replaying_the_whole_log_into_a_fresh_world_rebuilds_the_same_world() {
    for scenario in library() {
        let mut original = session(&scenario.id);
        let end = original.now();
        let mut replayed = World::from_log(original.seed(), original.log(), end).unwrap();
        assert_eq!(original.summary(), replayed.summary(), "{}", scenario.id);
        assert_eq!(original.log(), replayed.log(), "{}", scenario.id);
        assert_eq!(
            texts(&mut original),
            texts(&mut replayed),
            "{}",
            scenario.id
        );
    }
}

#[test]
fn rewinding_gives_the_world_as_it_was_then() {
    let scenario = find("crash-before-delete").unwrap();
    let mut at_20 = World::load(&scenario).unwrap();
    at_20.advance_to(20_000);
    let rewound = World::replay(&scenario, &[], 20_000).unwrap();
    assert_eq!(at_20.summary(), rewound.summary());
    assert_eq!(rewound.workers()[0].status, sqs_sim::WorkerStatus::Dead);
}

#[test]
fn sqs_sim_run_ends_with_the_summary_the_playground_reaches() {
    for scenario in library() {
        let text = serde_json::to_string(&scenario).unwrap();
        let script = ScriptFile::parse(&text).unwrap();
        let mut driver = World::new(script.seed);
        let lines = run(&mut driver, &script).unwrap_or_else(|e| panic!("{}: {e}", scenario.id));
        let last = lines.last().unwrap().to_value();
        let expected = serde_json::to_value(scenario.run().unwrap().summary()).unwrap();
        assert_eq!(last["summary"], expected, "{}", scenario.id);
    }
}

#[test]
fn a_plain_engine_script_prints_no_summary_line() {
    let script = ScriptFile::parse(
        r#"{"steps": [{"call": "CreateQueue", "input": {"QueueName": "q"}, "as": "Q"},
                      {"call": "SendMessage", "input": {"QueueUrl": "${Q.QueueUrl}", "MessageBody": "a"}}]}"#,
    )
    .unwrap();
    let with_world = run(&mut World::new(0), &script).unwrap();
    let with_engine = run(&mut sqs_engine::Engine::new(0), &script).unwrap();
    let text = |lines: Vec<sqs_engine::script::Line>| -> Vec<String> {
        lines.iter().map(ToString::to_string).collect()
    };
    assert_eq!(text(with_world), text(with_engine));
}

#[test]
fn a_world_that_narrates_nothing_reaches_the_same_state() {
    let scenario = sqs_sim::bench::day_scenario(5);
    let mut told = World::load(&scenario).unwrap();
    let mut silent = World::load(&scenario).unwrap();
    silent.set_event_buffer(0);
    silent.drain_events();
    for t in (60_000..=600_000).step_by(60_000) {
        told.advance_to(t);
        silent.advance_to(t);
        assert!(told.drain_events().len() > 100);
        let note = silent.drain_events();
        assert_eq!(note.len(), 1, "only the note of what was left out");
        assert!(
            note[0].text.starts_with("Fast-forward: "),
            "{}",
            note[0].text
        );
        assert_eq!(silent.summary(), told.summary(), "at {t}");
        assert_eq!(silent.metrics(), told.metrics(), "at {t}");
        assert_eq!(silent.ledger(), told.ledger(), "at {t}");
        assert_eq!(silent.workers(), told.workers(), "at {t}");
        assert_eq!(
            silent.engine().messages("orders"),
            told.engine().messages("orders")
        );
    }
}

#[test]
fn a_fast_forward_narrated_from_its_narration_start_tells_the_latest_events_as_they_were_told() {
    let scenario = sqs_sim::bench::day_scenario(9);
    let texts = |events: &[WorldEvent]| events.iter().map(|e| e.text.clone()).collect::<Vec<_>>();
    // Narrated all along, drained every 250 ms, as frames do.
    let mut told = World::load(&scenario).unwrap();
    let mut all = Vec::new();
    for t in (0..=95_000).step_by(250) {
        told.advance_to(t);
        all.extend(told.drain_events());
    }
    // Silent to the end; the same world again, silent to its narration start, narrated after.
    let mut silent = World::load(&scenario).unwrap();
    silent.set_event_buffer(0);
    silent.advance_to(95_000);
    let from = silent
        .narration_start()
        .expect("thousands of events happened");
    assert_eq!(
        Some(from),
        told.narration_start(),
        "told or not, the same start"
    );
    // Back to the oldest receive in flight at most: a visibility timeout (30 s) ago.
    assert!(from >= 95_000 - 30_000, "narrated from {from}");
    let mut again = World::load(&scenario).unwrap();
    again.set_event_buffer(0);
    again.advance_to(from);
    again.drain_events();
    again.set_event_buffer(sqs_sim::EVENT_BUFFER);
    again.advance_to(95_000);
    let tail = again.drain_events();
    assert!(tail.len() >= sqs_sim::NARRATED_TAIL, "{}", tail.len());
    assert_eq!(texts(&tail), texts(&all[all.len() - tail.len()..]));
}

/// Sends a short and a long body to `orders` (maxReceiveCount 1), lets both reach `orders-dlq`
/// and moves them back, narrating from `narrate_from` (ms) on; then receives them by hand and
/// returns what that receive narrates.
fn redrive_story(narrate_from: sqs_engine::Millis) -> Vec<String> {
    let mut world = World::new(3);
    let call = |world: &mut World, action: &str, input: serde_json::Value| {
        let step = serde_json::from_value(serde_json::json!({"call": action, "input": input}));
        world.apply(step.unwrap()).unwrap()
    };
    if narrate_from > 0 {
        world.set_event_buffer(0);
    }
    call(
        &mut world,
        "CreateQueue",
        serde_json::json!({"QueueName": "orders-dlq"}),
    );
    let arn = world.engine().queue_arn("orders-dlq").unwrap();
    let policy = format!(r#"{{"deadLetterTargetArn":"{arn}","maxReceiveCount":"1"}}"#);
    let q = call(
        &mut world,
        "CreateQueue",
        serde_json::json!({"QueueName": "orders",
            "Attributes": {"VisibilityTimeout": "1", "RedrivePolicy": policy}}),
    );
    let url = q["QueueUrl"].as_str().unwrap().to_string();
    for body in ["S", "a body far too long to name its message"] {
        call(
            &mut world,
            "SendMessage",
            serde_json::json!({"QueueUrl": url, "MessageBody": body}),
        );
    }
    let receive = serde_json::json!({"QueueUrl": url, "MaxNumberOfMessages": 10});
    for t in [0, 2_000] {
        world.advance_to(t);
        call(&mut world, "ReceiveMessage", receive.clone());
    }
    assert_eq!(
        world.queue_depth("orders-dlq")["visible"],
        2,
        "both dead-lettered"
    );
    call(
        &mut world,
        "StartMessageMoveTask",
        serde_json::json!({"SourceArn": arn}),
    );
    world.advance_to(narrate_from.max(60_000));
    assert_eq!(world.queue_depth("orders")["visible"], 2, "both moved back");
    world.drain_events();
    world.set_event_buffer(sqs_sim::EVENT_BUFFER);
    call(&mut world, "ReceiveMessage", receive);
    world.drain_events().into_iter().map(|e| e.text).collect()
}

#[test]
fn labels_that_lapsed_while_nothing_was_narrated_come_back_as_they_were() {
    let told = redrive_story(0);
    assert!(told.iter().any(|t| t.contains("got S ")), "{told:?}");
    // The long body's message is named after the message it was, not by its new MessageId.
    assert_eq!(told.iter().filter(|t| t.contains(": got ")).count(), 2);
    assert_eq!(redrive_story(90_000), told);
}
