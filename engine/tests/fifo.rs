//! FIFO queues: group ordering and blocking, deduplication, handles, delays, attempt ids.
mod common;

use common::*;
use sqs_engine::api::*;
use sqs_engine::event::EventKind;
use sqs_engine::{ErrorCode, Request};

fn fifo(s: &mut Sqs, extra: &[(&str, &str)]) -> QueueUrl {
    let mut pairs = vec![("FifoQueue", "true")];
    pairs.extend_from_slice(extra);
    s.create("q.fifo", &pairs)
}

#[test]
fn one_receive_returns_a_whole_group_first() {
    // §4.5 AWS-recorded: g1-m1, g2-m1, g1-m2, g1-m3; receive(10) -> g1-m1, g1-m2, g1-m3, g2-m1.
    let mut s = Sqs::new();
    let url = fifo(&mut s, &[]);
    for (body, group) in [
        ("g1-m1", "g1"),
        ("g2-m1", "g2"),
        ("g1-m2", "g1"),
        ("g1-m3", "g1"),
    ] {
        s.send_fifo(&url, body, group);
    }
    assert_eq!(s.bodies(&url, 10), ["g1-m1", "g1-m2", "g1-m3", "g2-m1"]);
}

/// foo, bar, baz in one group, all received; then the message at `position` is extended and
/// the others' visibility ends.
fn after_extending(position: usize) -> Vec<String> {
    let mut s = Sqs::new();
    let url = fifo(&mut s, &[("VisibilityTimeout", "5")]);
    for body in ["foo", "bar", "baz"] {
        s.send_fifo(&url, body, "g");
    }
    let got = s.receive(&url, 10);
    assert_eq!(got.len(), 3);
    s.cmv(&url, got[position].receipt_handle, 60).unwrap();
    s.at(5_000);
    s.bodies(&url, 10)
}

#[test]
fn only_the_visible_prefix_of_a_group_is_receivable() {
    // §4.5 AWS-recorded (extend position 0 -> nothing; 1 -> [foo]; 2 -> [foo, bar]).
    assert!(after_extending(0).is_empty());
    assert_eq!(after_extending(1), ["foo"]);
    assert_eq!(after_extending(2), ["foo", "bar"]);
}

#[test]
fn blocked_messages_count_as_visible_and_views_mark_them() {
    // §2.4 AWS-recorded: 6 messages in 3 groups, one received from g1 and g2 -> 4 / 2.
    let mut s = Sqs::new();
    let url = fifo(&mut s, &[]);
    for g in ["g1", "g2", "g3"] {
        s.send_fifo(&url, &format!("{g}-a"), g);
        s.send_fifo(&url, &format!("{g}-b"), g);
    }
    assert_eq!(s.bodies(&url, 1), ["g1-a"]);
    // The next receive skips blocked g1 and takes g2's head... and g2's whole visible prefix,
    // so ask for one.
    assert_eq!(s.bodies(&url, 1), ["g2-a"]);
    assert_eq!(s.counts(&url), counts(4, 2, 0));
    let blocked: Vec<bool> =
        s.e.messages("q.fifo")
            .iter()
            .map(|m| m.blocked_by_group)
            .collect();
    assert_eq!(blocked, [false, true, false, true, false, false]);
}

#[test]
fn a_new_message_does_not_unblock_a_group_but_a_delete_does() {
    // §4.5: sending to a group whose head is in flight does not unblock it; deleting does.
    let mut s = Sqs::new();
    let url = fifo(&mut s, &[]);
    s.send_fifo(&url, "a", "g");
    let h = s.receive(&url, 1)[0].receipt_handle;
    s.send_fifo(&url, "b", "g");
    assert!(s.receive(&url, 1).is_empty());
    s.delete(&url, h).unwrap();
    assert_eq!(s.bodies(&url, 1), ["b"]);
}

#[test]
fn groups_are_ordered_by_when_their_head_became_receivable() {
    // §4.5 SIM CHOICE: a group whose head came back from a visibility timeout goes after groups
    // whose heads have been waiting since their send; CMV(0) counts from the call.
    let mut s = Sqs::new();
    let url = fifo(&mut s, &[("VisibilityTimeout", "10")]);
    s.send_fifo(&url, "g1-a", "g1");
    assert_eq!(s.bodies(&url, 1), ["g1-a"]);
    s.at(1_000);
    s.send_fifo(&url, "g2-a", "g2");
    s.at(2_000);
    s.send_fifo(&url, "g3-a", "g3");
    s.at(10_000);
    // g1's head became receivable at 10 s, after g2 (1 s) and g3 (2 s).
    let got = s.receive(&url, 10);
    let bodies: Vec<_> = got.iter().map(|m| m.body.as_str()).collect();
    assert_eq!(bodies, ["g2-a", "g3-a", "g1-a"]);
    // Terminate g3 then g2: the order follows the CMV instants.
    s.at(11_000);
    s.cmv(&url, got[1].receipt_handle, 0).unwrap();
    s.at(12_000);
    s.cmv(&url, got[0].receipt_handle, 0).unwrap();
    assert_eq!(s.bodies(&url, 10), ["g3-a", "g2-a"]);
}

#[test]
fn messages_come_back_in_order_after_a_timeout() {
    // §4.5: after a visibility timeout the group's messages return in the same order.
    let mut s = Sqs::new();
    let url = fifo(&mut s, &[("VisibilityTimeout", "1")]);
    for body in ["1", "2", "3"] {
        s.send_fifo(&url, body, "g");
    }
    assert_eq!(s.bodies(&url, 10), ["1", "2", "3"]);
    s.at(1_000);
    assert_eq!(s.bodies(&url, 10), ["1", "2", "3"]);
}

#[test]
fn deduplication_window_is_five_minutes_from_first_acceptance() {
    // §3.4: a duplicate within 300 s is accepted, not stored, and answers the original
    // MessageId; the window does not extend; after it the same id is a new message.
    let mut s = Sqs::new();
    let url = fifo(&mut s, &[]);
    let first = s.send_fifo(&url, "x", "g");
    s.at(200_000);
    let dup = s.send_fifo(&url, "x", "other-group");
    assert_eq!(dup.message_id, first.message_id);
    assert_eq!(s.counts(&url), counts(1, 0, 0));
    assert!(s
        .events()
        .iter()
        .any(|e| matches!(e.kind, EventKind::Deduplicated { .. })));
    // Remembered even after the original is received and deleted.
    let h = s.receive(&url, 1)[0].receipt_handle;
    s.delete(&url, h).unwrap();
    s.at(299_999);
    assert_eq!(s.send_fifo(&url, "x", "g").message_id, first.message_id);
    s.at(300_000);
    assert_ne!(s.send_fifo(&url, "x", "g").message_id, first.message_id);
}

#[test]
fn content_based_deduplication_hashes_the_body() {
    // §3.4: SHA-256 of the body; an explicit id overrides it; purge clears the history.
    let mut s = Sqs::new();
    let url = fifo(&mut s, &[("ContentBasedDeduplication", "true")]);
    let send = |s: &mut Sqs, body: &str, dedup: Option<&str>| {
        s.send_with(SendMessageInput {
            message_group_id: Some("g".into()),
            message_deduplication_id: dedup.map(String::from),
            ..Sqs::send_input(&url, body)
        })
    };
    let a = send(&mut s, "same", None);
    assert_eq!(send(&mut s, "same", None).message_id, a.message_id);
    assert_ne!(
        send(&mut s, "same", Some("explicit")).message_id,
        a.message_id
    );
    let got = s.receive(&url, 1);
    let dedup = &got[0].attributes.as_ref().unwrap()["MessageDeduplicationId"];
    assert_eq!(
        dedup,
        "0967115f2813a3541eaef77de9d9d5773f1c0c04314b0bbfe4ff3b3b1c55b5d5"
    );
    s.ok(Request::PurgeQueue(QueueUrlInput {
        queue_url: url.clone(),
    }));
    assert_ne!(send(&mut s, "same", None).message_id, a.message_id);
}

#[test]
fn deduplication_scope_per_group_is_frozen_at_creation() {
    // §3.4/§2.3: messageGroup scope dedups per group; changing the scope later changes the
    // attribute but not the behaviour.
    let mut s = Sqs::new();
    let url = fifo(&mut s, &[("DeduplicationScope", "messageGroup")]);
    let a = s.send_fifo(&url, "x", "g1");
    assert_ne!(s.send_fifo(&url, "x", "g2").message_id, a.message_id);
    s.set(&url, &[("DeduplicationScope", "queue")]).unwrap();
    assert_eq!(s.attributes(&url)["DeduplicationScope"], "queue");
    assert_ne!(s.send_fifo(&url, "x", "g3").message_id, a.message_id);
}

#[test]
fn sequence_numbers_increase() {
    // §3.4: FIFO SequenceNumber, large and increasing.
    let mut s = Sqs::new();
    let url = fifo(&mut s, &[]);
    let a: u128 = s
        .send_fifo(&url, "a", "g")
        .sequence_number
        .unwrap()
        .parse()
        .unwrap();
    let b: u128 = s
        .send_fifo(&url, "b", "g")
        .sequence_number
        .unwrap()
        .parse()
        .unwrap();
    assert!(b > a && a.to_string().len() >= 20);
}

#[test]
fn fifo_handles_expire_with_the_visibility_window() {
    // §5: FIFO delete after the window -> InvalidParameterValue "receipt handle has expired";
    // extending with CMV keeps it valid; an older handle after a re-receive is expired.
    let mut s = Sqs::new();
    let url = fifo(&mut s, &[("VisibilityTimeout", "1")]);
    s.send_fifo(&url, "a", "g");
    let h = s.receive(&url, 1)[0].receipt_handle;
    s.at(1_000);
    let err = s.rejects(
        Request::DeleteMessage(DeleteMessageInput {
            queue_url: url.clone(),
            receipt_handle: h.into(),
        }),
        ErrorCode::InvalidParameterValueException,
    );
    assert_eq!(
        err.message,
        format!("Value {h} for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired.")
    );
    // CMV on the expired-but-unreceived message with its latest handle: 200 no-op (§6).
    s.cmv(&url, h, 30).unwrap();
    let h2 = s.receive(&url, 1)[0].receipt_handle;
    s.rejects(
        Sqs::cmv_request(&url, h, 5),
        ErrorCode::InvalidParameterValueException,
    );
    s.cmv(&url, h2, 10).unwrap();
    s.at(5_000);
    s.delete(&url, h2).unwrap();
    assert_eq!(s.counts(&url), counts(0, 0, 0));
}

#[test]
fn per_message_delay_is_rejected_but_queue_delay_applies_retroactively() {
    // §3.3: DelaySeconds > 0 on a FIFO send -> error text; 0 accepted, queue delay applies.
    // §7: a FIFO queue's DelaySeconds change is retroactive.
    let mut s = Sqs::new();
    let url = fifo(&mut s, &[("DelaySeconds", "10")]);
    let err = s.rejects(
        Request::SendMessage(SendMessageInput {
            delay_seconds: Some(2),
            message_group_id: Some("g".into()),
            message_deduplication_id: Some("d".into()),
            ..Sqs::send_input(&url, "x")
        }),
        ErrorCode::InvalidParameterValueException,
    );
    assert_eq!(
        err.message,
        "Value 2 for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid for this queue type."
    );
    s.send_with(SendMessageInput {
        delay_seconds: Some(0),
        message_group_id: Some("g".into()),
        message_deduplication_id: Some("d".into()),
        ..Sqs::send_input(&url, "x")
    });
    assert_eq!(s.counts(&url), counts(0, 0, 1));
    s.at(3_000);
    s.set(&url, &[("DelaySeconds", "2")]).unwrap();
    assert_eq!(s.counts(&url), counts(1, 0, 0));
    s.send_fifo(&url, "y", "g");
    s.set(&url, &[("DelaySeconds", "20")]).unwrap();
    s.at(22_999);
    assert_eq!(s.counts(&url), counts(1, 0, 1));
    s.at(23_000);
    assert_eq!(s.counts(&url), counts(2, 0, 0));
}

#[test]
fn receive_request_attempt_id_retries_return_the_same_messages() {
    // §4.1: a retry within 5 minutes returns the same messages and handles if unmodified;
    // after a modification a normal receive happens.
    let mut s = Sqs::new();
    let url = fifo(&mut s, &[]);
    s.send_fifo(&url, "a", "g1");
    s.send_fifo(&url, "b", "g2");
    let attempt = |s: &mut Sqs| {
        s.receive_with(ReceiveMessageInput {
            receive_request_attempt_id: Some("try-1".into()),
            ..Sqs::receive_input(&url, 1)
        })
    };
    let first = attempt(&mut s);
    s.at(10_000);
    let retry = attempt(&mut s);
    assert_eq!(retry[0].receipt_handle, first[0].receipt_handle);
    assert_eq!(retry[0].body, "a");
    // The retry reset the visibility timeout: hidden until 40 s.
    s.at(39_999);
    assert_eq!(s.bodies(&url, 10), ["b"]);
    s.cmv(&url, first[0].receipt_handle, 100).unwrap();
    assert!(attempt(&mut s).is_empty());
}

#[test]
fn group_id_rules() {
    // §3.4: missing MessageGroupId -> MissingParameter (single) / InvalidParameterValue (batch);
    // missing dedup id without content-based dedup -> InvalidParameterValue.
    let mut s = Sqs::new();
    let url = fifo(&mut s, &[]);
    let err = s.rejects(
        Request::SendMessage(Sqs::send_input(&url, "x")),
        ErrorCode::MissingRequiredParameterException,
    );
    assert_eq!(
        err.message,
        "The request must contain the parameter MessageGroupId."
    );
    let err = s.rejects(
        Request::SendMessageBatch(SendMessageBatchInput {
            queue_url: url.clone(),
            entries: vec![SendMessageBatchEntry {
                id: "1".into(),
                message_body: "x".into(),
                ..Default::default()
            }],
        }),
        ErrorCode::InvalidParameterValueException,
    );
    assert_eq!(
        err.message,
        "The request must contain the parameter MessageGroupId."
    );
    let err = s.rejects(
        Request::SendMessage(SendMessageInput {
            message_group_id: Some("g".into()),
            ..Sqs::send_input(&url, "x")
        }),
        ErrorCode::InvalidParameterValueException,
    );
    assert_eq!(
        err.message,
        "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly"
    );
}

#[test]
fn fresh_fifo_queue_adds_the_fifo_attributes() {
    // §2.3.
    let mut s = Sqs::new();
    let url = fifo(&mut s, &[]);
    let a = s.attributes(&url);
    assert_eq!(a["FifoQueue"], "true");
    assert_eq!(a["ContentBasedDeduplication"], "false");
    assert_eq!(a["DeduplicationScope"], "queue");
    assert_eq!(a["FifoThroughputLimit"], "perQueue");
    assert_eq!(a.len(), 16);
}

#[test]
fn zero_visibility_receives_never_repeat_a_message_in_one_answer() {
    // §4.5: VT=0 receives increment the count each time, no duplicates within one response.
    let mut s = Sqs::new();
    let url = fifo(&mut s, &[("VisibilityTimeout", "0")]);
    s.send_fifo(&url, "a", "g");
    s.send_fifo(&url, "b", "g");
    assert_eq!(s.bodies(&url, 10), ["a", "b"]);
    let again = s.receive(&url, 10);
    assert_eq!(
        again[0].attributes.as_ref().unwrap()["ApproximateReceiveCount"],
        "2"
    );
}

#[test]
fn hand_delivery_follows_receive_rules() {
    // deliver.rs: a chosen message is taken only if a ReceiveMessage could return it (§4.5).
    let mut s = Sqs::new();
    let url = fifo(&mut s, &[]);
    let a = s.send_fifo(&url, "a", "g").message_id;
    let b = s.send_fifo(&url, "b", "g").message_id;
    let got = s.e.receive_specific(&url, &a, Some(5)).unwrap();
    let m = &got.messages.unwrap()[0];
    assert_eq!(m.body, "a");
    assert_eq!(
        m.attributes.as_ref().unwrap()["ApproximateReceiveCount"],
        "1"
    );
    // b waits behind in-flight a; a itself is in flight; an unknown id is refused. None of
    // these refusals changes anything.
    let before = s.snapshot();
    for id in [&*b, &*a, "nope"] {
        let err = s.e.receive_specific(&url, id, None).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidParameterValueException);
    }
    assert_eq!(s.snapshot(), before);
    s.at(5_000);
    assert!(s.e.receive_specific(&url, &a, None).is_ok());
}
