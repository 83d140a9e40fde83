//! `sqs-sim serve` on the wire: both protocols, bad input answered as AWS answers it (in the
//! request's protocol, changing nothing), and the clock API driving a long poll. Each test starts
//! its own server on a free loopback port and speaks raw HTTP/1.1 to it.

mod common;

use common::{call, control, json_raw, send, start, Answer};
use serde_json::{json, Value};
use std::net::SocketAddr;

/// Asserts that `answer`'s body contains `text`.
fn contains(answer: &Answer, text: &str) {
    assert!(answer.body.contains(text), "{text} not in {}", answer.body);
}

/// A query-protocol call to `path` with form parameters.
fn query(at: SocketAddr, path: &str, form: &str) -> Answer {
    send(
        at,
        "POST",
        path,
        &["Content-Type: application/x-www-form-urlencoded"],
        form.as_bytes(),
    )
}

fn queue_count(at: SocketAddr) -> usize {
    let listed = call(at, "ListQueues", &json!({})).json();
    listed["QueueUrls"].as_array().map_or(0, Vec::len)
}

#[test]
fn json_calls_answer_with_our_urls_arns_and_a_request_id() {
    let at = start();
    let created = call(at, "CreateQueue", &json!({"QueueName": "q"}));
    assert_eq!(created.status, 200);
    assert_eq!(
        created.header("content-type"),
        Some("application/x-amz-json-1.0")
    );
    assert!(created
        .header("x-amzn-requestid")
        .is_some_and(|id| id.len() == 36));
    let url = format!("http://{at}/123456789012/q");
    assert_eq!(created.json(), json!({"QueueUrl": url}));
    let attributes = call(
        at,
        "GetQueueAttributes",
        &json!({"QueueUrl": url, "AttributeNames": ["QueueArn"]}),
    );
    assert_eq!(
        attributes.json()["Attributes"]["QueueArn"],
        "arn:aws:sqs:eu-west-1:123456789012:q"
    );
    // The queue URL's path names the queue too.
    let headers = ["X-Amz-Target: AmazonSQS.SendMessage"];
    let sent = send(
        at,
        "POST",
        "/123456789012/q",
        &headers,
        br#"{"MessageBody": "hi"}"#,
    );
    assert_eq!(
        sent.json()["MD5OfMessageBody"],
        "49f68a5c8493ec2c0bf489821c21fc3b"
    );
}

#[test]
fn bad_json_requests_get_aws_errors_and_change_nothing() {
    let at = start();
    // Target, body, the error's shape and its x-amzn-query-error header (all are HTTP 400).
    let cases: [(&str, &[u8], &str, Option<&str>); 5] = [
        (
            "AmazonSQS.CreateQueue",
            b"{not json",
            "com.amazon.coral.service#SerializationException",
            None,
        ),
        (
            "AmazonSQS.CreateQueue",
            b"[1]",
            "com.amazon.coral.service#SerializationException",
            None,
        ),
        (
            "AmazonSQS.Explode",
            b"{}",
            "com.amazon.coral.service#UnknownOperationException",
            Some("InvalidAction;Sender"),
        ),
        (
            "AmazonSQS.CreateQueue",
            b"{}",
            "com.amazon.coral.service#MissingRequiredParameterException",
            Some("MissingParameter;Sender"),
        ),
        (
            "AmazonSQS.CreateQueue",
            br#"{"QueueName": 7}"#,
            "com.amazon.coral.service#SerializationException",
            None,
        ),
    ];
    for (target, body, shape, header) in cases {
        let answer = json_raw(at, target, body);
        assert_eq!(
            (answer.status, answer.json()["__type"].as_str()),
            (400, Some(shape)),
            "{target} {}",
            answer.body
        );
        assert!(answer.json()["message"].is_string());
        if let Some(header) = header {
            assert_eq!(answer.header("x-amzn-query-error"), Some(header));
        }
    }
    assert_eq!(
        call(at, "CreateQueue", &json!({})).json()["message"],
        "The request must contain the parameter QueueName."
    );
    let missing = call(at, "GetQueueUrl", &json!({"QueueName": "nope"}));
    assert_eq!(
        missing.header("x-amzn-query-error"),
        Some("AWS.SimpleQueueService.NonExistentQueue;Sender")
    );
    let too_long = vec![b' '; sqs_server::sqs::MAX_BODY + 1];
    assert_eq!(json_raw(at, "AmazonSQS.ListQueues", &too_long).status, 413);
    assert_eq!(queue_count(at), 0);
}

#[test]
fn the_query_protocol_answers_in_xml() {
    let at = start();
    let created = query(at, "/", "Action=CreateQueue&Version=2012-11-05&QueueName=q&Attribute.1.Name=DelaySeconds&Attribute.1.Value=0");
    assert_eq!(created.status, 200, "{}", created.body);
    assert_eq!(created.header("content-type"), Some("text/xml"));
    contains(&created, &format!("<CreateQueueResult><QueueUrl>http://{at}/123456789012/q</QueueUrl></CreateQueueResult>"));
    let q = "/123456789012/q";
    // Each request (to a path), with what its answer contains.
    let calls = [
        (q, "Action=SendMessage&MessageBody=a%26b%0D%0A&MessageAttribute.1.Name=k\
            &MessageAttribute.1.Value.DataType=String&MessageAttribute.1.Value.StringValue=v",
         vec!["<MD5OfMessageAttributes>"]),
        (q, "Action=ReceiveMessage&MessageAttributeName.1=All&AttributeName.1=All", vec![
            "<Body>a&amp;b&#xD;\n</Body>",
            "<MessageAttribute><Name>k</Name><Value><DataType>String</DataType><StringValue>v</StringValue></Value></MessageAttribute>",
            "<Attribute><Name>ApproximateReceiveCount</Name><Value>1</Value></Attribute>",
        ]),
        ("/", "Action=GetQueueUrl&QueueName=nope", vec!["<Code>AWS.SimpleQueueService.NonExistentQueue</Code>"]),
        (q, "Action=SendMessage&MessageBody=x&DelaySeconds=soon", vec!["<Code>InvalidParameterValue</Code>"]),
    ];
    for (path, form, texts) in calls {
        let answer = query(at, path, form);
        for text in texts {
            contains(&answer, text);
        }
    }
    let unknown = send(at, "GET", "/?Action=Explode", &[], b"");
    assert_eq!(unknown.status, 400);
    contains(&unknown, "<Code>InvalidAction</Code>");
    let batch = query(at, "/123456789012/q", "Action=SendMessageBatch&SendMessageBatchRequestEntry.1.Id=a\
        &SendMessageBatchRequestEntry.1.MessageBody=1&SendMessageBatchRequestEntry.2.Id=b&SendMessageBatchRequestEntry.2.MessageBody=2");
    assert_eq!(
        batch.body.matches("<SendMessageBatchResultEntry>").count(),
        2,
        "{}",
        batch.body
    );
}

#[test]
fn a_long_poll_ends_when_the_clock_is_advanced_to_its_deadline() {
    let at = start();
    let control = |path: &str, body: &Value| control(at, path, body).json();
    let url = call(at, "CreateQueue", &json!({"QueueName": "q"})).json()["QueueUrl"].clone();
    let paused = control("/_sqs-sim/clock", &json!({"pause": true}));
    assert_eq!(paused["paused"], true);
    let paused_at = paused["now_ms"].as_u64().unwrap();
    let poll = std::thread::spawn(move || {
        let started = std::time::Instant::now();
        let answer = call(
            at,
            "ReceiveMessage",
            &json!({"QueueUrl": url, "WaitTimeSeconds": 20}),
        );
        (answer.json(), started.elapsed())
    });
    while send(at, "GET", "/_sqs-sim/state", &[], b"").json()["waiting_polls"] != 1 {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let state = control("/_sqs-sim/clock", &json!({"advance": 19.999}));
    assert_eq!(state["waiting_polls"], 1, "{state}");
    let state = control("/_sqs-sim/clock", &json!({"advance": 0.001}));
    assert_eq!(state["waiting_polls"], 0, "{state}");
    let (answer, waited) = poll.join().unwrap();
    assert_eq!(answer, json!({}));
    assert!(waited.as_secs() < 10, "{waited:?}");
    // A bad clock request changes nothing.
    let bad = common::control(
        at,
        "/_sqs-sim/clock",
        &json!({"advance": -1, "pause": false}),
    );
    assert_eq!(bad.status, 400);
    let state = send(at, "GET", "/_sqs-sim/state", &[], b"").json();
    assert_eq!(
        (state["paused"].clone(), state["now_ms"].clone()),
        (json!(true), json!(paused_at + 20_000))
    );
    let reset = control("/_sqs-sim/reset", &json!({}));
    assert_eq!(
        (reset["now_ms"].clone(), reset["queues"].clone()),
        (json!(0), json!([]))
    );
}

#[test]
fn the_clock_runs_at_its_speed() {
    let at = start();
    let control = |body: &Value| control(at, "/_sqs-sim/clock", body).json();
    let before = control(&json!({"speed": 1000}))["now_ms"].as_u64().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(100));
    let state = control(&json!({"pause": true}));
    let ran = state["now_ms"].as_u64().unwrap() - before;
    // 100 ms of wall time at 1000x: at least 100 virtual seconds.
    assert!(ran >= 100_000, "{ran} ms in 100 ms at 1000x");
    assert_eq!(state["speed"], 1000.0);
}

#[test]
fn a_queue_url_takes_only_the_actions_on_that_queue() {
    let at = start();
    call(at, "CreateQueue", &json!({"QueueName": "q"}));
    for action in ["CreateQueue&QueueName=other", "ListQueues"] {
        let answer = query(at, "/123456789012/q", &format!("Action={action}"));
        assert_eq!(answer.status, 400, "{}", answer.body);
        contains(&answer, "<Code>InvalidAction</Code>");
        let name = action.split('&').next().unwrap();
        contains(
            &answer,
            &format!("The action {name} is not valid for this endpoint."),
        );
    }
    assert_eq!(queue_count(at), 1);
    // A browser opening a queue URL.
    let opened = send(at, "GET", "/123456789012/q", &[], b"");
    assert_eq!(opened.status, 404);
    contains(&opened, "<Code>UnknownOperationException</Code>");
}

#[test]
fn an_x_ray_trace_header_becomes_the_messages_aws_trace_header() {
    let at = start();
    let url = call(at, "CreateQueue", &json!({"QueueName": "q"})).json()["QueueUrl"].clone();
    let trace = "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1";
    let headers = [
        "X-Amz-Target: AmazonSQS.SendMessage",
        "Content-Type: application/x-amz-json-1.0",
        &format!("X-Amzn-Trace-Id: {trace}"),
    ];
    let input = json!({"QueueUrl": url, "MessageBody": "traced"});
    let sent = send(at, "POST", "/", &headers, input.to_string().as_bytes());
    assert_eq!(sent.status, 200, "{}", sent.body);
    let received = call(
        at,
        "ReceiveMessage",
        &json!({"QueueUrl": url, "MessageSystemAttributeNames": ["AWSTraceHeader"]}),
    );
    assert_eq!(
        received.json()["Messages"][0]["Attributes"]["AWSTraceHeader"],
        trace
    );
}
