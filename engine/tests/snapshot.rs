//! An engine written out (serde) and read back is the same machine: the copy gives the same
//! answers (message ids, receipt handles, FIFO order, move-task progress, timers) to the same
//! next calls as the engine it was written from. Waiting long polls are written too, and
//! `end_polls` ends them the same way on both.
mod common;

use common::*;
use sqs_engine::api::*;
use sqs_engine::{Engine, Reply, Request};

const DLQ_ARN: &str = "arn:aws:sqs:us-east-1:000000000000:dlq";

fn round_trip(engine: &Engine) -> Engine {
    let written = serde_json::to_string(engine).expect("an engine serialises");
    serde_json::from_str(&written).expect("a written engine reads back")
}

/// What an engine answers and emits for `steps` (a time to advance to, then a call), as text.
fn transcript(engine: &mut Engine, steps: &[(u64, Request)]) -> Vec<String> {
    let mut out = Vec::new();
    for (at, request) in steps {
        engine.advance_to(*at);
        out.push(format!("{:?}", engine.call(request.clone())));
        out.push(format!("{:?}", engine.take_completed_polls()));
        out.push(format!("{:?}", engine.drain_events()));
    }
    for queue in engine.queue_names() {
        out.push(format!("{:?}", engine.messages(&queue)));
        out.push(format!("{:?}", engine.attributes(&queue)));
    }
    out.push(format!("{:?} {:?}", engine.now(), engine.next_deadline()));
    out
}

fn receive(url: &QueueUrl, wait: i64) -> Request {
    Request::ReceiveMessage(ReceiveMessageInput {
        wait_time_seconds: Some(wait),
        ..Sqs::receive_input(url, 10)
    })
}

/// An engine in the middle of everything: a move task half done, FIFO groups with messages in
/// flight, delayed messages, a dedup window, and a long poll waiting.
fn busy() -> (Sqs, QueueUrl, QueueUrl, QueueUrl) {
    let mut s = Sqs::new();
    s.create("dlq", &[]);
    let policy = format!(r#"{{"deadLetterTargetArn":"{DLQ_ARN}","maxReceiveCount":1}}"#);
    let src = s.create(
        "src",
        &[("VisibilityTimeout", "0"), ("RedrivePolicy", &policy)],
    );
    for i in 0..4 {
        s.send(&src, &format!("m{i}"));
    }
    s.receive(&src, 10);
    s.receive(&src, 10);
    let fifo = s.create(
        "f.fifo",
        &[("FifoQueue", "true"), ("ContentBasedDeduplication", "true")],
    );
    for i in 0..6 {
        s.send_fifo(&fifo, &format!("f{i}"), ["a", "b"][i % 2]);
    }
    s.receive(&fifo, 1);
    s.send_with(SendMessageInput {
        delay_seconds: Some(30),
        ..Sqs::send_input(&src, "later")
    });
    s.at(5_000);
    s.ok(Request::StartMessageMoveTask(StartMessageMoveTaskInput {
        source_arn: DLQ_ARN.into(),
        destination_arn: None,
        max_number_of_messages_per_second: Some(1),
    }));
    s.at(6_500);
    let empty = s.create("empty", &[]);
    assert!(matches!(s.e.call(receive(&empty, 20)), Reply::Pending(_)));
    s.e.drain_events();
    (s, src, fifo, empty)
}

#[test]
fn a_written_engine_answers_the_next_calls_as_the_original_does() {
    let (mut s, src, fifo, empty) = busy();
    let mut copy = round_trip(&s.e);
    let steps = [
        (7_000, receive(&fifo, 0)),
        (7_000, Request::SendMessage(Sqs::send_input(&fifo, "f0"))),
        (8_000, receive(&src, 0)),
        (
            9_000,
            Request::SendMessage(Sqs::send_input(&empty, "wakes the poll")),
        ),
        (40_000, receive(&src, 0)),
        (41_000, receive(&fifo, 0)),
        (
            50_000,
            Request::ListMessageMoveTasks(ListMessageMoveTasksInput {
                source_arn: DLQ_ARN.into(),
                max_results: Some(10),
            }),
        ),
    ];
    let original = transcript(&mut s.e, &steps);
    assert_eq!(transcript(&mut copy, &steps), original);
    // The steps did something worth comparing: the poll was answered with the message sent.
    assert!(original[10].contains("wakes the poll"), "{}", original[10]);
}

#[test]
fn ending_the_polls_of_a_written_engine_answers_them_empty_and_leaves_messages_alone() {
    let (mut s, _src, _fifo, empty) = busy();
    let mut copy = round_trip(&s.e);
    for engine in [&mut s.e, &mut copy] {
        engine.end_polls();
        let ended = engine.take_completed_polls();
        assert_eq!(ended.len(), 1);
        assert_eq!(ended[0].1, ReceiveMessageOutput::default());
    }
    // The ended poll takes nothing: the next message waits for the next receive.
    let steps = [
        (
            7_000,
            Request::SendMessage(Sqs::send_input(&empty, "after")),
        ),
        (7_000, receive(&empty, 0)),
    ];
    let original = transcript(&mut s.e, &steps);
    assert_eq!(transcript(&mut copy, &steps), original);
    assert!(original[3].contains("after"), "{}", original[3]);
}
