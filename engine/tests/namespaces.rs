//! Queues live per account and region (`Engine::call_in`): a caller in one namespace neither sees
//! nor names by name another's queues; URLs and ARNs carry the namespace; a dead-letter queue is
//! in its source queue's namespace [DG:Amazon SQS queue and message identifiers; DG:Using
//! dead-letter queues in Amazon SQS].

use serde_json::{json, Value};
use sqs_engine::{Engine, ErrorCode, Namespace, Reply, Request, SqsError};

fn call(
    engine: &mut Engine,
    ns: &Namespace,
    action: &str,
    input: Value,
) -> Result<Value, SqsError> {
    let request = Request::from_input(action, input).expect("a valid input");
    match engine.call_in(ns, request) {
        Reply::Done(result) => result.map(|r| serde_json::to_value(r).expect("JSON")),
        Reply::Pending(poll) => panic!("unexpected pending poll {poll}"),
    }
}

#[test]
fn each_region_and_account_has_its_own_queues() {
    let mut e = Engine::new(1);
    let us = Namespace::DEFAULT;
    let eu = Namespace::new("000000000000", "eu-west-1");
    let other = Namespace::new("111111111111", "us-east-1");
    let us_q = call(&mut e, &us, "CreateQueue", json!({"QueueName": "orders"})).unwrap();
    let eu_q = call(
        &mut e,
        &eu,
        "CreateQueue",
        json!({"QueueName": "orders", "Attributes": {"DelaySeconds": "5"}}),
    )
    .unwrap();
    assert_eq!(
        us_q["QueueUrl"],
        "https://sqs.us-east-1.amazonaws.com/000000000000/orders"
    );
    assert_eq!(
        eu_q["QueueUrl"],
        "https://sqs.eu-west-1.amazonaws.com/000000000000/orders"
    );
    call(
        &mut e,
        &other,
        "CreateQueue",
        json!({"QueueName": "billing"}),
    )
    .unwrap();

    let list = |e: &mut Engine, ns: &Namespace| call(e, ns, "ListQueues", json!({})).unwrap();
    assert_eq!(
        list(&mut e, &eu),
        json!({"QueueUrls": ["https://sqs.eu-west-1.amazonaws.com/000000000000/orders"]})
    );
    assert_eq!(
        list(&mut e, &us),
        json!({"QueueUrls": ["https://sqs.us-east-1.amazonaws.com/000000000000/orders"]})
    );
    assert_eq!(
        list(&mut e, &other),
        json!({"QueueUrls": ["https://sqs.us-east-1.amazonaws.com/111111111111/billing"]})
    );
    assert_eq!(
        list(&mut e, &Namespace::new("000000000000", "ap-south-1")),
        json!({})
    );

    // Same name, two queues: the attributes set in eu-west-1 are not us-east-1's.
    let delay = |e: &mut Engine, url: &Value| {
        let input = json!({"QueueUrl": url, "AttributeNames": ["DelaySeconds", "QueueArn"]});
        call(e, &us, "GetQueueAttributes", input).unwrap()["Attributes"].clone()
    };
    assert_eq!(
        delay(&mut e, &eu_q["QueueUrl"]),
        json!({"DelaySeconds": "5", "QueueArn": "arn:aws:sqs:eu-west-1:000000000000:orders"})
    );
    assert_eq!(
        delay(&mut e, &us_q["QueueUrl"]),
        json!({"DelaySeconds": "0", "QueueArn": "arn:aws:sqs:us-east-1:000000000000:orders"})
    );

    // GetQueueUrl in the caller's namespace, or the owner's account in the caller's region.
    let url = |e: &mut Engine, ns: &Namespace, input: Value| call(e, ns, "GetQueueUrl", input);
    let billing = url(
        &mut e,
        &us,
        json!({"QueueName": "billing", "QueueOwnerAWSAccountId": "111111111111"}),
    );
    assert_eq!(
        billing.unwrap()["QueueUrl"],
        "https://sqs.us-east-1.amazonaws.com/111111111111/billing"
    );
    let missing = url(&mut e, &us, json!({"QueueName": "billing"})).unwrap_err();
    assert_eq!(missing.code, ErrorCode::QueueDoesNotExist);
    let missing = url(
        &mut e,
        &eu,
        json!({"QueueName": "billing", "QueueOwnerAWSAccountId": "111111111111"}),
    );
    assert_eq!(missing.unwrap_err().code, ErrorCode::QueueDoesNotExist);

    // A URL on a host that names no region is read in the caller's region.
    let send = |e: &mut Engine, ns: &Namespace| {
        let input =
            json!({"QueueUrl": "http://localhost:9324/000000000000/orders", "MessageBody": "m"});
        call(e, ns, "SendMessage", input).unwrap();
    };
    send(&mut e, &eu);
    let depth = |e: &Engine| e.depth("orders").unwrap();
    assert_eq!(
        depth(&e),
        [0, 0, 0],
        "the default namespace's queue is untouched"
    );
    send(&mut e, &us);
    assert_eq!(depth(&e), [1, 0, 0]);

    // Deleting eu-west-1's queue leaves us-east-1's, and its name is reusable at once there only.
    call(
        &mut e,
        &us,
        "DeleteQueue",
        json!({"QueueUrl": eu_q["QueueUrl"]}),
    )
    .unwrap();
    assert_eq!(e.queue_names(), ["orders"]);
    let again = call(&mut e, &eu, "CreateQueue", json!({"QueueName": "orders"})).unwrap_err();
    assert_eq!(again.code, ErrorCode::QueueDeletedRecently);
    call(
        &mut e,
        &Namespace::new("000000000000", "eu-central-1"),
        "CreateQueue",
        json!({"QueueName": "orders"}),
    )
    .unwrap();
}

#[test]
fn a_dead_letter_queue_is_in_its_source_queues_account_and_region() {
    let mut e = Engine::new(1);
    let us = Namespace::DEFAULT;
    let eu = Namespace::new("000000000000", "eu-west-1");
    call(&mut e, &eu, "CreateQueue", json!({"QueueName": "dlq"})).unwrap();
    call(&mut e, &us, "CreateQueue", json!({"QueueName": "dlq"})).unwrap();
    let policy = |region: &str| {
        json!({"RedrivePolicy": format!(
            "{{\"deadLetterTargetArn\":\"arn:aws:sqs:{region}:000000000000:dlq\",\"maxReceiveCount\":\"3\"}}"
        )})
    };
    let refused = call(
        &mut e,
        &us,
        "CreateQueue",
        json!({"QueueName": "src", "Attributes": policy("eu-west-1")}),
    );
    let refused = refused.unwrap_err();
    assert_eq!(refused.code, ErrorCode::InvalidParameterValueException);
    assert!(
        refused
            .message
            .contains("Dead letter target does not exist."),
        "{refused}"
    );
    call(
        &mut e,
        &us,
        "CreateQueue",
        json!({"QueueName": "src", "Attributes": policy("us-east-1")}),
    )
    .unwrap();
    call(
        &mut e,
        &eu,
        "CreateQueue",
        json!({"QueueName": "src", "Attributes": policy("eu-west-1")}),
    )
    .unwrap();
}
