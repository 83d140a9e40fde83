//! Cost allocation tags: TagQueue, UntagQueue, ListQueueTags, and CreateQueue's `tags`.
//!
//! AWS's rules ([API:TagQueue]; [DG:Quotas related to queues], "Queue tag"): keys and values are
//! case-sensitive; a key is 1–128 characters, a value 0–256; both hold Unicode letters and digits,
//! white space and `_ . : / = + - @`; neither may start with the reserved prefix `aws:`; a tag
//! with an existing key overwrites it. A queue holds at most 50 tags: moto and YDB's SQS both
//! refuse the 51st with `Too many tags added for queue <name>.` (the API reference only
//! advises against more than 50). UntagQueue ignores keys the queue does not have.

use crate::api::*;
use crate::engine::Engine;
use crate::error::SqsError;
use crate::event::EventKind;

/// Tags a queue may hold.
const MAX_TAGS: usize = 50;
/// The longest tag key and value, in characters.
const MAX_KEY: usize = 128;
const MAX_VALUE: usize = 256;

/// The refusal for a key list or key out of its length range.
fn key_length() -> SqsError {
    SqsError::invalid("Tag keys must be between 1 and 128 characters in length.")
}

/// Checks tags against AWS's key and value rules (not the count, which depends on the queue).
pub(crate) fn check(tags: &Attributes) -> Result<(), SqsError> {
    for (key, value) in tags {
        if !(1..=MAX_KEY).contains(&key.chars().count()) {
            return Err(key_length());
        }
        if value.chars().count() > MAX_VALUE {
            return Err(SqsError::invalid(
                "Tag values must be between 0 and 256 characters in length.",
            ));
        }
        let allowed = |c: char| c.is_alphanumeric() || c.is_whitespace() || "_.:/=+-@".contains(c);
        if let Some(text) = [key, value].into_iter().find(|t| !t.chars().all(allowed)) {
            return Err(SqsError::invalid(format!(
                "Tag {text} has characters that are not allowed: tag keys and values may hold letters, digits, white space and _ . : / = + - @ only."
            )));
        }
        let reserved = |t: &str| t.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("aws:"));
        if let Some(text) = [key, value].into_iter().find(|t| reserved(t)) {
            return Err(SqsError::invalid(format!(
                "Tag {text} starts with the prefix aws:, which is reserved for AWS use."
            )));
        }
    }
    Ok(())
}

/// Refuses a queue named `queue` holding `count` tags, if that is over 50.
pub(crate) fn check_count(queue: &str, count: usize) -> Result<(), SqsError> {
    if count > MAX_TAGS {
        return Err(SqsError::invalid(format!(
            "Too many tags added for queue {queue}."
        )));
    }
    Ok(())
}

impl Engine {
    /// Sets `tags` on the queue `uid` if the result holds at most 50 tags; else changes nothing.
    pub(crate) fn set_tags(&mut self, uid: u32, tags: Attributes) -> Result<(), SqsError> {
        let q = self.q(uid);
        let added = tags.keys().filter(|k| !q.tags.contains_key(*k)).count();
        check_count(&q.name, q.tags.len() + added)?;
        let keys = tags.keys().cloned().collect();
        let q = self.q_mut(uid);
        q.tags.extend(tags);
        let queue = q.name;
        self.emit(EventKind::QueueTagged { queue, keys });
        Ok(())
    }

    pub(crate) fn tag_queue(&mut self, input: TagQueueInput) -> Result<Response, SqsError> {
        let uid = self.resolve(&input.queue_url)?;
        if input.tags.is_empty() {
            return Err(SqsError::missing("Tags"));
        }
        check(&input.tags)?;
        self.set_tags(uid, input.tags)?;
        Ok(Response::Empty(Empty {}))
    }

    pub(crate) fn untag_queue(&mut self, input: UntagQueueInput) -> Result<Response, SqsError> {
        let uid = self.resolve(&input.queue_url)?;
        let keys = input.tag_keys;
        if keys.is_empty()
            || keys
                .iter()
                .any(|k| !(1..=MAX_KEY).contains(&k.chars().count()))
        {
            return Err(key_length());
        }
        let q = self.q_mut(uid);
        let removed: Vec<String> = keys
            .into_iter()
            .filter(|k| q.tags.remove(k).is_some())
            .collect();
        let queue = q.name;
        if !removed.is_empty() {
            self.emit(EventKind::QueueUntagged {
                queue,
                keys: removed,
            });
        }
        Ok(Response::Empty(Empty {}))
    }

    pub(crate) fn list_queue_tags(&mut self, input: QueueUrlInput) -> Result<Response, SqsError> {
        let uid = self.resolve(&input.queue_url)?;
        let tags = &self.q(uid).tags;
        Ok(Response::ListQueueTags(ListQueueTagsOutput {
            tags: Some(tags.clone()).filter(|t| !t.is_empty()),
        }))
    }
}
