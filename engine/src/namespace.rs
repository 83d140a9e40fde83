//! Where queues live: AWS keeps them per account and region. A queue's name is unique within
//! its [`Namespace`]; its URL (`https://sqs.<region>.amazonaws.com/<account>/<name>`) and ARN
//! (`arn:aws:sqs:<region>:<account>:<name>`) name both [DG:Amazon SQS queue and message
//! identifiers]. CreateQueue, GetQueueUrl and ListQueues act in the namespace of the request
//! ([`crate::Engine::call_in`]); the other actions name their queue by URL or ARN, which carries
//! it.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// An account and a region.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Namespace {
    /// The twelve-digit account id.
    pub account: Cow<'static, str>,
    /// The region (`us-east-1`).
    pub region: Cow<'static, str>,
}

impl Default for Namespace {
    fn default() -> Self {
        Namespace::DEFAULT
    }
}

impl Namespace {
    /// Where [`crate::Engine::call`] puts and looks for queues: account `000000000000` in
    /// `us-east-1`.
    pub const DEFAULT: Namespace = Namespace {
        account: Cow::Borrowed("000000000000"),
        region: Cow::Borrowed("us-east-1"),
    };

    /// The namespace of `account` in `region`.
    pub fn new(account: &str, region: &str) -> Self {
        Namespace {
            account: Cow::Owned(account.into()),
            region: Cow::Owned(region.into()),
        }
    }

    /// This namespace with `home` and [`Namespace::DEFAULT`] in each other's place, every other
    /// itself: a server whose own account and region (`home`) are the engine's default names
    /// the engine's namespaces so for its clients, and theirs so for the engine.
    pub fn swapped(&self, home: &Namespace) -> Namespace {
        if self == home {
            Namespace::DEFAULT
        } else if *self == Namespace::DEFAULT {
            home.clone()
        } else {
            self.clone()
        }
    }

    /// The URL of the queue `name` here.
    pub fn queue_url(&self, name: &str) -> String {
        format!(
            "https://sqs.{}.amazonaws.com/{}/{name}",
            self.region, self.account
        )
    }

    /// The ARN of the queue `name` here.
    pub fn queue_arn(&self, name: &str) -> String {
        format!("{}{name}", self.arn_prefix())
    }

    /// The namespace of a queue's ARN (`arn:aws:sqs:<region>:<account>:<name>`).
    pub(crate) fn of_arn(arn: &str) -> Option<Namespace> {
        let mut parts = arn.strip_prefix("arn:aws:sqs:")?.splitn(3, ':');
        let (region, account, _name) = (parts.next()?, parts.next()?, parts.next()?);
        Some(Namespace::new(account, region))
    }

    /// The ARN of every queue here, less the name.
    pub(crate) fn arn_prefix(&self) -> String {
        format!("arn:aws:sqs:{}:{}:", self.region, self.account)
    }

    /// The ARN a queue URL names: its account from the path, its region from an AWS host
    /// (`sqs.<region>.amazonaws.com`, `<region>.queue.amazonaws.com`), else this namespace's
    /// (a URL on another host, the request's region). `None`: no `<account>/<name>` path.
    pub(crate) fn arn_of_url(&self, url: &str) -> Option<String> {
        let (host, path) = match url.split_once("://") {
            Some((_, rest)) => rest.split_once('/').unwrap_or((rest, "")),
            None => ("", url),
        };
        let (account, name) = match path.trim_end_matches('/').rsplit_once('/') {
            Some((head, name)) => (head.rsplit('/').next().unwrap_or(""), name),
            // A bare name: this namespace's queue of that name.
            None if !path.is_empty() && host.is_empty() => (&*self.account, path),
            None => return None,
        };
        let region = host
            .strip_prefix("sqs.")
            .and_then(|h| h.strip_suffix(".amazonaws.com"))
            .or_else(|| host.strip_suffix(".queue.amazonaws.com"))
            .filter(|r| !r.is_empty() && !r.contains('.'))
            .unwrap_or(&self.region);
        Some(format!("arn:aws:sqs:{region}:{account}:{name}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_and_the_default_swap_places() {
        let home = Namespace::new("123456789012", "eu-west-1");
        let other = Namespace::new("123456789012", "ap-northeast-1");
        assert_eq!(home.swapped(&home), Namespace::DEFAULT);
        assert_eq!(Namespace::DEFAULT.swapped(&home), home);
        assert_eq!(other.swapped(&home), other);
        // A server at home in the default: nothing moves.
        assert_eq!(other.swapped(&Namespace::DEFAULT), other);
        let default = Namespace::DEFAULT;
        assert_eq!(default.swapped(&Namespace::DEFAULT), Namespace::DEFAULT);
    }

    #[test]
    fn urls_and_arns_carry_the_account_and_region() {
        let eu = Namespace::new("123456789012", "eu-west-1");
        assert_eq!(
            eu.queue_url("q"),
            "https://sqs.eu-west-1.amazonaws.com/123456789012/q"
        );
        assert_eq!(eu.queue_arn("q"), "arn:aws:sqs:eu-west-1:123456789012:q");
        let here = Namespace::DEFAULT;
        let arn = |url| here.arn_of_url(url);
        assert_eq!(
            arn("https://sqs.eu-west-1.amazonaws.com/123456789012/q").as_deref(),
            Some("arn:aws:sqs:eu-west-1:123456789012:q")
        );
        assert_eq!(
            arn("https://ap-south-1.queue.amazonaws.com/1/q").as_deref(),
            Some("arn:aws:sqs:ap-south-1:1:q")
        );
        // Another host names no region: the request's.
        assert_eq!(
            arn("http://localhost:9324/000000000000/q").as_deref(),
            Some("arn:aws:sqs:us-east-1:000000000000:q")
        );
        assert_eq!(
            arn("q").as_deref(),
            Some("arn:aws:sqs:us-east-1:000000000000:q")
        );
        assert_eq!(arn("http://localhost:9324"), None);
    }
}
