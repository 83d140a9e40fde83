//! The engine's fixed texts (a move task's status, a queue's DeduplicationScope) as stored
//! fields, and how a snapshot reads them back.

use serde::{Deserialize, Deserializer};
use std::borrow::Cow;

/// One of the engine's fixed texts (a move task's status, a queue's DeduplicationScope), under a
/// name that serde's derive does not take for a borrow of its input (it would ask the input to
/// live forever); read with [`interned`].
pub(crate) type FixedText = &'static str;

/// Reads a [`FixedText`] field (the engine's fixed texts, such as a move task's status) through
/// the interner of queue names: each distinct text is kept once for the process.
pub(crate) fn interned<'de, D: Deserializer<'de>>(deserializer: D) -> Result<FixedText, D::Error> {
    let text = Cow::<'de, str>::deserialize(deserializer)?;
    Ok(crate::QueueName::new(&text).as_str())
}
