//! Queue attributes: the typed configuration behind CreateQueue / SetQueueAttributes /
//! GetQueueAttributes, with AWS's defaults, ranges and error texts (semantics §2.3).

use crate::api::Attributes;
use crate::error::{ErrorCode, SqsError};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::borrow::Cow;

/// The configurable attributes with their ranges (seconds or bytes).
const RANGES: [(&str, u32, u32); 6] = [
    ("VisibilityTimeout", 0, 43_200),
    ("DelaySeconds", 0, 900),
    ("MessageRetentionPeriod", 60, 1_209_600),
    ("MaximumMessageSize", 1024, 1_048_576),
    ("ReceiveMessageWaitTimeSeconds", 0, 20),
    ("KmsDataKeyReusePeriodSeconds", 60, 86_400),
];

/// Names GetQueueAttributes accepts besides `All` (and the settable ones).
const READ_ONLY: [&str; 6] = [
    "ApproximateNumberOfMessages",
    "ApproximateNumberOfMessagesNotVisible",
    "ApproximateNumberOfMessagesDelayed",
    "CreatedTimestamp",
    "LastModifiedTimestamp",
    "QueueArn",
];

/// A parsed RedrivePolicy (§9).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct RedrivePolicy {
    pub dead_letter_target_arn: String,
    pub max_receive_count: u32,
}

/// Who may use a queue as its dead-letter queue (RedriveAllowPolicy).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct RedriveAllow {
    /// The policy as the user wrote it, echoed by GetQueueAttributes.
    text: String,
    permission: String,
    sources: Vec<String>,
}

impl RedriveAllow {
    /// Whether a queue with ARN `source` may name this queue in its RedrivePolicy.
    pub(crate) fn allows(&self, source: &str) -> bool {
        match self.permission.as_str() {
            "denyAll" => false,
            "byQueue" => self.sources.iter().any(|s| s == source),
            _ => true,
        }
    }
}

/// What a RedrivePolicy needs to know about its target queue.
pub(crate) struct DlqTarget {
    pub fifo: bool,
    pub allows_source: bool,
}

/// A queue's configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct QueueConfig {
    pub fifo: bool,
    /// VisibilityTimeout, DelaySeconds, MessageRetentionPeriod, MaximumMessageSize,
    /// ReceiveMessageWaitTimeSeconds, KmsDataKeyReusePeriodSeconds: indexed as [`RANGES`].
    numbers: [u32; 6],
    pub redrive: Option<RedrivePolicy>,
    pub redrive_allow: Option<RedriveAllow>,
    pub policy: Option<String>,
    kms_key: Option<String>,
    sse_sqs: bool,
    pub content_based_dedup: bool,
    /// DeduplicationScope and FifoThroughputLimit, each one of the texts AWS allows.
    #[serde(deserialize_with = "crate::fixed_text::interned")]
    pub dedup_scope: crate::fixed_text::FixedText,
    #[serde(deserialize_with = "crate::fixed_text::interned")]
    throughput_limit: crate::fixed_text::FixedText,
}

impl QueueConfig {
    /// AWS's defaults (§2.3).
    pub(crate) fn new(fifo: bool) -> Self {
        QueueConfig {
            fifo,
            numbers: [30, 0, 345_600, 1_048_576, 0, 300],
            redrive: None,
            redrive_allow: None,
            policy: None,
            kms_key: None,
            sse_sqs: true,
            content_based_dedup: false,
            dedup_scope: "queue",
            throughput_limit: "perQueue",
        }
    }

    pub(crate) fn visibility_timeout(&self) -> u32 {
        self.numbers[0]
    }
    pub(crate) fn delay_seconds(&self) -> u32 {
        self.numbers[1]
    }
    pub(crate) fn retention_seconds(&self) -> u32 {
        self.numbers[2]
    }
    pub(crate) fn maximum_message_size(&self) -> u32 {
        self.numbers[3]
    }
    pub(crate) fn wait_seconds(&self) -> u32 {
        self.numbers[4]
    }

    /// Validates and applies `attributes` (CreateQueue or SetQueueAttributes). On error `self` may
    /// be half-changed: callers apply to a copy. `own_arn` is this queue's ARN, `target` looks up
    /// a RedrivePolicy's dead-letter queue by ARN.
    pub(crate) fn apply(
        &mut self,
        attributes: &Attributes,
        own_arn: &str,
        target: &dyn Fn(&str) -> Option<DlqTarget>,
    ) -> Result<(), SqsError> {
        for (name, value) in attributes {
            if let Some(i) = RANGES.iter().position(|(n, ..)| n == name) {
                let (_, low, high) = RANGES[i];
                self.numbers[i] = value
                    .trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|v| (low..=high).contains(v))
                    .ok_or_else(|| SqsError::attribute_value(name, None))?;
                continue;
            }
            match name.as_str() {
                "FifoQueue" if !self.fifo => return Err(SqsError::unknown_attribute(name)),
                "FifoQueue" => {
                    if !value.eq_ignore_ascii_case("true") {
                        return Err(SqsError::attribute_value(
                            name,
                            Some("Modifying queue type is not supported."),
                        ));
                    }
                }
                "ContentBasedDeduplication" if !self.fifo => {
                    return Err(SqsError::unknown_attribute(name))
                }
                "ContentBasedDeduplication" => self.content_based_dedup = boolean(name, value)?,
                "DeduplicationScope" | "FifoThroughputLimit" if !self.fifo => {
                    return Err(SqsError::new(
                        ErrorCode::InvalidAttributeName,
                        format!("You can specify the {name} only when FifoQueue is set to true."),
                    ))
                }
                "DeduplicationScope" => {
                    self.dedup_scope = one_of(name, value, &["queue", "messageGroup"])?
                }
                "FifoThroughputLimit" => {
                    self.throughput_limit = one_of(name, value, &["perQueue", "perMessageGroupId"])?
                }
                "Policy" => self.policy = Some(value.clone()).filter(|v| !v.is_empty()),
                "KmsMasterKeyId" => self.kms_key = Some(value.clone()).filter(|v| !v.is_empty()),
                "SqsManagedSseEnabled" => self.sse_sqs = boolean(name, value)?,
                "RedrivePolicy" => {
                    self.redrive = redrive_policy(value, own_arn, self.fifo, target)
                        .map_err(|reason| SqsError::invalid_value(name, value, &reason))?
                }
                "RedriveAllowPolicy" => {
                    self.redrive_allow = redrive_allow(value)
                        .map_err(|reason| SqsError::invalid_value(name, value, &reason))?
                }
                _ => return Err(SqsError::unknown_attribute(name)),
            }
        }
        if attributes.contains_key("KmsMasterKeyId") && self.kms_key.is_some() {
            if attributes
                .get("SqsManagedSseEnabled")
                .is_some_and(|v| v == "true")
            {
                return Err(SqsError::new(
                    ErrorCode::InvalidAttributeName,
                    "You can use one type of server-side encryption (SSE) at one time. You can either enable KMS SSE or SQS SSE.",
                ));
            }
            self.sse_sqs = false;
        } else if self.sse_sqs {
            self.kms_key = None;
        }
        if self.throughput_limit == "perMessageGroupId" && self.dedup_scope != "messageGroup" {
            return Err(SqsError::attribute_value(
                "FifoThroughputLimit",
                Some("The perMessageGroupId value is allowed only when the value for DeduplicationScope is messageGroup."),
            ));
        }
        Ok(())
    }

    /// The configuration part of GetQueueAttributes(All).
    pub(crate) fn render(&self, out: &mut Attributes) {
        for ((name, ..), value) in RANGES.iter().zip(self.numbers) {
            if *name != "KmsDataKeyReusePeriodSeconds" || self.kms_key.is_some() {
                put(out, name, &value.to_string());
            }
        }
        put(out, "SqsManagedSseEnabled", &self.sse_sqs.to_string());
        if let Some(policy) = &self.policy {
            put(out, "Policy", policy);
        }
        if let Some(key) = &self.kms_key {
            put(out, "KmsMasterKeyId", key);
        }
        if let Some(redrive) = &self.redrive {
            put(out, "RedrivePolicy", &render_redrive(redrive));
        }
        if let Some(allow) = &self.redrive_allow {
            put(out, "RedriveAllowPolicy", &allow.text);
        }
        if self.fifo {
            put(out, "FifoQueue", "true");
            put(
                out,
                "ContentBasedDeduplication",
                &self.content_based_dedup.to_string(),
            );
            put(out, "DeduplicationScope", self.dedup_scope);
            put(out, "FifoThroughputLimit", self.throughput_limit);
        }
    }
}

/// Sets the attribute `name` to `value`.
fn put(out: &mut Attributes, name: &str, value: &str) {
    out.insert(name.into(), value.into());
}

/// Whether GetQueueAttributes knows `name` (§2.3); unknown names are `InvalidAttributeName`.
pub(crate) fn is_known_name(name: &str) -> bool {
    name == "All"
        || RANGES.iter().any(|(n, ..)| *n == name)
        || READ_ONLY.contains(&name)
        || [
            "FifoQueue",
            "ContentBasedDeduplication",
            "DeduplicationScope",
            "FifoThroughputLimit",
            "Policy",
            "KmsMasterKeyId",
            "SqsManagedSseEnabled",
            "RedrivePolicy",
            "RedriveAllowPolicy",
        ]
        .contains(&name)
}

fn boolean(name: &str, value: &str) -> Result<bool, SqsError> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(SqsError::attribute_value(name, None)),
    }
}

/// The allowed text equal to `value`.
fn one_of(name: &str, value: &str, allowed: &[&'static str]) -> Result<&'static str, SqsError> {
    allowed
        .iter()
        .find(|&&a| a == value)
        .copied()
        .ok_or_else(|| SqsError::attribute_value(name, None))
}

/// The policy as JSON text, members sorted.
fn render_redrive(policy: &RedrivePolicy) -> String {
    serde_json::json!({
        "deadLetterTargetArn": policy.dead_letter_target_arn,
        "maxReceiveCount": policy.max_receive_count,
    })
    .to_string()
}

/// Parses a RedrivePolicy; `""` removes it (§2.3, §9). Refused: the reason, which the caller
/// words as the error once rather than each check.
fn redrive_policy(
    text: &str,
    own_arn: &str,
    fifo: bool,
    target: &dyn Fn(&str) -> Option<DlqTarget>,
) -> Result<Option<RedrivePolicy>, Cow<'static, str>> {
    if text.is_empty() {
        return Ok(None);
    }
    let json: Value = serde_json::from_str(text)
        .ok()
        .filter(Value::is_object)
        .ok_or_else(|| Cow::from("Redrive policy is not a valid JSON map."))?;
    let arn = json
        .get("deadLetterTargetArn")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            Cow::from("Redrive policy does not contain mandatory attribute: deadLetterTargetArn.")
        })?;
    // maxReceiveCount defaults to 10 (§2.3, the CreateQueue API reference).
    let count_text = match json.get("maxReceiveCount") {
        None => "10".to_string(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    };
    let max_receive_count = count_text
        .parse::<u32>()
        .ok()
        .filter(|n| (1..=1000).contains(n))
        .ok_or_else(|| {
            Cow::from(format!(
                "Invalid value for maxReceiveCount: {count_text}, valid values are from 1 to 1000 both inclusive."
            ))
        })?;
    let dlq = target(arn).ok_or_else(|| Cow::from("Dead letter target does not exist."))?;
    if dlq.fifo != fifo {
        return Err(Cow::from(
            "Dead-letter queue must be same type of queue as the source.",
        ));
    }
    if !dlq.allows_source {
        return Err(Cow::from(format!(
            "Queue {own_arn} is not allowed by the RedriveAllowPolicy of {arn} to use it as a dead-letter queue."
        )));
    }
    Ok(Some(RedrivePolicy {
        dead_letter_target_arn: arn.into(),
        max_receive_count,
    }))
}

/// Parses a RedriveAllowPolicy; `""` removes it (back to allowAll). Refused: the reason, as
/// [`redrive_policy`]'s.
fn redrive_allow(text: &str) -> Result<Option<RedriveAllow>, Cow<'static, str>> {
    if text.is_empty() {
        return Ok(None);
    }
    let json: Value = serde_json::from_str(text)
        .ok()
        .filter(Value::is_object)
        .ok_or_else(|| Cow::from("Redrive allow policy is not a valid JSON map."))?;
    let permission = json
        .get("redrivePermission")
        .and_then(Value::as_str)
        .filter(|p| ["allowAll", "denyAll", "byQueue"].contains(p))
        .ok_or_else(|| Cow::from("Invalid value for redrivePermission."))?;
    let sources: Vec<String> = match json.get("sourceQueueArns") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| item.as_str().map(String::from))
            .collect::<Option<_>>()
            .ok_or("sourceQueueArns must be a list of queue ARNs.")?,
        Some(_) => return Err(Cow::from("sourceQueueArns must be a list of queue ARNs.")),
    };
    if permission == "byQueue" && !(1..=10).contains(&sources.len()) {
        return Err(Cow::from(
            "The byQueue permission requires between 1 and 10 source queue ARNs.",
        ));
    }
    if permission != "byQueue" && !sources.is_empty() {
        return Err(Cow::from(
            "Only byQueue permission allows source queue ARNs.",
        ));
    }
    Ok(Some(RedriveAllow {
        text: text.into(),
        permission: permission.into(),
        sources,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(config: &mut QueueConfig, pairs: &[(&str, &str)]) -> Result<(), SqsError> {
        let attributes = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        config.apply(&attributes, "arn:me", &|_| {
            Some(DlqTarget {
                fifo: false,
                allows_source: true,
            })
        })
    }

    #[test]
    fn ranges_are_enforced() {
        let mut config = QueueConfig::new(false);
        assert!(apply(&mut config, &[("VisibilityTimeout", "43200")]).is_ok());
        let err = apply(&mut config, &[("VisibilityTimeout", "43201")]).unwrap_err();
        assert_eq!(
            err.message,
            "Invalid value for the parameter VisibilityTimeout."
        );
        assert!(apply(&mut config, &[("MessageRetentionPeriod", "59")]).is_err());
        assert!(apply(&mut config, &[("MaximumMessageSize", "1023")]).is_err());
    }

    #[test]
    fn redrive_policy_rules() {
        let mut config = QueueConfig::new(false);
        let err = apply(
            &mut config,
            &[("RedrivePolicy", r#"{"maxReceiveCount": 3}"#)],
        )
        .unwrap_err();
        assert!(err.message.ends_with(
            "Reason: Redrive policy does not contain mandatory attribute: deadLetterTargetArn."
        ));
        let err = apply(
            &mut config,
            &[(
                "RedrivePolicy",
                r#"{"deadLetterTargetArn":"x","maxReceiveCount":1001}"#,
            )],
        )
        .unwrap_err();
        assert!(err.message.ends_with(
            "Invalid value for maxReceiveCount: 1001, valid values are from 1 to 1000 both inclusive."
        ));
        apply(
            &mut config,
            &[(
                "RedrivePolicy",
                r#"{"deadLetterTargetArn":"x","maxReceiveCount":"5"}"#,
            )],
        )
        .unwrap();
        assert_eq!(config.redrive.as_ref().unwrap().max_receive_count, 5);
        apply(&mut config, &[("RedrivePolicy", "")]).unwrap();
        assert!(config.redrive.is_none());
    }

    #[test]
    fn fifo_attributes_on_standard() {
        let mut config = QueueConfig::new(false);
        let err = apply(&mut config, &[("FifoQueue", "false")]).unwrap_err();
        assert_eq!(err.message, "Unknown Attribute FifoQueue.");
        let err = apply(&mut config, &[("DeduplicationScope", "queue")]).unwrap_err();
        assert_eq!(
            err.message,
            "You can specify the DeduplicationScope only when FifoQueue is set to true."
        );
    }
}
