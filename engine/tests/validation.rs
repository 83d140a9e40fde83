//! Every out-of-range or malformed parameter gives AWS's error and changes nothing.
mod common;

use common::*;
use sqs_engine::api::*;
use sqs_engine::ErrorCode::{self, *};
use sqs_engine::{Request, Response};

fn create(name: &str, pairs: &[(&str, &str)]) -> Request {
    Request::CreateQueue(CreateQueueInput {
        queue_name: name.into(),
        attributes: Some(attrs(pairs)),
        tags: None,
    })
}

fn check(s: &mut Sqs, request: Request, code: ErrorCode, message: &str) {
    let err = s.rejects(request, code);
    assert_eq!(err.message, message);
}

#[test]
fn create_queue_rules() {
    // §2.1, §2.3.
    let mut s = Sqs::new();
    let standard_name =
        "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length";
    check(
        &mut s,
        create("has space", &[]),
        InvalidParameterValueException,
        standard_name,
    );
    check(
        &mut s,
        create(&"a".repeat(81), &[]),
        InvalidParameterValueException,
        standard_name,
    );
    check(
        &mut s,
        create("x.fifo", &[]),
        InvalidParameterValueException,
        standard_name,
    );
    check(
        &mut s,
        create("x", &[("FifoQueue", "true")]),
        InvalidParameterValueException,
        "The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must end with .fifo suffix and be 1 to 80 in length",
    );
    check(
        &mut s,
        create("x", &[("FifoQueue", "false")]),
        InvalidAttributeName,
        "Unknown Attribute FifoQueue.",
    );
    check(
        &mut s,
        create("x", &[("ContentBasedDeduplication", "true")]),
        InvalidAttributeName,
        "Unknown Attribute ContentBasedDeduplication.",
    );
    check(
        &mut s,
        create("x", &[("DeduplicationScope", "queue")]),
        InvalidAttributeName,
        "You can specify the DeduplicationScope only when FifoQueue is set to true.",
    );
    check(
        &mut s,
        create("x", &[("Colour", "red")]),
        InvalidAttributeName,
        "Unknown Attribute Colour.",
    );
    for (name, bad) in [
        ("VisibilityTimeout", "43201"),
        ("VisibilityTimeout", "-1"),
        ("DelaySeconds", "901"),
        ("MessageRetentionPeriod", "1209601"),
        ("MaximumMessageSize", "1048577"),
        ("ReceiveMessageWaitTimeSeconds", "21"),
        ("KmsDataKeyReusePeriodSeconds", "59"),
        ("VisibilityTimeout", "abc"),
    ] {
        check(
            &mut s,
            create("x", &[(name, bad)]),
            InvalidAttributeValue,
            &format!("Invalid value for the parameter {name}."),
        );
    }
    check(
        &mut s,
        create("x.fifo", &[("FifoQueue", "true"), ("FifoThroughputLimit", "perMessageGroupId")]),
        InvalidAttributeValue,
        "Invalid value for the parameter FifoThroughputLimit. Reason: The perMessageGroupId value is allowed only when the value for DeduplicationScope is messageGroup.",
    );
    s.create(&"a".repeat(80), &[]);
    s.create(
        &format!("{}.fifo", "a".repeat(75)),
        &[("FifoQueue", "true")],
    );
}

#[test]
fn queue_type_cannot_change() {
    // §2.3 AWS-recorded.
    let mut s = Sqs::new();
    let std_url = s.create("s", &[]);
    let fifo_url = s.create("f.fifo", &[("FifoQueue", "true")]);
    let set = |url: &str, pairs: &[(&str, &str)]| {
        Request::SetQueueAttributes(SetQueueAttributesInput {
            queue_url: url.into(),
            attributes: attrs(pairs),
        })
    };
    check(
        &mut s,
        set(&std_url, &[("FifoQueue", "true")]),
        InvalidAttributeName,
        "Unknown Attribute FifoQueue.",
    );
    check(
        &mut s,
        set(&fifo_url, &[("FifoQueue", "false")]),
        InvalidAttributeValue,
        "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported.",
    );
    s.set(&fifo_url, &[("FifoQueue", "true")]).unwrap();
    // A failing SetQueueAttributes applies none of its attributes.
    check(
        &mut s,
        set(
            &std_url,
            &[("DelaySeconds", "5"), ("VisibilityTimeout", "99999")],
        ),
        InvalidAttributeValue,
        "Invalid value for the parameter VisibilityTimeout.",
    );
}

#[test]
fn unknown_queue_and_attribute_names() {
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    check(
        &mut s,
        Request::SendMessage(Sqs::send_input(
            "https://sqs.us-east-1.amazonaws.com/000000000000/nope",
            "x",
        )),
        QueueDoesNotExist,
        "The specified queue does not exist.",
    );
    check(
        &mut s,
        Request::SendMessage(Sqs::send_input(
            "https://sqs.us-east-1.amazonaws.com/111111111111/q",
            "x",
        )),
        QueueDoesNotExist,
        "The specified queue does not exist.",
    );
    check(
        &mut s,
        Request::GetQueueAttributes(GetQueueAttributesInput {
            queue_url: url,
            attribute_names: Some(vec!["Nope".into()]),
        }),
        InvalidAttributeName,
        "Unknown Attribute Nope.",
    );
}

fn string_attribute(value: &str) -> MessageAttributeValue {
    MessageAttributeValue {
        data_type: "String".into(),
        string_value: Some(value.into()),
        binary_value: None,
    }
}

#[test]
fn send_message_rules() {
    // §3.2, §3.3, §3.5.
    let mut s = Sqs::new();
    let url = s.create("q", &[("MaximumMessageSize", "1024")]);
    let send = |f: &dyn Fn(&mut SendMessageInput)| {
        let mut input = Sqs::send_input(&url, "body");
        f(&mut input);
        Request::SendMessage(input)
    };
    check(
        &mut s,
        send(&|i| i.message_body = "".into()),
        MissingRequiredParameterException,
        "The request must contain the parameter MessageBody.",
    );
    check(
        &mut s,
        send(&|i| i.message_body = "bad\u{0}char".into()),
        InvalidMessageContents,
        "Invalid characters found. Valid unicode characters are #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF",
    );
    check(
        &mut s,
        send(&|i| i.delay_seconds = Some(901)),
        InvalidParameterValueException,
        "Value 901 for parameter DelaySeconds is invalid. Reason: DelaySeconds must be >= 0 and <= 900.",
    );
    check(
        &mut s,
        send(&|i| i.message_body = "x".repeat(1025).into()),
        InvalidParameterValueException,
        "One or more parameters are invalid. Reason: Message must be shorter than 1024 bytes.",
    );
    // Attributes count toward the size.
    check(
        &mut s,
        send(&|i| {
            i.message_body = "x".repeat(1000).into();
            i.message_attributes =
                Some([("Name".to_string(), string_attribute(&"v".repeat(20)))].into());
        }),
        InvalidParameterValueException,
        "One or more parameters are invalid. Reason: Message must be shorter than 1024 bytes.",
    );
    check(
        &mut s,
        send(&|i| {
            i.message_attributes = Some([("ErrorDetails".to_string(), string_attribute(""))].into())
        }),
        InvalidParameterValueException,
        "Message (user) attribute 'ErrorDetails' must contain a non-empty value of type 'String'.",
    );
    check(
        &mut s,
        send(&|i| {
            i.message_attributes = Some(
                (0..11)
                    .map(|n| (format!("a{n}"), string_attribute("v")))
                    .collect(),
            );
        }),
        InvalidParameterValueException,
        "Number of message attributes [11] exceeds the allowed maximum [10].",
    );
    s.rejects(
        send(&|i| {
            i.message_attributes = Some([("AWS.x".to_string(), string_attribute("v"))].into())
        }),
        InvalidParameterValueException,
    );
    check(
        &mut s,
        send(&|i| i.message_deduplication_id = Some("d".into())),
        InvalidParameterValueException,
        "Value d for parameter MessageDeduplicationId is invalid. Reason: The request includes a parameter that is not valid for this queue type.",
    );
    let long = "g".repeat(129);
    check(
        &mut s,
        send(&|i| i.message_group_id = Some("g".repeat(129))),
        InvalidParameterValueException,
        &format!("Value {long} for parameter MessageGroupId is invalid. Reason: MessageGroupId can only include alphanumeric and punctuation characters. 1 to 128 in length."),
    );
    // A body of exactly MaximumMessageSize bytes is accepted; fair-queue group ids are too.
    s.send(&url, &"x".repeat(1024));
    s.send_with(SendMessageInput {
        message_group_id: Some("tenant-1".into()),
        ..Sqs::send_input(&url, "fair")
    });
}

#[test]
fn send_batch_rules() {
    // §3.6: whole-request errors, per-entry failures, empty lists omitted.
    let mut s = Sqs::new();
    let url = s.create("q", &[("MaximumMessageSize", "1024")]);
    let batch = |entries: Vec<(&str, String)>| {
        Request::SendMessageBatch(SendMessageBatchInput {
            queue_url: url.clone(),
            entries: entries
                .into_iter()
                .map(|(id, body)| SendMessageBatchEntry {
                    id: id.into(),
                    message_body: body.into(),
                    ..Default::default()
                })
                .collect(),
        })
    };
    check(
        &mut s,
        batch(vec![]),
        EmptyBatchRequest,
        "There should be at least one SendMessageBatchRequestEntry in the request.",
    );
    let ids: Vec<String> = (0..11).map(|i| format!("id_{i}")).collect();
    check(
        &mut s,
        batch(ids.iter().map(|i| (i.as_str(), "x".to_string())).collect()),
        TooManyEntriesInBatchRequest,
        "Maximum number of entries per request are 10. You have sent 11.",
    );
    check(
        &mut s,
        batch(vec![("bad id!", "x".into())]),
        InvalidBatchEntryId,
        "A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.",
    );
    check(
        &mut s,
        batch(vec![
            ("id_1", "x".into()),
            ("id_2", "x".into()),
            ("id_2", "x".into()),
        ]),
        BatchEntryIdsNotDistinct,
        "Id id_2 repeated.",
    );
    check(
        &mut s,
        batch(vec![("a", "x".repeat(600_000)), ("b", "x".repeat(448_577))]),
        BatchRequestTooLong,
        "Batch requests cannot be longer than 1048576 bytes. You have sent 1048577 bytes.",
    );
    let out = s.ok(batch(vec![
        ("ok", "fine".into()),
        ("big", "x".repeat(1025)),
        ("bad", "\u{1}".into()),
    ]));
    let Response::SendMessageBatch(out) = out else {
        panic!()
    };
    assert_eq!(out.successful.len(), 1);
    assert_eq!(out.failed[0].code, "InvalidParameterValue");
    assert!(out.failed[0].sender_fault);
    assert_eq!(
        out.failed[0].message.as_deref(),
        Some("One or more parameters cannot be validated. Reason: Message must be shorter than 1024 bytes.")
    );
    assert_eq!(out.failed[1].code, "InvalidMessageContents");
    let all_ok = s.ok(batch(vec![("a", "1".into()), ("b", "2".into())]));
    let json = serde_json::to_value(&all_ok).unwrap();
    assert!(json.get("Failed").is_none());
    assert_eq!(json["Successful"].as_array().unwrap().len(), 2);
    assert_eq!(s.counts(&url), counts(3, 0, 0));
}

#[test]
fn receive_parameter_rules() {
    // §4.1.
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    s.send(&url, "m");
    let receive = |f: &dyn Fn(&mut ReceiveMessageInput)| {
        let mut input = Sqs::receive_input(&url, 1);
        f(&mut input);
        Request::ReceiveMessage(input)
    };
    for max in [0, 11] {
        check(
            &mut s,
            receive(&|i| i.max_number_of_messages = Some(max)),
            InvalidParameterValueException,
            &format!("Value {max} for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided."),
        );
    }
    for wait in [-1, 21] {
        check(
            &mut s,
            receive(&|i| i.wait_time_seconds = Some(wait)),
            InvalidParameterValueException,
            &format!("Value {wait} for parameter WaitTimeSeconds is invalid. Reason: Must be >= 0 and <= 20, if provided."),
        );
    }
    check(
        &mut s,
        receive(&|i| i.visibility_timeout = Some(43_201)),
        InvalidParameterValueException,
        "Value 43201 for parameter VisibilityTimeout is invalid. Reason: Must be >= 0 and <= 43200, if provided.",
    );
}

#[test]
fn handle_batch_rules() {
    // §5, §6: whole-request errors and per-entry failures.
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    s.send(&url, "m");
    let handle = s.receive(&url, 1)[0].receipt_handle;
    check(
        &mut s,
        Request::DeleteMessageBatch(DeleteMessageBatchInput {
            queue_url: url.clone(),
            entries: vec![],
        }),
        EmptyBatchRequest,
        "There should be at least one DeleteMessageBatchRequestEntry in the request.",
    );
    check(
        &mut s,
        Sqs::cmv_request(&url, handle, -1),
        InvalidParameterValueException,
        "Value -1 for parameter VisibilityTimeout is invalid. Reason: Must be >= 0 and <= 43200, if provided.",
    );
    let out = s.ok(Request::ChangeMessageVisibilityBatch(
        ChangeMessageVisibilityBatchInput {
            queue_url: url.clone(),
            entries: vec![
                ChangeMessageVisibilityBatchEntry {
                    id: "a".into(),
                    receipt_handle: handle.into(),
                    visibility_timeout: Some(100),
                },
                ChangeMessageVisibilityBatchEntry {
                    id: "b".into(),
                    receipt_handle: "junk".into(),
                    visibility_timeout: Some(100),
                },
            ],
        },
    ));
    let Response::Batch(out) = out else { panic!() };
    assert_eq!(out.successful, [BatchResultEntry { id: "a".into() }]);
    assert_eq!(out.failed[0].code, "ReceiptHandleIsInvalid");
    let out = s.ok(Request::DeleteMessageBatch(DeleteMessageBatchInput {
        queue_url: url.clone(),
        entries: vec![DeleteMessageBatchEntry {
            id: "a".into(),
            receipt_handle: handle.into(),
        }],
    }));
    assert_eq!(
        serde_json::to_string(&out).unwrap(),
        r#"{"Successful":[{"Id":"a"}]}"#
    );
    assert_eq!(s.counts(&url), counts(0, 0, 0));
}

#[test]
fn list_parameter_rules() {
    let mut s = Sqs::new();
    s.create("q", &[]);
    check(
        &mut s,
        Request::ListQueues(ListQueuesInput {
            max_results: Some(0),
            ..Default::default()
        }),
        InvalidParameterValueException,
        "Value 0 for parameter MaxResults is invalid. Reason: MaxResults must be an integer between 1 and 1000.",
    );
    check(
        &mut s,
        Request::ListQueues(ListQueuesInput {
            next_token: Some("???".into()),
            ..Default::default()
        }),
        InvalidParameterValueException,
        "Invalid NextToken value.",
    );
}

#[test]
fn short_poll_over_the_in_flight_limit_is_over_limit() {
    // §11 SIM CHOICE: a standard short poll with 120,000 messages in flight -> OverLimit (403);
    // a long poll just gets nothing.
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    for chunk in 0..12_001 {
        let entries = (0..10)
            .map(|i| SendMessageBatchEntry {
                id: i.to_string(),
                message_body: format!("{chunk}-{i}").into(),
                ..Default::default()
            })
            .collect();
        s.ok(Request::SendMessageBatch(SendMessageBatchInput {
            queue_url: url.clone(),
            entries,
        }));
    }
    for _ in 0..12_000 {
        assert_eq!(s.receive(&url, 10).len(), 10);
    }
    // (Not `rejects`: snapshotting 120,000 messages is slow in debug builds.)
    let err = s.err(Request::ReceiveMessage(Sqs::receive_input(&url, 10)));
    assert_eq!(err.code, OverLimit);
    assert_eq!(err.code.status(), 403);
    let long = Request::ReceiveMessage(ReceiveMessageInput {
        wait_time_seconds: Some(1),
        ..Sqs::receive_input(&url, 10)
    });
    assert!(matches!(s.e.call(long), sqs_engine::Reply::Pending(_)));
}
