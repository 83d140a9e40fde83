//! aws-sdk-sqs (the AWS SDK for Rust) against `sqs-sim serve`: queues, messages with attributes,
//! batches with a failed entry, a long poll, typed errors, tags, permissions, and queues per
//! region.
//!
//!   sqs-rust-client ENDPOINT   (a freshly started server, account 000000000000)
//!
//! One line per test, then `N passed, N failed`; exits 1 if any failed.

use aws_sdk_sqs::config::{BehaviorVersion, Credentials, Region};
use aws_sdk_sqs::error::ProvideErrorMetadata;
use aws_sdk_sqs::operation::get_queue_url::GetQueueUrlError;
use aws_sdk_sqs::operation::receive_message::ReceiveMessageError;
use aws_sdk_sqs::types::{MessageAttributeValue, SendMessageBatchRequestEntry};
use aws_sdk_sqs::Client;
use md5::Digest;
use std::collections::HashMap;
use std::time::{Duration, Instant};

type Outcome = Result<(), String>;

/// Fails the test with `message` unless `condition` holds.
fn check(condition: bool, message: impl FnOnce() -> String) -> Outcome {
    if condition {
        Ok(())
    } else {
        Err(message())
    }
}

/// An SDK error as the test's failure.
fn failed(error: impl std::error::Error) -> String {
    format!("{}", aws_sdk_sqs::error::DisplayErrorContext(error))
}

/// Checks that a call failed with the error `code` (the query code, as the SDK reads it).
fn refused<T, E: ProvideErrorMetadata + std::error::Error>(
    result: Result<T, E>,
    code: &str,
) -> Outcome {
    let error = result.err().ok_or("no error")?;
    check(error.code() == Some(code), || failed(error))
}

fn client(endpoint: &str, region: &'static str) -> Client {
    let config = aws_sdk_sqs::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .endpoint_url(endpoint)
        .region(Region::new(region))
        .credentials_provider(Credentials::new("any", "any", None, None, "static"))
        .build();
    Client::from_conf(config)
}

async fn queues_and_typed_errors(sqs: &Client, endpoint: &str) -> Outcome {
    let url = sqs
        .create_queue()
        .queue_name("rust")
        .send()
        .await
        .map_err(failed)?;
    let url = url.queue_url().unwrap_or_default().to_string();
    check(url == format!("{endpoint}/000000000000/rust"), || {
        url.clone()
    })?;
    let found = sqs
        .get_queue_url()
        .queue_name("rust")
        .send()
        .await
        .map_err(failed)?;
    check(found.queue_url() == Some(url.as_str()), || {
        format!("{found:?}")
    })?;
    let missing = sqs.get_queue_url().queue_name("nope").send().await;
    let error = missing.err().ok_or("no error")?.into_service_error();
    check(
        matches!(error, GetQueueUrlError::QueueDoesNotExist(_)),
        || format!("{error:?}"),
    )?;
    let gone = sqs
        .receive_message()
        .queue_url(format!("{url}-gone"))
        .send()
        .await;
    let error = gone.err().ok_or("no error")?.into_service_error();
    check(
        matches!(error, ReceiveMessageError::QueueDoesNotExist(_)),
        || format!("{error:?}"),
    )?;
    let bad = sqs
        .delete_message()
        .queue_url(&url)
        .receipt_handle("garbage")
        .send()
        .await;
    let error = bad.err().ok_or("no error")?.into_service_error();
    check(error.is_receipt_handle_is_invalid(), || {
        format!("{error:?}")
    })
}

async fn messages_batches_and_attributes(sqs: &Client, endpoint: &str) -> Outcome {
    let url = format!("{endpoint}/000000000000/rust");
    let attribute = MessageAttributeValue::builder()
        .data_type("String")
        .string_value("ünïcode 🌍")
        .build()
        .map_err(failed)?;
    let sent = sqs
        .send_message()
        .queue_url(&url)
        .message_body("body\r\n🌍")
        .message_attributes("attr.1øßä", attribute)
        .send()
        .await
        .map_err(failed)?;
    let digest = format!("{:x}", md5::Md5::digest("body\r\n🌍"));
    check(sent.md5_of_message_body() == Some(digest.as_str()), || {
        format!("{sent:?}")
    })?;
    let entry = |id: &str| {
        SendMessageBatchRequestEntry::builder()
            .id(id)
            .message_body(id)
            .build()
    };
    let batch = sqs
        .send_message_batch()
        .queue_url(&url)
        .entries(entry("a").map_err(failed)?)
        .entries(entry("b").map_err(failed)?)
        .send()
        .await
        .map_err(failed)?;
    check(batch.successful().len() == 2, || format!("{batch:?}"))?;
    let received = sqs
        .receive_message()
        .queue_url(&url)
        .max_number_of_messages(10)
        .message_attribute_names("All")
        .send()
        .await
        .map_err(failed)?;
    let bodies: Vec<&str> = received
        .messages()
        .iter()
        .filter_map(|m| m.body())
        .collect();
    check(bodies == ["body\r\n🌍", "a", "b"], || {
        format!("{bodies:?}")
    })?;
    let first = &received.messages()[0];
    let value = first.message_attributes().and_then(|a| a.get("attr.1øßä"));
    check(
        value.and_then(|v| v.string_value()) == Some("ünïcode 🌍"),
        || format!("{first:?}"),
    )?;
    let handles = received
        .messages()
        .iter()
        .filter_map(|m| m.receipt_handle());
    let mut delete = sqs.delete_message_batch().queue_url(&url);
    for (i, handle) in handles.chain(["garbage"]).enumerate() {
        let entry = aws_sdk_sqs::types::DeleteMessageBatchRequestEntry::builder()
            .id(format!("e{i}"))
            .receipt_handle(handle)
            .build()
            .map_err(failed)?;
        delete = delete.entries(entry);
    }
    let deleted = delete.send().await.map_err(failed)?;
    check(deleted.successful().len() == 3, || format!("{deleted:?}"))?;
    let code = deleted.failed().first().map(|f| f.code());
    check(code == Some("ReceiptHandleIsInvalid"), || {
        format!("{deleted:?}")
    })
}

async fn a_long_poll_answered_by_a_send(sqs: &Client, endpoint: &str) -> Outcome {
    let url = format!("{endpoint}/000000000000/rust");
    let started = Instant::now();
    let poll = sqs
        .receive_message()
        .queue_url(&url)
        .wait_time_seconds(20)
        .send();
    let send = async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        sqs.send_message()
            .queue_url(&url)
            .message_body("wake")
            .send()
            .await
    };
    let (answer, sent) = tokio::join!(poll, send);
    sent.map_err(failed)?;
    let answer = answer.map_err(failed)?;
    let bodies: Vec<&str> = answer.messages().iter().filter_map(|m| m.body()).collect();
    check(bodies == ["wake"], || format!("{answer:?}"))?;
    check(started.elapsed() < Duration::from_secs(5), || {
        format!("{:?}", started.elapsed())
    })?;
    let handle = answer.messages()[0].receipt_handle().unwrap_or_default();
    sqs.delete_message()
        .queue_url(&url)
        .receipt_handle(handle)
        .send()
        .await
        .map_err(failed)?;
    Ok(())
}

async fn tags(sqs: &Client, _: &str) -> Outcome {
    let created = sqs
        .create_queue()
        .queue_name("rust-tagged")
        .tags("team", "a")
        .send()
        .await;
    let url = created
        .map_err(failed)?
        .queue_url()
        .unwrap_or_default()
        .to_string();
    sqs.tag_queue()
        .queue_url(&url)
        .tags("env", "prod")
        .tags("Team", "b")
        .send()
        .await
        .map_err(failed)?;
    sqs.untag_queue()
        .queue_url(&url)
        .tag_keys("env")
        .tag_keys("absent")
        .send()
        .await
        .map_err(failed)?;
    let listed = sqs
        .list_queue_tags()
        .queue_url(&url)
        .send()
        .await
        .map_err(failed)?;
    let expected = HashMap::from([
        ("team".to_string(), "a".to_string()),
        ("Team".into(), "b".into()),
    ]);
    check(listed.tags() == Some(&expected), || format!("{listed:?}"))?;
    refused(
        sqs.tag_queue()
            .queue_url(&url)
            .tags("aws:x", "y")
            .send()
            .await,
        "InvalidParameterValue",
    )
}

async fn permissions(sqs: &Client, _: &str) -> Outcome {
    let created = sqs.create_queue().queue_name("rust-shared").send().await;
    let url = created
        .map_err(failed)?
        .queue_url()
        .unwrap_or_default()
        .to_string();
    let add = |label: &str, actions: &[&str]| {
        let mut call = sqs
            .add_permission()
            .queue_url(&url)
            .label(label)
            .aws_account_ids("111111111111");
        for action in actions {
            call = call.actions(*action);
        }
        call.send()
    };
    add("send", &["SendMessage"]).await.map_err(failed)?;
    let attributes = sqs
        .get_queue_attributes()
        .queue_url(&url)
        .attribute_names(aws_sdk_sqs::types::QueueAttributeName::Policy)
        .send()
        .await
        .map_err(failed)?;
    let policy = attributes
        .attributes()
        .and_then(|a| a.get(&aws_sdk_sqs::types::QueueAttributeName::Policy))
        .ok_or("no Policy")?;
    let policy: serde_json::Value = serde_json::from_str(policy).map_err(|e| e.to_string())?;
    let statement = &policy["Statement"][0];
    check(statement["Action"] == "SQS:SendMessage", || {
        policy.to_string()
    })?;
    check(
        statement["Principal"]["AWS"] == "arn:aws:iam::111111111111:root",
        || policy.to_string(),
    )?;
    refused(add("send", &["*"]).await, "InvalidParameterValue")?;
    let eight = [
        "SendMessage",
        "ReceiveMessage",
        "DeleteMessage",
        "ChangeMessageVisibility",
        "GetQueueAttributes",
        "GetQueueUrl",
        "PurgeQueue",
        "ListDeadLetterSourceQueues",
    ];
    let over = add("many", &eight).await.err().ok_or("no error")?;
    let status = over.raw_response().map(|r| r.status().as_u16());
    check(
        over.code() == Some("OverLimit") && status == Some(403),
        || failed(over),
    )?;
    sqs.remove_permission()
        .queue_url(&url)
        .label("send")
        .send()
        .await
        .map_err(failed)?;
    refused(
        sqs.remove_permission()
            .queue_url(&url)
            .label("send")
            .send()
            .await,
        "InvalidParameterValue",
    )
}

async fn each_region_has_its_own_queues(sqs: &Client, endpoint: &str) -> Outcome {
    let eu = client(endpoint, "eu-west-1");
    let created = eu
        .create_queue()
        .queue_name("rust-eu")
        .send()
        .await
        .map_err(failed)?;
    let url = created.queue_url().unwrap_or_default().to_string();
    let listed = eu.list_queues().send().await.map_err(failed)?;
    check(listed.queue_urls() == [url.clone()], || {
        format!("{listed:?}")
    })?;
    let here = sqs
        .list_queues()
        .queue_name_prefix("rust-eu")
        .send()
        .await
        .map_err(failed)?;
    check(here.queue_urls().is_empty(), || format!("{here:?}"))?;
    let missing = sqs.get_queue_url().queue_name("rust-eu").send().await;
    let error = missing.err().ok_or("no error")?.into_service_error();
    check(error.is_queue_does_not_exist(), || format!("{error:?}"))?;
    eu.delete_queue()
        .queue_url(&url)
        .send()
        .await
        .map_err(failed)?;
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let endpoint = std::env::args()
        .nth(1)
        .expect("usage: sqs-rust-client ENDPOINT");
    let sqs = client(&endpoint, "us-east-1");
    let (mut passed, mut failed) = (0, 0);
    macro_rules! run {
        ($($test:ident),*) => {$(
            match $test(&sqs, &endpoint).await {
                Ok(()) => {
                    println!("ok   rust {}", stringify!($test));
                    passed += 1;
                }
                Err(why) => {
                    println!("FAIL rust {}\n    {why}", stringify!($test));
                    failed += 1;
                }
            }
        )*};
    }
    run!(
        queues_and_typed_errors,
        messages_batches_and_attributes,
        a_long_poll_answered_by_a_send,
        tags,
        permissions,
        each_region_has_its_own_queues
    );
    println!("{passed} passed, {failed} failed");
    std::process::exit(if failed > 0 { 1 } else { 0 });
}
