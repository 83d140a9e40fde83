//! Dead-letter queues: the move on a receive attempt, what the DLQ shows, retention, listing.
mod common;

use common::*;
use sqs_engine::api::*;
use sqs_engine::event::EventKind;
use sqs_engine::{ErrorCode, Request, Response};

fn policy(dlq: &str, max: u32) -> String {
    format!(
        r#"{{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:{dlq}","maxReceiveCount":{max}}}"#
    )
}

#[test]
fn max_receive_count_one_with_zero_visibility() {
    // §9 AWS-recorded: maxReceiveCount=1, VT=0: the first receive returns the message (ARC 1),
    // the next attempt returns nothing and the message is in the DLQ with the same MessageId,
    // ARC continuing (2 on the first DLQ receive) and DeadLetterQueueSourceArn.
    let mut s = Sqs::new();
    let dlq = s.create("dlq", &[]);
    let src = s.create(
        "src",
        &[
            ("VisibilityTimeout", "0"),
            ("RedrivePolicy", &policy("dlq", 1)),
        ],
    );
    let sent = s.send(&src, "poison");
    let first = s.receive(&src, 1);
    assert_eq!(
        first[0].attributes.as_ref().unwrap()["ApproximateReceiveCount"],
        "1"
    );
    assert_eq!(s.counts(&src), counts(1, 0, 0));
    assert!(s.receive(&src, 1).is_empty());
    assert_eq!(s.counts(&src), counts(0, 0, 0));
    assert_eq!(s.counts(&dlq), counts(1, 0, 0));
    let moved = s.events().into_iter().find_map(|e| match e.kind {
        EventKind::MovedToDeadLetterQueue { receive_count, .. } => Some(receive_count),
        _ => None,
    });
    assert_eq!(moved, Some(1));
    let got = s.receive(&dlq, 1);
    assert_eq!(got[0].message_id, sent.message_id);
    let a = got[0].attributes.as_ref().unwrap();
    assert_eq!(a["ApproximateReceiveCount"], "2");
    assert_eq!(
        a["DeadLetterQueueSourceArn"],
        "arn:aws:sqs:us-east-1:000000000000:src"
    );
    assert_eq!(a["SentTimestamp"], sqs_engine::EPOCH_MS.to_string());
}

#[test]
fn the_scan_continues_past_a_dead_lettered_message() {
    // §9 SIM CHOICE: the move does not count as a receive; the same call returns others.
    let mut s = Sqs::new();
    s.create("dlq", &[]);
    let src = s.create(
        "src",
        &[
            ("VisibilityTimeout", "0"),
            ("RedrivePolicy", &policy("dlq", 1)),
        ],
    );
    s.send(&src, "a");
    s.receive(&src, 1);
    s.send(&src, "b");
    assert_eq!(s.bodies(&src, 1), ["b"]);
}

#[test]
fn fifo_dead_letter_after_the_third_receive_unblocks_the_group() {
    // §9: FIFO maxReceiveCount=2: the third receive moves it; later messages of the group are
    // receivable; the FIFO DLQ resets the enqueue time and uses the MessageId as dedup id.
    let mut s = Sqs::new();
    let dlq = s.create("dlq.fifo", &[("FifoQueue", "true")]);
    let src = s.create(
        "src.fifo",
        &[
            ("FifoQueue", "true"),
            ("VisibilityTimeout", "1"),
            ("RedrivePolicy", &policy("dlq.fifo", 2)),
        ],
    );
    let first = s.send_fifo(&src, "a", "g");
    s.send_fifo(&src, "b", "g");
    assert_eq!(s.bodies(&src, 1), ["a"]);
    s.at(1_000);
    assert_eq!(s.bodies(&src, 1), ["a"]);
    s.at(2_000);
    assert_eq!(s.bodies(&src, 1), ["b"]);
    let views = s.e.messages("dlq.fifo");
    assert_eq!(views.len(), 1);
    assert_eq!(views[0].sent_at, 2_000);
    let got = s.receive(&dlq, 1);
    let a = got[0].attributes.as_ref().unwrap();
    assert_eq!(*a["MessageDeduplicationId"], *first.message_id);
    assert_eq!(a["ApproximateReceiveCount"], "3");
}

#[test]
fn standard_dead_letter_keeps_the_original_enqueue_time() {
    // §9: standard DLQ retention counts from the original enqueue time.
    let mut s = Sqs::new();
    let dlq = s.create("dlq", &[("MessageRetentionPeriod", "120")]);
    let src = s.create(
        "src",
        &[
            ("VisibilityTimeout", "100"),
            ("RedrivePolicy", &policy("dlq", 1)),
        ],
    );
    s.send(&src, "a");
    s.receive(&src, 1);
    s.at(100_000);
    assert!(s.receive(&src, 1).is_empty());
    assert_eq!(s.e.messages("dlq")[0].sent_at, 0);
    s.at(119_999);
    assert_eq!(s.counts(&dlq), counts(1, 0, 0));
    s.at(120_000);
    assert_eq!(s.counts(&dlq), counts(0, 0, 0));
}

#[test]
fn list_dead_letter_source_queues() {
    let mut s = Sqs::new();
    let dlq = s.create("dlq", &[]);
    s.create("b", &[("RedrivePolicy", &policy("dlq", 3))]);
    s.create("a", &[("RedrivePolicy", &policy("dlq", 3))]);
    s.create("c", &[]);
    let out = s.ok(Request::ListDeadLetterSourceQueues(
        ListDeadLetterSourceQueuesInput {
            queue_url: dlq,
            ..Default::default()
        },
    ));
    let Response::ListDeadLetterSourceQueues(out) = out else {
        panic!()
    };
    assert_eq!(
        out.queue_urls,
        [
            "https://sqs.us-east-1.amazonaws.com/000000000000/a",
            "https://sqs.us-east-1.amazonaws.com/000000000000/b"
        ]
    );
    assert!(serde_json::to_string(&out)
        .unwrap()
        .contains("\"queueUrls\""));
}

#[test]
fn redrive_policy_validation() {
    // §2.3: missing target attribute, out-of-range count, unknown DLQ, type mismatch, and the
    // DLQ's RedriveAllowPolicy; "" removes the policy.
    let mut s = Sqs::new();
    let url = s.create("src", &[]);
    s.create("dlq.fifo", &[("FifoQueue", "true")]);
    s.create(
        "closed",
        &[("RedriveAllowPolicy", r#"{"redrivePermission":"denyAll"}"#)],
    );
    let set = |pairs: &[(&str, &str)]| {
        Request::SetQueueAttributes(SetQueueAttributesInput {
            queue_url: url.clone(),
            attributes: attrs(pairs),
        })
    };
    let missing = r#"{"maxReceiveCount":"5"}"#;
    let err = s.rejects(
        set(&[("RedrivePolicy", missing)]),
        ErrorCode::InvalidParameterValueException,
    );
    assert_eq!(
        err.message,
        format!("Value {missing} for parameter RedrivePolicy is invalid. Reason: Redrive policy does not contain mandatory attribute: deadLetterTargetArn.")
    );
    let err = s.rejects(
        set(&[("RedrivePolicy", &policy("nope", 5))]),
        ErrorCode::InvalidParameterValueException,
    );
    assert!(err
        .message
        .ends_with("Reason: Dead letter target does not exist."));
    let err = s.rejects(
        set(&[("RedrivePolicy", &policy("dlq.fifo", 5))]),
        ErrorCode::InvalidParameterValueException,
    );
    assert!(err
        .message
        .ends_with("Dead-letter queue must be same type of queue as the source."));
    s.rejects(
        set(&[("RedrivePolicy", &policy("closed", 5))]),
        ErrorCode::InvalidParameterValueException,
    );
    s.create("dlq", &[]);
    let err = s.rejects(
        set(&[("RedrivePolicy", &policy("dlq", 0))]),
        ErrorCode::InvalidParameterValueException,
    );
    assert!(err.message.ends_with(
        "Invalid value for maxReceiveCount: 0, valid values are from 1 to 1000 both inclusive."
    ));
    s.set(&url, &[("RedrivePolicy", &policy("dlq", 1000))])
        .unwrap();
    assert_eq!(
        s.attributes(&url)["RedrivePolicy"],
        r#"{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq","maxReceiveCount":1000}"#
    );
    s.set(&url, &[("RedrivePolicy", "")]).unwrap();
    assert!(!s.attributes(&url).contains_key("RedrivePolicy"));
}

#[test]
fn hand_delivery_past_max_receive_count_dead_letters() {
    // deliver.rs + §9: a hand delivery is a receive attempt; past maxReceiveCount it moves the
    // message to the DLQ and answers {}.
    let mut s = Sqs::new();
    let dlq = s.create("dlq", &[]);
    let src = s.create(
        "src",
        &[
            ("VisibilityTimeout", "0"),
            ("RedrivePolicy", &policy("dlq", 1)),
        ],
    );
    let id = s.send(&src, "poison").message_id;
    assert!(s
        .e
        .receive_specific(&src, &id, None)
        .unwrap()
        .messages
        .is_some());
    assert!(s
        .e
        .receive_specific(&src, &id, None)
        .unwrap()
        .messages
        .is_none());
    assert_eq!(s.counts(&dlq), counts(1, 0, 0));
}
