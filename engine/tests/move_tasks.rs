//! Message move tasks (redrive, §9.1).
mod common;

use common::*;
use sqs_engine::api::*;
use sqs_engine::event::EventKind;
use sqs_engine::{ErrorCode, Request, Response};
use std::sync::Arc;

const DLQ_ARN: &str = "arn:aws:sqs:us-east-1:000000000000:dlq";

/// A source with three messages dead-lettered into "dlq".
fn setup() -> (Sqs, String, String, Vec<Arc<str>>) {
    let mut s = Sqs::new();
    let dlq = s.create("dlq", &[]);
    let policy = format!(r#"{{"deadLetterTargetArn":"{DLQ_ARN}","maxReceiveCount":1}}"#);
    let src = s.create(
        "src",
        &[("VisibilityTimeout", "0"), ("RedrivePolicy", &policy)],
    );
    let ids = (0..3)
        .map(|i| s.send(&src, &format!("m{i}")).message_id)
        .collect();
    s.receive(&src, 10);
    s.receive(&src, 10);
    assert_eq!(s.counts(&dlq), counts(3, 0, 0));
    (s, src, dlq, ids)
}

fn start(s: &mut Sqs, rate: Option<i64>) -> Result<Response, sqs_engine::SqsError> {
    s.call(Request::StartMessageMoveTask(StartMessageMoveTaskInput {
        source_arn: DLQ_ARN.into(),
        destination_arn: None,
        max_number_of_messages_per_second: rate,
    }))
}

fn list(s: &mut Sqs) -> Vec<MessageMoveTask> {
    match s.ok(Request::ListMessageMoveTasks(ListMessageMoveTasksInput {
        source_arn: DLQ_ARN.into(),
        max_results: Some(10),
    })) {
        Response::ListMessageMoveTasks(out) => out.results,
        other => panic!("{other:?}"),
    }
}

#[test]
fn redrive_moves_messages_back_as_new_messages_over_time() {
    // §9.1: back to the original source; new MessageId, new enqueue time, receive count reset;
    // one message per 1000/rate ms.
    let (mut s, src, dlq, ids) = setup();
    s.at(10_000);
    start(&mut s, Some(1)).unwrap();
    assert_eq!(s.counts(&src), counts(1, 0, 0));
    assert_eq!(list(&mut s)[0].status, "RUNNING");
    s.at(10_999);
    assert_eq!(s.counts(&dlq), counts(2, 0, 0));
    s.at(12_000);
    assert_eq!(s.counts(&dlq), counts(0, 0, 0));
    let back = s.receive(&src, 10);
    assert_eq!(back.len(), 3);
    for m in &back {
        assert!(!ids.contains(&m.message_id));
        assert_eq!(
            m.attributes.as_ref().unwrap()["ApproximateReceiveCount"],
            "1"
        );
    }
    let tasks = list(&mut s);
    assert_eq!(tasks[0].status, "COMPLETED");
    assert_eq!(tasks[0].approximate_number_of_messages_moved, 3);
    assert_eq!(tasks[0].approximate_number_of_messages_to_move, 3);
    assert!(tasks[0].task_handle.is_none());
    assert_eq!(
        tasks[0].started_timestamp as u64,
        sqs_engine::EPOCH_MS + 10_000
    );
    let redriven = s
        .events()
        .into_iter()
        .filter(|e| matches!(e.kind, EventKind::Redriven { .. }))
        .map(|e| e.at)
        .collect::<Vec<_>>();
    assert_eq!(redriven, [10_000, 11_000, 12_000]);
}

#[test]
fn default_rate_and_cancel() {
    // §9.1: cancel answers the number moved so far; already-moved messages stay.
    let (mut s, src, dlq, _) = setup();
    let Response::StartMessageMoveTask(out) = start(&mut s, None).unwrap() else {
        panic!()
    };
    let err = s.rejects(
        Request::StartMessageMoveTask(StartMessageMoveTaskInput {
            source_arn: DLQ_ARN.into(),
            ..Default::default()
        }),
        ErrorCode::InvalidParameterValueException,
    );
    assert_eq!(
        err.message,
        "There is already a task running. Only one active task is allowed for a source queue arn at a given time."
    );
    let cancel = s.ok(Request::CancelMessageMoveTask(CancelMessageMoveTaskInput {
        task_handle: out.task_handle.clone(),
    }));
    assert_eq!(
        cancel,
        Response::CancelMessageMoveTask(CancelMessageMoveTaskOutput {
            approximate_number_of_messages_moved: 1
        })
    );
    s.at(100_000);
    assert_eq!(s.counts(&src), counts(1, 0, 0));
    assert_eq!(s.counts(&dlq), counts(2, 0, 0));
    assert_eq!(list(&mut s)[0].status, "CANCELLED");
    // With the default rate (500/s) the rest moves 2 ms apart.
    start(&mut s, None).unwrap();
    s.at(100_002);
    assert_eq!(s.counts(&dlq), counts(0, 0, 0));
}

#[test]
fn move_task_errors() {
    let (mut s, src, _, _) = setup();
    let err = s.rejects(
        Request::StartMessageMoveTask(StartMessageMoveTaskInput {
            source_arn: "arn:aws:sqs:us-east-1:000000000000:src".into(),
            ..Default::default()
        }),
        ErrorCode::InvalidParameterValueException,
    );
    assert_eq!(
        err.message,
        "Source queue must be configured as a Dead Letter Queue."
    );
    let err = s.rejects(
        Request::StartMessageMoveTask(StartMessageMoveTaskInput {
            source_arn: DLQ_ARN.into(),
            destination_arn: Some("arn:aws:sqs:us-east-1:000000000000:gone".into()),
            ..Default::default()
        }),
        ErrorCode::ResourceNotFoundException,
    );
    assert_eq!(err.code.status(), 404);
    assert_eq!(
        err.message,
        "The resource that you specified for the DestinationArn parameter doesn't exist."
    );
    s.rejects(
        Request::StartMessageMoveTask(StartMessageMoveTaskInput {
            source_arn: DLQ_ARN.into(),
            max_number_of_messages_per_second: Some(501),
            ..Default::default()
        }),
        ErrorCode::InvalidParameterValueException,
    );
    let err = s.rejects(
        Request::CancelMessageMoveTask(CancelMessageMoveTaskInput {
            task_handle: "garbage".into(),
        }),
        ErrorCode::InvalidParameterValueException,
    );
    assert_eq!(err.message, "Value for parameter TaskHandle is invalid.");
    // Destination deleted mid-task -> FAILED with NonExistentQueue (§9.1).
    start(&mut s, Some(1)).unwrap();
    s.ok(Request::DeleteQueue(QueueUrlInput { queue_url: src }));
    s.at(5_000);
    let task = &list(&mut s)[0];
    assert_eq!(task.status, "FAILED");
    assert_eq!(
        task.failure_reason.as_deref(),
        Some("AWS.SimpleQueueService.NonExistentQueue")
    );
}
