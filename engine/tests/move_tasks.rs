//! Message move tasks (redrive, §9.1).
mod common;

use common::*;
use sqs_engine::api::*;
use sqs_engine::event::EventKind;
use sqs_engine::{ErrorCode, Request, Response};

const DLQ_ARN: &str = "arn:aws:sqs:us-east-1:000000000000:dlq";

/// A source with three messages dead-lettered into "dlq".
fn setup() -> (Sqs, QueueUrl, QueueUrl, Vec<MessageId>) {
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

/// A queue "src-<i>" whose dead-letter queue "dlq-<i>" holds `messages` messages sent to it
/// directly; returns the dead-letter queue's URL and ARN and the source's ARN.
fn dead_letter_pair(s: &mut Sqs, i: usize, messages: usize) -> (QueueUrl, String, String) {
    let dlq = s.create(&format!("dlq-{i}"), &[]);
    let dlq_arn = format!("arn:aws:sqs:us-east-1:000000000000:dlq-{i}");
    let policy = format!(r#"{{"deadLetterTargetArn":"{dlq_arn}","maxReceiveCount":1}}"#);
    s.create(&format!("src-{i}"), &[("RedrivePolicy", &policy)]);
    for first in (0..messages).step_by(10) {
        let entries = (first..messages.min(first + 10))
            .map(|n| SendMessageBatchEntry {
                id: format!("e{n}"),
                message_body: format!("m{n}").into(),
                ..Default::default()
            })
            .collect();
        s.ok(Request::SendMessageBatch(SendMessageBatchInput {
            queue_url: dlq.clone(),
            entries,
        }));
    }
    let src_arn = format!("arn:aws:sqs:us-east-1:000000000000:src-{i}");
    (dlq, dlq_arn, src_arn)
}

fn start_to(
    s: &mut Sqs,
    source: &str,
    destination: &str,
) -> Result<Response, sqs_engine::SqsError> {
    s.call(Request::StartMessageMoveTask(StartMessageMoveTaskInput {
        source_arn: source.into(),
        destination_arn: Some(destination.into()),
        max_number_of_messages_per_second: Some(1),
    }))
}

fn list_of(s: &mut Sqs, source: &str) -> MessageMoveTask {
    match s.ok(Request::ListMessageMoveTasks(ListMessageMoveTasksInput {
        source_arn: source.into(),
        max_results: None,
    })) {
        Response::ListMessageMoveTasks(mut out) => out.results.remove(0),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_task_ends_as_failed_after_36_hours() {
    // §9.1 [DG] "A dead-letter queue redrive task can run a maximum of 36 hours." At the lowest
    // rate (1/s) a task needs more than 129,600 messages to still run then. SIM CHOICE: it ends
    // FAILED at exactly 36 h with the Guide's sentence as FailureReason; moved messages stay.
    const LIMIT: u64 = 36 * 3_600_000;
    let mut s = Sqs::new();
    let (dlq, dlq_arn, src_arn) = dead_letter_pair(&mut s, 0, 129_601);
    s.at(5_000);
    start_to(&mut s, &dlq_arn, &src_arn).unwrap();
    s.at(5_000 + LIMIT - 1);
    let task = list_of(&mut s, &dlq_arn);
    assert_eq!(task.status, "RUNNING");
    assert_eq!(task.approximate_number_of_messages_moved, 129_600);
    s.at(5_000 + LIMIT);
    let task = list_of(&mut s, &dlq_arn);
    assert_eq!(task.status, "FAILED");
    assert_eq!(
        task.failure_reason.as_deref(),
        Some("A dead-letter queue redrive task can run a maximum of 36 hours.")
    );
    assert_eq!(task.approximate_number_of_messages_moved, 129_600);
    assert_eq!(task.approximate_number_of_messages_to_move, 129_601);
    assert_eq!(s.counts(&dlq), counts(1, 0, 0));
    let finished: Vec<_> = s
        .events()
        .into_iter()
        .filter_map(|e| match e.kind {
            EventKind::MoveTaskFinished { status, moved, .. } => Some((e.at, status, moved)),
            _ => None,
        })
        .collect();
    assert_eq!(finished, [(5_000 + LIMIT, "FAILED".to_string(), 129_600)]);
}

#[test]
fn at_most_100_tasks_run_at_once() {
    // §9.1 [DG] "Amazon SQS supports a maximum of 100 active redrive tasks per account."
    // SIM CHOICE: the 101st start is OverLimit (403) and changes nothing; once a task ends,
    // a new one may start.
    let mut s = Sqs::new();
    let pairs: Vec<_> = (0..101).map(|i| dead_letter_pair(&mut s, i, 2)).collect();
    for (_, dlq_arn, src_arn) in &pairs[..100] {
        start_to(&mut s, dlq_arn, src_arn).unwrap();
    }
    let (_, dlq_arn, src_arn) = &pairs[100];
    let request = Request::StartMessageMoveTask(StartMessageMoveTaskInput {
        source_arn: dlq_arn.clone(),
        destination_arn: Some(src_arn.clone()),
        max_number_of_messages_per_second: Some(1),
    });
    let err = s.rejects(request, ErrorCode::OverLimit);
    assert_eq!(
        err.message,
        "Amazon SQS supports a maximum of 100 active redrive tasks per account."
    );
    assert_eq!(ErrorCode::OverLimit.status(), 403);
    // Each task moves its second message after one second and completes.
    s.at(1_000);
    assert_eq!(list_of(&mut s, &pairs[0].1).status, "COMPLETED");
    start_to(&mut s, dlq_arn, src_arn).unwrap();
    assert_eq!(list_of(&mut s, dlq_arn).status, "RUNNING");
}
