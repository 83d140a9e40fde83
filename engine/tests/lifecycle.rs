//! Standard-queue lifecycle: send, receive, visibility, delete, retention, attributes.
mod common;

use common::*;
use sqs_engine::api::*;
use sqs_engine::event::{EventKind, VisibleReason};
use sqs_engine::view::MessageState;
use sqs_engine::{ErrorCode, Request, Response};

#[test]
fn crash_timeline_message_returns_at_exactly_the_visibility_timeout() {
    // §6/§13.2: VT 30, received at 12:00:00, consumer crashes; the message is receivable again
    // at exactly 12:00:30 (inclusive), with ApproximateReceiveCount 2 and a new receipt handle.
    let mut s = Sqs::new();
    let url = s.create("orders", &[]);
    s.send(&url, "order-1");
    let first = s.receive(&url, 1);
    assert_eq!(
        first[0].attributes.as_ref().unwrap()["ApproximateReceiveCount"],
        "1"
    );
    s.at(29_999);
    assert!(s.receive(&url, 1).is_empty());
    s.at(30_000);
    let again = s.receive(&url, 1);
    assert_eq!(again.len(), 1);
    let a = again[0].attributes.as_ref().unwrap();
    assert_eq!(a["ApproximateReceiveCount"], "2");
    assert_ne!(again[0].receipt_handle, first[0].receipt_handle);
    // First receive timestamp stays that of the first receive (§4.2).
    assert_eq!(
        a["ApproximateFirstReceiveTimestamp"],
        sqs_engine::EPOCH_MS.to_string()
    );
    let became_visible = s.events().into_iter().find(|e| {
        matches!(
            &e.kind,
            EventKind::BecameVisible {
                reason: VisibleReason::VisibilityExpired,
                ..
            }
        )
    });
    assert_eq!(became_visible.unwrap().at, 30_000);
}

#[test]
fn change_visibility_counts_from_the_call() {
    // §6: queue VT 60, 15 s elapsed, CMV 10 -> visible at 25 s.
    let mut s = Sqs::new();
    let url = s.create("q", &[("VisibilityTimeout", "60")]);
    s.send(&url, "m");
    let handle = s.receive(&url, 1)[0].receipt_handle;
    s.at(15_000);
    s.cmv(&url, handle, 10).unwrap();
    s.at(24_999);
    assert!(s.receive(&url, 1).is_empty());
    s.at(25_000);
    assert_eq!(s.bodies(&url, 1), ["m"]);
}

#[test]
fn change_visibility_is_capped_at_twelve_hours_per_receive() {
    // §6: reject iff (now - receive time) + VisibilityTimeout > 43200 s, with AWS's text;
    // extending does not reset the cap.
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    s.send(&url, "m");
    let handle = s.receive(&url, 1)[0].receipt_handle;
    s.at(5_000);
    let err = s.rejects(
        Sqs::cmv_request(&url, handle, 43_200),
        ErrorCode::InvalidParameterValueException,
    );
    assert_eq!(
        err.message,
        "Value 43200 for parameter VisibilityTimeout is invalid. Reason: Total VisibilityTimeout for the message is beyond the limit [43200 seconds]"
    );
    s.cmv(&url, handle, 43_195).unwrap();
    s.at(10_000);
    s.rejects(
        Sqs::cmv_request(&url, handle, 43_195),
        ErrorCode::InvalidParameterValueException,
    );
    s.cmv(&url, handle, 43_190).unwrap();
}

#[test]
fn visibility_change_applies_to_this_receipt_only() {
    // §6: the next receive uses the queue timeout again.
    let mut s = Sqs::new();
    let url = s.create("q", &[("VisibilityTimeout", "30")]);
    s.send(&url, "m");
    let h = s.receive(&url, 1)[0].receipt_handle;
    s.cmv(&url, h, 0).unwrap();
    assert_eq!(s.receive(&url, 1).len(), 1);
    s.at(29_999);
    assert!(s.receive(&url, 1).is_empty());
    s.at(30_000);
    assert_eq!(s.receive(&url, 1).len(), 1);
}

#[test]
fn visibility_timeout_parameter_overrides_the_queue() {
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    s.send(&url, "m");
    s.receive_with(ReceiveMessageInput {
        visibility_timeout: Some(5),
        ..Sqs::receive_input(&url, 1)
    });
    s.at(5_000);
    assert_eq!(s.bodies(&url, 1), ["m"]);
}

#[test]
fn approximate_counts_are_exact() {
    // §2.4: 6 sent, 1 received -> 5/1/0; after VT expiry -> 6/0/0; delayed count separately.
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    for i in 0..6 {
        s.send(&url, &format!("m{i}"));
    }
    s.receive(&url, 1);
    assert_eq!(s.counts(&url), counts(5, 1, 0));
    s.at(30_000);
    assert_eq!(s.counts(&url), counts(6, 0, 0));
    s.send_with(SendMessageInput {
        delay_seconds: Some(5),
        ..Sqs::send_input(&url, "late")
    });
    assert_eq!(s.counts(&url), counts(6, 0, 1));
    s.at(35_000);
    assert_eq!(s.counts(&url), counts(7, 0, 0));
}

#[test]
fn fresh_standard_queue_attributes_are_exactly_awss() {
    // §2.3: the exact attribute set of GetQueueAttributes(All) on a fresh standard queue.
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    let a = s.attributes(&url);
    let names: Vec<&str> = a.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "ApproximateNumberOfMessages",
            "ApproximateNumberOfMessagesDelayed",
            "ApproximateNumberOfMessagesNotVisible",
            "CreatedTimestamp",
            "DelaySeconds",
            "LastModifiedTimestamp",
            "MaximumMessageSize",
            "MessageRetentionPeriod",
            "QueueArn",
            "ReceiveMessageWaitTimeSeconds",
            "SqsManagedSseEnabled",
            "VisibilityTimeout",
        ]
    );
    assert_eq!(a["MaximumMessageSize"], "1048576");
    assert_eq!(a["MessageRetentionPeriod"], "345600");
    assert_eq!(a["VisibilityTimeout"], "30");
    assert_eq!(a["QueueArn"], "arn:aws:sqs:us-east-1:000000000000:q");
    assert_eq!(
        a["CreatedTimestamp"],
        (sqs_engine::EPOCH_MS / 1000).to_string()
    );
    assert_eq!(url, "https://sqs.us-east-1.amazonaws.com/000000000000/q");
    // Without AttributeNames the answer is {} (§2.3).
    let out = s.ok(Request::GetQueueAttributes(GetQueueAttributesInput {
        queue_url: url.clone(),
        attribute_names: None,
    }));
    assert_eq!(serde_json::to_string(&out).unwrap(), "{}");
}

#[test]
fn standard_delete_rules() {
    // §5: delete after VT expiry with the latest handle deletes; with an older handle after a
    // re-receive deletes; deleting again is 200; a garbage handle is ReceiptHandleIsInvalid.
    let mut s = Sqs::new();
    let url = s.create("q", &[("VisibilityTimeout", "1")]);
    s.send(&url, "a");
    let old = s.receive(&url, 1)[0].receipt_handle;
    s.at(1_000);
    let new = s.receive(&url, 1)[0].receipt_handle;
    assert_ne!(old, new);
    s.delete(&url, old).unwrap();
    assert_eq!(s.counts(&url), counts(0, 0, 0));
    s.delete(&url, new).unwrap();
    assert!(s
        .events()
        .iter()
        .any(|e| matches!(e.kind, EventKind::StaleDelete { .. })));
    let err = s.rejects(
        Request::DeleteMessage(DeleteMessageInput {
            queue_url: url.clone(),
            receipt_handle: "garbage".into(),
        }),
        ErrorCode::ReceiptHandleIsInvalid,
    );
    assert_eq!(
        err.message,
        "The input receipt handle \"garbage\" is not a valid receipt handle."
    );

    s.send(&url, "b");
    let h = s.receive(&url, 1)[0].receipt_handle;
    s.at(5_000);
    assert_eq!(s.counts(&url), counts(1, 0, 0));
    s.delete(&url, h).unwrap();
    assert_eq!(s.counts(&url), counts(0, 0, 0));
}

#[test]
fn change_visibility_special_cases() {
    // §6: expired-but-unreceived standard message -> 200 no-op; deleted message -> error text.
    let mut s = Sqs::new();
    let url = s.create("q", &[("VisibilityTimeout", "1")]);
    s.send(&url, "a");
    let h = s.receive(&url, 1)[0].receipt_handle;
    s.at(2_000);
    s.cmv(&url, h, 100).unwrap();
    assert_eq!(s.counts(&url), counts(1, 0, 0));
    s.delete(&url, h).unwrap();
    let err = s.rejects(
        Sqs::cmv_request(&url, h, 10),
        ErrorCode::InvalidParameterValueException,
    );
    assert_eq!(
        err.message,
        format!("Value {h} for parameter ReceiptHandle is invalid. Reason: Message does not exist or is not available for visibility timeout change.")
    );
}

#[test]
fn old_handle_change_visibility_applies_on_standard() {
    // §6 SIM CHOICE: standard accepts an older handle for CMV.
    let mut s = Sqs::new();
    let url = s.create("q", &[("VisibilityTimeout", "1")]);
    s.send(&url, "a");
    let old = s.receive(&url, 1)[0].receipt_handle;
    s.at(1_000);
    s.receive(&url, 1);
    s.cmv(&url, old, 0).unwrap();
    assert_eq!(s.counts(&url), counts(1, 0, 0));
}

#[test]
fn retention_expires_messages_in_flight_too() {
    // §8: expiry at sent + retention exactly, in flight included; a later delete returns 200.
    let mut s = Sqs::new();
    let url = s.create(
        "q",
        &[
            ("MessageRetentionPeriod", "60"),
            ("VisibilityTimeout", "120"),
        ],
    );
    s.send(&url, "a");
    let h = s.receive(&url, 1)[0].receipt_handle;
    s.at(59_999);
    assert_eq!(s.counts(&url), counts(0, 1, 0));
    s.at(60_000);
    assert_eq!(s.counts(&url), counts(0, 0, 0));
    let expired: Vec<_> = s
        .events()
        .into_iter()
        .filter(|e| matches!(e.kind, EventKind::RetentionExpired { .. }))
        .collect();
    assert_eq!(expired.len(), 1);
    assert_eq!(expired[0].at, 60_000);
    s.delete(&url, h).unwrap();
}

#[test]
fn shortening_retention_expires_old_messages_now() {
    // §2.3: reducing MessageRetentionPeriod can expire existing messages.
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    s.send(&url, "old");
    s.at(100_000);
    s.send(&url, "new");
    s.set(&url, &[("MessageRetentionPeriod", "60")]).unwrap();
    assert_eq!(s.bodies(&url, 10), ["new"]);
}

#[test]
fn standard_order_is_send_order_and_requeued_messages_come_first() {
    // §4.4: oldest-sent receivable first; a message visible again precedes newer ones.
    let mut s = Sqs::new();
    let url = s.create("q", &[("VisibilityTimeout", "2")]);
    s.send(&url, "a");
    s.receive(&url, 1);
    s.at(1_000);
    s.send(&url, "b");
    s.at(2_000);
    assert_eq!(s.bodies(&url, 10), ["a", "b"]);
}

#[test]
fn send_answers_with_md5s_and_no_sequence_number() {
    // §3.1: MD5OfMessageBody of "message"; attribute MD5 vector; no SequenceNumber on standard.
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    let mut attributes = MessageAttributes::new();
    attributes.insert(
        "MyAttribute".into(),
        MessageAttributeValue {
            data_type: "String".into(),
            string_value: Some("foobar".into()),
            binary_value: None,
        },
    );
    let out = s.send_with(SendMessageInput {
        message_attributes: Some(attributes),
        ..Sqs::send_input(&url, "message")
    });
    assert_eq!(out.md5_of_message_body, "78e731027d8fd50ed642340b7c9a63b3");
    assert_eq!(
        out.md5_of_message_attributes.as_deref(),
        Some("adb59cd4678ea5a855436b949cd07ab6")
    );
    assert!(out.sequence_number.is_none());
    assert_eq!(out.message_id.len(), 36);
}

#[test]
fn receive_attribute_selection() {
    // §4.1: union of AttributeNames and MessageSystemAttributeNames; inapplicable names omitted;
    // message attribute filters with MD5 recomputed over the returned subset.
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    let value = |v: &str| MessageAttributeValue {
        data_type: "String".into(),
        string_value: Some(v.into()),
        binary_value: None,
    };
    let mut attributes = MessageAttributes::new();
    attributes.insert("Foo".into(), value("Bar"));
    attributes.insert("other.x".into(), value("y"));
    s.send_with(SendMessageInput {
        message_attributes: Some(attributes),
        ..Sqs::send_input(&url, "m")
    });
    let got = s.receive_with(ReceiveMessageInput {
        attribute_names: Some(vec!["SenderId".into()]),
        message_system_attribute_names: Some(vec!["SequenceNumber".into(), "SentTimestamp".into()]),
        message_attribute_names: Some(vec!["Foo".into(), "nothing.*".into()]),
        ..Sqs::receive_input(&url, 1)
    });
    let m = &got[0];
    let names: Vec<&str> = m
        .attributes
        .as_ref()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(names, ["SenderId", "SentTimestamp"]);
    assert_eq!(m.message_attributes.as_ref().unwrap().len(), 1);
    assert_eq!(
        m.md5_of_message_attributes.as_deref(),
        Some("ae7155c6026991b6d54b11589678bf9c")
    );
    assert_eq!(m.md5_of_body, "6f8f57715090da2632453988d9a1501b");
}

#[test]
fn empty_receive_is_an_empty_object() {
    // §4.2: no messages -> {} without a Messages key.
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    let out = s.ok(Request::ReceiveMessage(Sqs::receive_input(&url, 1)));
    assert_eq!(serde_json::to_string(&out).unwrap(), "{}");
}

#[test]
fn purge_deletes_everything_and_has_a_cooldown() {
    // §10: purge deletes in-flight and delayed messages; a second purge within 60 s is 403.
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    s.send(&url, "a");
    s.send(&url, "b");
    s.send_with(SendMessageInput {
        delay_seconds: Some(10),
        ..Sqs::send_input(&url, "c")
    });
    s.receive(&url, 1);
    let purge = || {
        Request::PurgeQueue(QueueUrlInput {
            queue_url: url.clone(),
        })
    };
    s.ok(purge());
    assert_eq!(s.counts(&url), counts(0, 0, 0));
    s.send(&url, "after");
    assert_eq!(s.counts(&url), counts(1, 0, 0));
    s.at(59_999);
    let err = s.rejects(purge(), ErrorCode::PurgeQueueInProgress);
    assert_eq!(
        err.message,
        "Only one PurgeQueue operation on q is allowed every 60 seconds."
    );
    assert_eq!(err.code.status(), 403);
    s.at(60_000);
    s.ok(purge());
}

#[test]
fn views_show_each_state() {
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    s.send(&url, "a");
    s.send_with(SendMessageInput {
        delay_seconds: Some(3),
        ..Sqs::send_input(&url, "b")
    });
    s.send(&url, "c");
    let h = s.receive(&url, 1)[0].receipt_handle;
    let views = s.e.messages("q");
    assert_eq!(views.len(), 3);
    assert_eq!(
        views[0].state,
        MessageState::InFlight {
            until: 30_000,
            receipt_handle: h.to_string()
        }
    );
    assert_eq!(views[1].state, MessageState::Delayed { until: 3_000 });
    assert_eq!(views[2].state, MessageState::Visible);
    assert_eq!(views[0].receive_count, 1);
}

/// Runs one fixed scenario and returns everything observable.
fn scenario(seed: u64) -> String {
    let mut s = Sqs {
        e: sqs_engine::Engine::new(seed),
    };
    let url = s.create("q", &[("VisibilityTimeout", "5")]);
    let fifo = s.create("f.fifo", &[("FifoQueue", "true")]);
    let mut out = Vec::new();
    for i in 0..5 {
        out.push(format!("{:?}", s.send(&url, &format!("m{i}"))));
        out.push(format!("{:?}", s.send_fifo(&fifo, &format!("f{i}"), "g")));
    }
    out.push(format!("{:?}", s.receive(&url, 3)));
    out.push(format!("{:?}", s.receive(&fifo, 3)));
    s.at(7_000);
    out.push(format!("{:?}", s.receive(&url, 10)));
    out.push(format!("{:?}", s.events()));
    out.join("\n")
}

#[test]
fn same_seed_same_everything() {
    // Design requirement: same seed + inputs -> byte-identical outputs and events.
    assert_eq!(scenario(7), scenario(7));
    assert_ne!(scenario(7), scenario(8));
}

#[test]
fn list_queues_and_urls() {
    let mut s = Sqs::new();
    for name in ["b", "a", "ab"] {
        s.create(name, &[]);
    }
    let list = |s: &mut Sqs, prefix: Option<&str>, max: Option<i64>, token: Option<String>| match s
        .ok(Request::ListQueues(ListQueuesInput {
            queue_name_prefix: prefix.map(String::from),
            max_results: max,
            next_token: token,
        })) {
        Response::ListQueues(out) => out,
        other => panic!("{other:?}"),
    };
    let all = list(&mut s, Some("a"), None, None);
    assert_eq!(all.queue_urls.unwrap().len(), 2);
    assert!(all.next_token.is_none());
    let page = list(&mut s, None, Some(2), None);
    assert_eq!(page.queue_urls.as_ref().unwrap().len(), 2);
    let rest = list(&mut s, None, Some(2), page.next_token);
    assert_eq!(
        rest.queue_urls.unwrap(),
        ["https://sqs.us-east-1.amazonaws.com/000000000000/b"]
    );
    assert!(list(&mut s, Some("zzz"), None, None).queue_urls.is_none());
    let got = s.ok(Request::GetQueueUrl(GetQueueUrlInput {
        queue_name: "ab".into(),
        queue_owner_a_w_s_account_id: None,
    }));
    assert!(matches!(got, Response::GetQueueUrl(out) if out.queue_url.ends_with("/ab")));
}

#[test]
fn create_queue_idempotency_and_recent_deletion() {
    // §2.2: same attributes -> same URL; a different value -> QueueAlreadyExists naming it.
    // §2.1: re-creating within 60 s of deletion -> QueueDeletedRecently.
    let mut s = Sqs::new();
    let url = s.create("q", &[("VisibilityTimeout", "40")]);
    assert_eq!(s.create("q", &[("VisibilityTimeout", "40")]), url);
    assert_eq!(s.create("q", &[]), url);
    let err = s.rejects(
        Request::CreateQueue(CreateQueueInput {
            queue_name: "q".into(),
            attributes: Some(attrs(&[("DelaySeconds", "5")])),
            tags: None,
        }),
        ErrorCode::QueueNameExists,
    );
    assert_eq!(
        err.message,
        "A queue already exists with the same name and a different value for attribute DelaySeconds"
    );
    s.at(1_000);
    s.ok(Request::DeleteQueue(QueueUrlInput {
        queue_url: url.clone(),
    }));
    s.at(60_999);
    let create = Request::CreateQueue(CreateQueueInput {
        queue_name: "q".into(),
        ..Default::default()
    });
    let err = s.rejects(create.clone(), ErrorCode::QueueDeletedRecently);
    assert_eq!(
        err.message,
        "You must wait 60 seconds after deleting a queue before you can create another with the same name."
    );
    s.at(61_000);
    s.ok(create);
}

#[test]
fn next_deadline_is_exact() {
    // advance_to/next_deadline contract: the earliest instant with work, nothing stale.
    let mut s = Sqs::new();
    let url = s.create(
        "q",
        &[
            ("MessageRetentionPeriod", "60"),
            ("VisibilityTimeout", "10"),
        ],
    );
    assert_eq!(s.e.next_deadline(), None);
    s.send(&url, "a");
    assert_eq!(s.e.next_deadline(), Some(60_000));
    let h = s.receive(&url, 1)[0].receipt_handle;
    assert_eq!(s.e.next_deadline(), Some(10_000));
    s.at(5_000);
    s.send(&url, "b");
    s.delete(&url, h).unwrap();
    // a's visibility and retention entries are gone; b expires at 65 s.
    assert_eq!(s.e.next_deadline(), Some(65_000));
}

#[test]
fn a_queue_url_names_its_queue_by_its_text_wherever_it_came_from() {
    // Engine `a` issues "b" as its first queue; in `s` the first queue is "a" and "b" is second:
    // `a`'s URL for "b" must reach `s`'s "b", not `s`'s first queue.
    let mut a = Sqs::new();
    let foreign = a.create("b", &[]);
    let mut s = Sqs::new();
    s.create("a", &[]);
    let own = s.create("b", &[]);
    assert_eq!(foreign, own, "the same text");
    let to = |queue_url: QueueUrl, body: &str| SendMessageInput {
        queue_url,
        message_body: body.into(),
        ..Default::default()
    };
    s.send_with(to(foreign, "via a's URL"));
    assert_eq!(s.e.depth("b"), Some([1, 0, 0]));
    assert_eq!(s.e.depth("a"), Some([0, 0, 0]));
    // The same text made anew, and the engine's own URL: all name "b".
    s.send(&own.to_string(), "via the text");
    s.send_with(to(s.e.queue_url("b").unwrap(), "via queue_url"));
    assert_eq!(s.e.depth("b"), Some([3, 0, 0]));
    // A URL of a deleted queue names the queue created again under its name.
    s.ok(Request::DeleteQueue(QueueUrlInput {
        queue_url: own.clone(),
    }));
    s.rejects(
        Request::SendMessage(to(own.clone(), "gone")),
        ErrorCode::QueueDoesNotExist,
    );
    s.at(60_000);
    let again = s.create("b", &[]);
    assert_eq!(again, own);
    s.send_with(to(own, "to the new b"));
    assert_eq!(s.e.depth("b"), Some([1, 0, 0]));
    assert_eq!(s.e.depth("a"), Some([0, 0, 0]));
}
