//! Queue URLs and ARNs as the server's clients see them, and as the engine knows them.
//!
//! The engine names every queue in one fixed account and region
//! (`https://sqs.us-east-1.amazonaws.com/000000000000/<name>`, `arn:aws:sqs:us-east-1:000000000000:<name>`).
//! Clients see URLs on the server's own address, built from the request's `Host`
//! (`http://127.0.0.1:9324/<account>/<name>`), and ARNs in the configured account and region.
//! Requests are rewritten on the way in and answers on the way out; message bodies and message
//! attributes are never touched (their MD5s must stay exact).

use serde_json::Value;
use sqs_engine::{Engine, Request};

/// The members whose values are message content or opaque tokens: never rewritten.
const UNTOUCHED: &[&str] = &[
    "Body",
    "MessageBody",
    "MessageAttributes",
    "MessageSystemAttributes",
    "ReceiptHandle",
    "MD5OfBody",
    "MessageDeduplicationId",
    "MessageGroupId",
];

/// The server's account and region, and the engine's own URL and ARN prefixes.
#[derive(Clone, Debug)]
pub struct Addressing {
    account: String,
    arn_prefix: String,
    engine_account: String,
    engine_url_prefix: String,
    engine_arn_prefix: String,
}

impl Addressing {
    /// Addressing for `account` in `region`. The engine's prefixes are read off a scratch engine
    /// (a queue made and its URL and ARN read), not copied from its source.
    pub fn new(account: &str, region: &str) -> Self {
        let mut scratch = Engine::new(0);
        let input = serde_json::json!({"QueueName": "q"});
        let create = Request::from_input("CreateQueue", input).expect("a CreateQueue input");
        scratch.call(create);
        let url = scratch
            .queue_url("q")
            .expect("the scratch queue")
            .to_string();
        let arn = scratch.queue_arn("q").expect("the scratch queue");
        let engine_url_prefix = url.strip_suffix('q').expect("a URL ending in the name");
        let engine_account = engine_url_prefix.trim_end_matches('/').rsplit('/').next();
        Addressing {
            account: account.into(),
            arn_prefix: format!("arn:aws:sqs:{region}:{account}:"),
            engine_account: engine_account.unwrap_or_default().into(),
            engine_url_prefix: engine_url_prefix.into(),
            engine_arn_prefix: arn
                .strip_suffix('q')
                .expect("an ARN ending in the name")
                .into(),
        }
    }

    /// A queue's URL as clients see it, on `base` (`http://127.0.0.1:9324`).
    pub fn public_url(&self, base: &str, name: &str) -> String {
        format!("{base}/{}/{name}", self.account)
    }

    /// Rewrites an action's input (AWS's JSON members) for the engine: queue URLs on any host
    /// naming our account, ARNs in our account and region, and our account id. `path_url` is the
    /// queue URL the request was sent to (`POST /<account>/<name>`), used when the input names
    /// no queue.
    pub fn inbound(&self, input: &mut Value, path_url: Option<String>) {
        if let (Value::Object(members), Some(url)) = (&mut *input, path_url) {
            members.entry("QueueUrl").or_insert(Value::String(url));
        }
        walk(input, &mut |member, text| match member {
            "QueueUrl" => self.engine_url(text),
            "QueueOwnerAWSAccountId" if text == self.account => Some(self.engine_account.clone()),
            _ => (text.contains(&self.arn_prefix))
                .then(|| text.replace(&self.arn_prefix, &self.engine_arn_prefix)),
        });
    }

    /// Rewrites an answer (or an error message) for clients on `base`.
    pub fn outbound(&self, output: &mut Value, base: &str) {
        let url_prefix = format!("{base}/{}/", self.account);
        walk(output, &mut |_, text| self.public_text(text, &url_prefix));
    }

    /// `text` with the engine's URLs and ARNs as clients see them on `base`.
    pub fn public_message(&self, text: &str, base: &str) -> String {
        let url_prefix = format!("{base}/{}/", self.account);
        self.public_text(text, &url_prefix)
            .unwrap_or_else(|| text.into())
    }

    fn public_text(&self, text: &str, url_prefix: &str) -> Option<String> {
        let has_url = text.contains(&self.engine_url_prefix);
        let has_arn =
            text.contains(&self.engine_arn_prefix) && self.arn_prefix != self.engine_arn_prefix;
        (has_url || has_arn).then(|| {
            text.replace(&self.engine_url_prefix, url_prefix)
                .replace(&self.engine_arn_prefix, &self.arn_prefix)
        })
    }

    /// A queue URL on any host, `<scheme>://<host>/<account>/<name>`, as the engine's URL when
    /// the account is ours (another account's queue stays as it is: it does not exist here).
    fn engine_url(&self, url: &str) -> Option<String> {
        let path = url.split_once("://").map_or(url, |(_, rest)| {
            rest.find('/').map_or("", |slash| &rest[slash..])
        });
        let mut segments = path.trim_matches('/').split('/');
        match (segments.next(), segments.next(), segments.next()) {
            (Some(account), Some(name), None) if account == self.account && !name.is_empty() => {
                Some(format!("{}{name}", self.engine_url_prefix))
            }
            _ => None,
        }
    }
}

/// Calls `rewrite(member, text)` on every string in `value` outside the [`UNTOUCHED`] members,
/// with the name of the object member it sits under, replacing it when `rewrite` answers.
fn walk(value: &mut Value, rewrite: &mut dyn FnMut(&str, &str) -> Option<String>) {
    fn visit(
        member: &str,
        value: &mut Value,
        rewrite: &mut dyn FnMut(&str, &str) -> Option<String>,
    ) {
        match value {
            Value::String(text) => {
                if let Some(new) = rewrite(member, text) {
                    *text = new;
                }
            }
            Value::Array(items) => {
                for item in items {
                    visit(member, item, rewrite);
                }
            }
            Value::Object(members) => {
                for (name, item) in members {
                    if !UNTOUCHED.contains(&name.as_str()) {
                        visit(name, item, rewrite);
                    }
                }
            }
            _ => {}
        }
    }
    visit("", value, rewrite);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn urls_and_arns_are_rewritten_both_ways_and_bodies_are_not() {
        let addressing = Addressing::new("123456789012", "eu-west-1");
        let mut input = json!({
            "QueueUrl": "http://localhost:9324/123456789012/q",
            "MessageBody": "arn:aws:sqs:eu-west-1:123456789012:q",
            "Attributes": {"RedrivePolicy": "{\"deadLetterTargetArn\":\"arn:aws:sqs:eu-west-1:123456789012:dlq\"}"},
        });
        addressing.inbound(&mut input, None);
        assert_eq!(
            input["QueueUrl"],
            "https://sqs.us-east-1.amazonaws.com/000000000000/q"
        );
        assert_eq!(input["MessageBody"], "arn:aws:sqs:eu-west-1:123456789012:q");
        assert_eq!(
            input["Attributes"]["RedrivePolicy"],
            "{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:000000000000:dlq\"}"
        );
        let mut output = json!({
            "QueueUrls": ["https://sqs.us-east-1.amazonaws.com/000000000000/q"],
            "Messages": [{"Body": "https://sqs.us-east-1.amazonaws.com/000000000000/q",
                          "Attributes": {"DeadLetterQueueSourceArn": "arn:aws:sqs:us-east-1:000000000000:q"}}],
        });
        addressing.outbound(&mut output, "http://127.0.0.1:9324");
        assert_eq!(
            output["QueueUrls"][0],
            "http://127.0.0.1:9324/123456789012/q"
        );
        assert_eq!(
            output["Messages"][0]["Body"],
            "https://sqs.us-east-1.amazonaws.com/000000000000/q"
        );
        assert_eq!(
            output["Messages"][0]["Attributes"]["DeadLetterQueueSourceArn"],
            "arn:aws:sqs:eu-west-1:123456789012:q"
        );
    }

    #[test]
    fn another_accounts_queue_url_is_left_alone_and_the_path_names_the_queue() {
        let addressing = Addressing::new("123456789012", "us-east-1");
        let mut input = json!({"QueueUrl": "http://localhost:9324/999999999999/q"});
        addressing.inbound(&mut input, None);
        assert_eq!(input["QueueUrl"], "http://localhost:9324/999999999999/q");
        let mut input = json!({});
        addressing.inbound(&mut input, Some("http://h/123456789012/q".into()));
        assert_eq!(
            input["QueueUrl"],
            "https://sqs.us-east-1.amazonaws.com/000000000000/q"
        );
    }
}
