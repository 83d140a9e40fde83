//! Queue URLs and ARNs as the server's clients see them, and as the engine knows them.
//!
//! AWS keeps queues per account and region; so does the engine ([`Namespace`]), naming a queue
//! `https://sqs.<region>.amazonaws.com/<account>/<name>` and `arn:aws:sqs:<region>:<account>:<name>`.
//! A request acts in the region it was signed for (its SigV4 credential scope, see
//! [`crate::identity::signing_region`]), else the server's `--region`; a queue URL names its
//! account, else the server's `--account-id`. Clients see URLs on the server's own address,
//! built from the request's `Host` (`http://127.0.0.1:9324/<account>/<name>`): the region is
//! the request's, as on AWS where each region has its own endpoint.
//!
//! The server's own account and region are the engine's default namespace (what `sqs-sim
//! serve`'s pages and controls show): the two swap places on the way in and out, so that a
//! client naming account `000000000000` in `us-east-1` of a server configured otherwise reaches
//! that namespace, not the server's. Requests are rewritten on the way in and answers on the way
//! out; message bodies and message attributes are never touched (their MD5s must stay exact).

use serde_json::Value;
use sqs_engine::Namespace;

/// The URL clients see, on `base` (`http://127.0.0.1:9324`), of the queue `name` of `account`
/// (in whichever region: as on AWS, the endpoint names the region, here the request's).
pub fn public_url(base: &str, account: &str, name: &str) -> String {
    format!("{base}/{account}/{name}")
}

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

/// The server's account and region.
#[derive(Clone, Debug)]
pub struct Addressing {
    home: Namespace,
    /// The ARN prefixes of `home` and of the engine's default namespace
    /// (`arn:aws:sqs:<region>:<account>:`), which [`Addressing::swap_arns`] swaps.
    arns: [String; 2],
}

impl Addressing {
    /// Addressing for a server in `account` and `region`.
    pub fn new(account: &str, region: &str) -> Self {
        let home = Namespace::new(account, region);
        let arns = [home.queue_arn(""), Namespace::DEFAULT.queue_arn("")];
        Addressing { home, arns }
    }

    /// The server's own account and region.
    pub fn home(&self) -> &Namespace {
        &self.home
    }

    /// The engine's namespace for a client's, and back: the server's and the engine's default
    /// swap places, every other is itself.
    pub fn swap(&self, namespace: Namespace) -> Namespace {
        namespace.swapped(&self.home)
    }

    /// Rewrites an action's input (AWS's JSON members) for the engine, for a request signed for
    /// `region` (`None`: the server's), and returns the namespace to run it in
    /// ([`sqs_engine::Engine::call_in`]). Queue URLs on any host (`<account>/<name>`) and ARNs
    /// are rewritten to the engine's; `path_url` is the queue URL the request was sent to
    /// (`POST /<account>/<name>`), used when the input names no queue.
    pub fn inbound(
        &self,
        input: &mut Value,
        path_url: Option<String>,
        region: Option<&str>,
    ) -> Namespace {
        let region = region.unwrap_or(&self.home.region);
        if let (Value::Object(members), Some(url)) = (&mut *input, path_url) {
            members.entry("QueueUrl").or_insert(Value::String(url));
        }
        walk(input, &mut |member, text| match member {
            "QueueUrl" => self.engine_url(text, region),
            "QueueOwnerAWSAccountId" => {
                let owner = self.swap(Namespace::new(text, region));
                (owner.account != text).then(|| owner.account.into_owned())
            }
            _ => self.swap_arns(text),
        });
        self.swap(Namespace::new(&self.home.account, region))
    }

    /// Rewrites an answer (or an error message) for clients on `base`.
    pub fn outbound(&self, output: &mut Value, base: &str) {
        walk(output, &mut |_, text| self.public_text(text, base));
    }

    /// `text` with the engine's URLs and ARNs as clients see them on `base`.
    pub fn public_message(&self, text: &str, base: &str) -> String {
        self.public_text(text, base).unwrap_or_else(|| text.into())
    }

    fn public_text(&self, text: &str, base: &str) -> Option<String> {
        let urls = self.public_urls(text, base);
        let arns = self.swap_arns(urls.as_deref().unwrap_or(text));
        arns.or(urls)
    }

    /// A queue URL on any host, `<scheme>://<host>/<account>/<name>`, as the engine's URL of
    /// that account's queue in `region`.
    fn engine_url(&self, url: &str, region: &str) -> Option<String> {
        let path = url.split_once("://").map_or(url, |(_, rest)| {
            rest.find('/').map_or("", |slash| &rest[slash..])
        });
        let mut segments = path.trim_matches('/').split('/');
        match (segments.next(), segments.next(), segments.next()) {
            (Some(account), Some(name), None) if !account.is_empty() && !name.is_empty() => {
                Some(self.swap(Namespace::new(account, region)).queue_url(name))
            }
            _ => None,
        }
    }

    /// The engine's queue URLs in `text` (`https://sqs.<region>.amazonaws.com/<account>/`) on
    /// `base`, with the client's account; `None` if it has none.
    fn public_urls(&self, text: &str, base: &str) -> Option<String> {
        const HEAD: &str = "https://sqs.";
        const HOST_END: &str = ".amazonaws.com/";
        if !text.contains(HEAD) {
            return None;
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(at) = rest.find(HEAD) {
            out.push_str(&rest[..at]);
            let after = &rest[at + HEAD.len()..];
            let parsed = after.split_once(HOST_END).and_then(|(region, path)| {
                let (account, tail) = path.split_once('/')?;
                let plain = |s: &str| !s.is_empty() && !s.contains(['/', ' ', '.']);
                (plain(region) && plain(account)).then_some((region, account, tail))
            });
            match parsed {
                Some((region, account, tail)) => {
                    let client = self.swap(Namespace::new(account, region));
                    out.push_str(&format!("{base}/{}/", client.account));
                    rest = tail;
                }
                None => {
                    out.push_str(HEAD);
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        Some(out)
    }

    /// `text` with the ARN prefixes of the server's and the engine's default namespace swapped
    /// (one pass: each occurrence of either becomes the other); `None` if it has neither.
    fn swap_arns(&self, text: &str) -> Option<String> {
        let [home, default] = &self.arns;
        if home == default || !(text.contains(home.as_str()) || text.contains(default.as_str())) {
            return None;
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        loop {
            let next = [(home, default), (default, home)]
                .into_iter()
                .filter_map(|(from, to)| Some((rest.find(from.as_str())?, from, to)))
                .min_by_key(|(at, ..)| *at);
            let Some((at, from, to)) = next else { break };
            out.push_str(&rest[..at]);
            out.push_str(to);
            rest = &rest[at + from.len()..];
        }
        out.push_str(rest);
        Some(out)
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
        let namespace = addressing.inbound(&mut input, None, None);
        assert_eq!(namespace, Namespace::DEFAULT);
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
    fn a_request_acts_in_its_region_and_a_url_in_its_account() {
        let addressing = Addressing::new("123456789012", "us-east-1");
        // Signed for eu-west-1: another namespace, its URLs and ARNs as they are.
        let mut input = json!({"QueueUrl": "http://localhost:9324/123456789012/q",
                               "Attributes": {"RedrivePolicy": "arn:aws:sqs:eu-west-1:123456789012:dlq"}});
        let namespace = addressing.inbound(&mut input, None, Some("eu-west-1"));
        assert_eq!(namespace, Namespace::new("123456789012", "eu-west-1"));
        assert_eq!(
            input["QueueUrl"],
            "https://sqs.eu-west-1.amazonaws.com/123456789012/q"
        );
        assert_eq!(
            input["Attributes"]["RedrivePolicy"],
            "arn:aws:sqs:eu-west-1:123456789012:dlq"
        );
        let mut output = json!({"QueueUrl": "https://sqs.eu-west-1.amazonaws.com/123456789012/q"});
        addressing.outbound(&mut output, "http://h");
        assert_eq!(output["QueueUrl"], "http://h/123456789012/q");
        // Another account's URL names that account's queue; the path names the queue.
        let mut input = json!({"QueueUrl": "http://localhost:9324/999999999999/q"});
        addressing.inbound(&mut input, None, None);
        assert_eq!(
            input["QueueUrl"],
            "https://sqs.us-east-1.amazonaws.com/999999999999/q"
        );
        let mut input = json!({});
        addressing.inbound(&mut input, Some("http://h/123456789012/q".into()), None);
        assert_eq!(
            input["QueueUrl"],
            "https://sqs.us-east-1.amazonaws.com/000000000000/q"
        );
        // The engine's default namespace, named by a client, is the server's (they swap).
        let mut input = json!({"QueueUrl": "http://h/000000000000/q", "QueueOwnerAWSAccountId": "000000000000"});
        addressing.inbound(&mut input, None, None);
        assert_eq!(
            input["QueueUrl"],
            "https://sqs.us-east-1.amazonaws.com/123456789012/q"
        );
        assert_eq!(input["QueueOwnerAWSAccountId"], "123456789012");
        let message =
            "arn:aws:sqs:us-east-1:000000000000:a and arn:aws:sqs:us-east-1:123456789012:b";
        assert_eq!(
            addressing.public_message(message, "http://h"),
            "arn:aws:sqs:us-east-1:123456789012:a and arn:aws:sqs:us-east-1:000000000000:b"
        );
    }
}
