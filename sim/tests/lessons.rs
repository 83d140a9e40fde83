//! The library's questions ([`sqs_sim::lesson`]), answered by the world: each library scenario
//! runs as the player plays it, stopping at every question's `at` and playing on to its
//! `reveal_at`, where the correct choice's claim must hold and every other choice's must not
//! (and a world played there without stopping must agree). So no question can teach something
//! the engine contradicts. Plus the errors a bad question gets.

use serde_json::{json, Value};
use sqs_engine::api::{FromJson, ToJson};
use sqs_sim::scenario::library;
use sqs_sim::{clock, Scenario, World};

/// The library scenarios that tell one of the seed articles' timelines, each with at least two
/// questions.
const TOLD: &[&str] = &[
    "r-021",
    "r-022",
    "r-022-ledger",
    "r-023",
    "r-023-ledger",
    "heartbeat",
    "crash-before-delete",
    "slow-worker",
    "lost-delete-response",
    "delay-vs-visibility",
    "short-vs-long-polling",
    "poison-to-dlq",
    "dlq-redrive",
    "fifo-group-blocking",
    "fifo-single-group",
    "lambda-6x",
    "lambda-batching-window",
];

#[test]
fn every_seed_timeline_asks_at_least_two_questions() {
    for scenario in library() {
        if TOLD.contains(&scenario.id.as_str()) {
            assert!(
                scenario.questions.len() >= 2,
                "{} asks {} questions",
                scenario.id,
                scenario.questions.len()
            );
        }
    }
}

#[test]
fn every_library_question_is_answered_by_the_world() {
    let mut wrong = Vec::new();
    let mut asked = 0;
    for scenario in library() {
        let mut world = World::load(&scenario).unwrap();
        for (index, question) in scenario.questions.iter().enumerate() {
            world.advance_to(question.at);
            world.advance_to(question.reveal_at);
            let truths = question.truths(&world);
            let expected: Vec<bool> = (0..truths.len()).map(|i| i == question.correct).collect();
            // Stopping to ask changes nothing: the world played straight to the reveal agrees.
            let mut straight = World::load(&scenario).unwrap();
            straight.advance_to(question.reveal_at);
            assert_eq!(
                question.truths(&straight),
                truths,
                "{} question {}: pausing changed the world",
                scenario.id,
                index + 1
            );
            if truths != expected {
                wrong.push(format!(
                    "{} question {} (asked {}, revealed {}): \"{}\"\n  \
                     choice claims that hold: {truths:?}, expected {expected:?}\n{}",
                    scenario.id,
                    index + 1,
                    clock(question.at),
                    clock(question.reveal_at),
                    question.prompt,
                    stage(&world)
                ));
            }
            asked += 1;
        }
    }
    assert!(asked > 0, "the library asks nothing");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// What the world shows, for a question it does not answer as the file says.
fn stage(world: &World) -> String {
    let mut out = String::new();
    for queue in world.engine().queue_names() {
        for m in world.engine().messages(&queue) {
            let holder = world.holder_of(&m.message_id).unwrap_or("-");
            out += &format!(
                "  {queue}: {} {:?} receive count {} holder {holder}\n",
                m.body, m.state, m.receive_count
            );
        }
    }
    for w in world.workers() {
        out += &format!(
            "  {}: {:?}, holding {}, deliveries {}, api_calls {}, empty_receives {}\n",
            w.name,
            w.status,
            w.holding.len(),
            w.deliveries,
            w.api_calls,
            w.empty_receives
        );
    }
    out += &format!("  performed {:?}\n", world.ledger().performed_by_name());
    out + &format!("  {:?}", world.summary())
}

#[test]
fn questions_read_back_what_they_write() {
    for scenario in library() {
        let again = Scenario::from_json(scenario.to_json()).unwrap();
        assert_eq!(again.questions, scenario.questions, "{}", scenario.id);
    }
}

/// A small scenario (one queue, one worker, one message, 60 s) with one question, changed by
/// `change`; what `Scenario::parse` says of it.
fn parse_with(change: impl FnOnce(&mut Value)) -> Result<Scenario, String> {
    let mut question = json!({
        "at": 5, "reveal_at": 10,
        "prompt": "Where is M?",
        "choices": [
            {"text": "In flight", "claim": {"kind": "Message", "message": "M", "state": "InFlight", "holder": "Worker A"}},
            {"text": "Deleted", "claim": {"kind": "Message", "message": "M", "state": "Deleted"}}
        ],
        "correct": 0,
        "why": "Its job takes 20 s.",
        "points_at": {"message": "M", "worker": "Worker A"}
    });
    change(&mut question);
    let file = json!({
        "steps": [
            {"call": "CreateQueue", "input": {"QueueName": "orders"}, "as": "Q"},
            {"call": "SendMessage", "input": {"QueueUrl": "${Q.QueueUrl}", "MessageBody": "M"}},
            {"sim": "AddWorker", "input": {"name": "Worker A", "policy": {"queue": "orders",
                "processing": {"kind": "Fixed", "seconds": 20}, "effects": [{"name": "ship"}]}}},
            {"advance": 60}
        ],
        "questions": [
            {"at": 1, "reveal_at": 2, "prompt": "Is M in flight?",
             "choices": [{"text": "Yes", "claim": {"kind": "Queue", "queue": "orders", "in_flight": 1}},
                         {"text": "No", "claim": {"kind": "Queue", "queue": "orders", "in_flight": 0}}],
             "correct": 0, "why": "Worker A received it.", "points_at": {"queue": "orders"}},
            question
        ]
    });
    Scenario::parse("x", &file.to_string())
}

fn error(change: fn(&mut Value)) -> String {
    parse_with(change).unwrap_err()
}

#[test]
fn a_good_question_parses_and_holds() {
    let scenario = parse_with(|_| {}).unwrap();
    assert_eq!(scenario.questions.len(), 2);
    let question = &scenario.questions[1];
    assert_eq!((question.at, question.reveal_at), (5_000, 10_000));
    let mut world = World::load(&scenario).unwrap();
    world.advance_to(question.reveal_at);
    assert_eq!(question.truths(&world), [true, false]);
    let ids = question.points_at.message_ids(&world);
    assert_eq!(world.holder_of(&ids[0]), Some("Worker A"));
    world.advance_to(30_000);
    assert_eq!(question.truths(&world), [false, true]);
    assert!(question.points_at.message_ids(&world).is_empty());
}

/// `change` makes the small scenario's second question bad: `Scenario::parse` says `expected`.
fn refused(change: fn(&mut Value), expected: &str) {
    assert_eq!(error(change), expected);
}

#[test]
fn a_bad_question_is_refused_by_name() {
    refused(
        |q| q["correct"] = json!(4),
        "x: question 2 (at 5 s): `correct` is 4 but there are 2 choices (counted from 0)",
    );
    refused(
        |q| q["choices"].as_array_mut().unwrap().truncate(1),
        "x: question 2 (at 5 s): a question has 2 to 4 choices, this one 1",
    );
    refused(
        |q| {
            let choice = q["choices"][1].clone();
            q["choices"]
                .as_array_mut()
                .unwrap()
                .extend([choice.clone(), choice.clone(), choice]);
        },
        "x: question 2 (at 5 s): a question has 2 to 4 choices, this one 5",
    );
    refused(
        |q| q["prompt"] = json!(" "),
        "x: question 2 (at 5 s): the prompt is empty",
    );
    refused(
        |q| q["why"] = json!(""),
        "x: question 2 (at 5 s): `why` is empty",
    );
    refused(
        |q| q["reveal_at"] = json!(4),
        "x: question 2 (at 5 s): `reveal_at` (4 s) must come after `at`",
    );
    refused(
        |q| {
            q["at"] = json!(70);
            q["reveal_at"] = json!(80);
        },
        "x: question 2 (at 70 s): it is asked after the scenario's end (60 s)",
    );
    refused(
        |q| q["reveal_at"] = json!(61),
        "x: question 2 (at 5 s): `reveal_at` (61 s) is after the scenario's end (60 s)",
    );
    refused(
        |q| q["at"] = json!(1.5),
        "x: question 2 (at 1.5 s): asked before the question before it is revealed (at 2 s): \
         questions go in time order",
    );
    refused(
        |q| q["choices"][1]["claim"]["kind"] = json!("Rumour"),
        "x: not a scenario file: question 2 (at 5 s): choices[1]: unknown claim kind `Rumour` \
         (expected Message, Performed, Counter, Worker, Queue or All)",
    );
    refused(
        |q| q["choices"][0]["claim"]["state"] = json!("Gone"),
        "x: not a scenario file: question 2 (at 5 s): choices[0]: unknown state `Gone` \
         (expected Delayed, Visible, InFlight, DeadLettered, Deleted)",
    );
    refused(
        |q| q["choices"][0]["claim"]["recieve_count"] = json!(1),
        "x: not a scenario file: question 2 (at 5 s): choices[0]: unknown member \
         `recieve_count`",
    );
    refused(
        |q| q["choices"][0]["claim"]["holder"] = json!("Worker Z"),
        "x: question 2 (at 5 s): choices[0]: the scenario has no worker \"Worker Z\"",
    );
    refused(
        |q| q["choices"][1]["claim"]["message"] = json!("N"),
        "x: question 2 (at 5 s): choices[1]: the scenario has no message \"N\"",
    );
    refused(
        |q| q["choices"][1]["claim"] = json!({"kind": "Performed", "effect": "charge", "times": 1}),
        "x: question 2 (at 5 s): choices[1]: the scenario has no effect \"charge\"",
    );
    refused(
        |q| q["choices"][1]["claim"] = json!({"kind": "Counter", "counter": "notices", "value": 1}),
        "x: question 2 (at 5 s): choices[1]: no counter `notices` in the summary",
    );
    refused(
        |q| q["choices"][1]["claim"] = json!({"kind": "Worker", "worker": "Worker A"}),
        "x: question 2 (at 5 s): choices[1]: the claim on worker Worker A states nothing",
    );
    refused(
        |q| q["choices"][1]["claim"]["receive_count"] = json!(1),
        "x: question 2 (at 5 s): choices[1]: a deleted message has no holder, receive count \
         or `until`",
    );
    refused(
        |q| q["choices"][0]["claim"]["state"] = json!("Visible"),
        "x: question 2 (at 5 s): choices[0]: a `holder` goes with the state InFlight",
    );
    refused(
        |q| q["points_at"] = json!({}),
        "x: question 2 (at 5 s): `points_at`: it names no message, worker or queue",
    );
    refused(
        |q| q["points_at"]["queue"] = json!("orders-dlq"),
        "x: question 2 (at 5 s): `points_at`: the scenario has no queue \"orders-dlq\"",
    );
    refused(
        |q| q["at"] = json!(-1),
        "x: not a scenario file: question 2: `at` must be seconds >= 0",
    );
}
