//! Input rules SQS enforces before touching any state (semantics §2.1, §3.2–§3.6, §4.1). Each
//! check returns AWS's error; callers run them all before changing anything.

use crate::api::{Body, MessageAttributeValue, MessageAttributes};
use crate::error::{ErrorCode, SqsError};
use base64::alphabet;
use base64::engine::{GeneralPurpose, GeneralPurposeConfig};
use base64::Engine as _;

/// Base64 as requests carry it (BinaryValue, NextToken, a move task's handle) and as the engine
/// writes its tokens: the standard alphabet, padded. The unused low bits of the last character
/// are not checked (RFC 4648 §3.5 leaves that to the decoder), so "Zm9=" reads as "fo".
pub(crate) const BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_allow_trailing_bits(true),
);

/// Most entries a batch may hold (semantics §3.6).
pub(crate) const MAX_BATCH_ENTRIES: usize = 10;
/// The whole-batch payload limit, independent of the queue's MaximumMessageSize (§3.6).
pub(crate) const MAX_BATCH_BYTES: usize = 1_048_576;

/// Queue names: 1–80 of `[A-Za-z0-9_-]`, FIFO names ending in `.fifo` (suffix counted) (§2.1).
pub(crate) fn queue_name(name: &str, fifo: bool) -> Result<(), SqsError> {
    let stem = if fifo {
        name.strip_suffix(".fifo")
    } else {
        Some(name)
    };
    let ok = name.len() <= 80
        && stem.is_some_and(|s| {
            !s.is_empty()
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        });
    if ok {
        Ok(())
    } else if fifo {
        Err(SqsError::invalid(
            "The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must end with .fifo suffix and be 1 to 80 in length",
        ))
    } else {
        Err(SqsError::invalid(
            "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length",
        ))
    }
}

/// Message bodies: at least one character, only the XML-allowed characters (§3.2). Inlined
/// (the printable-ASCII test; the full one stays out of line): every send checks its body.
#[inline(always)]
pub(crate) fn body(body: &Body) -> Result<(), SqsError> {
    if body.is_empty() {
        return Err(SqsError::missing("MessageBody"));
    }
    // Printable ASCII (the usual body) needs no decoding, nor the text's UTF-8 check.
    if printable_ascii(body.as_bytes()) {
        return Ok(());
    }
    xml_chars(body)
}

/// Only the characters XML allows (§3.2).
fn xml_chars(text: &str) -> Result<(), SqsError> {
    let allowed = |c: char| matches!(c, '\u{9}' | '\u{A}' | '\u{D}' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..);
    if text.chars().all(allowed) {
        Ok(())
    } else {
        Err(SqsError::new(
            ErrorCode::InvalidMessageContents,
            "Invalid characters found. Valid unicode characters are #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF",
        ))
    }
}

/// Whether every byte is printable ASCII (0x20 to 0x7E), eight bytes at a time: every send
/// checks its body.
fn printable_ascii(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::MAX / 255;
    const HIGH: u64 = ONES * 0x80;
    let mut words = bytes.chunks_exact(8);
    let word_ok = |w: u64| {
        // No byte >= 0x80; then none is 0x7F (adding 1 sets its high bit) and none is below
        // 0x20 (subtracting 0x20 borrows into its high bit).
        w & HIGH == 0 && (w + ONES) & HIGH == 0 && w.wrapping_sub(ONES * 0x20) & !w & HIGH == 0
    };
    let whole = words.all(|chunk| word_ok(u64::from_le_bytes(chunk.try_into().expect("8 bytes"))));
    whole && words.remainder().iter().all(|b| (0x20..0x7f).contains(b))
}

/// The transport byte and value bytes of an attribute (binary values decoded from base64).
pub(crate) fn attribute_value_bytes(value: &MessageAttributeValue) -> (u8, Vec<u8>) {
    if value.data_type.starts_with("Binary") {
        let text = value.binary_value.as_deref().unwrap_or("");
        (2, BASE64.decode(text).unwrap_or_default())
    } else {
        (
            1,
            value.string_value.clone().unwrap_or_default().into_bytes(),
        )
    }
}

/// Bytes an attribute map adds to the message size: name + DataType + value (§3.2).
pub(crate) fn attributes_size(attributes: Option<&MessageAttributes>) -> usize {
    attributes.map_or(0, map_size)
}

/// Out of line: most messages have no attributes, and their size check stays a few
/// instructions where it is inlined.
#[inline(never)]
fn map_size(map: &MessageAttributes) -> usize {
    map.iter()
        .map(|(name, value)| {
            name.len() + value.data_type.len() + attribute_value_bytes(value).1.len()
        })
        .sum()
}

/// Message attributes: at most 10, legal names, known types, non-empty values (§3.2).
pub(crate) fn message_attributes(attributes: &MessageAttributes) -> Result<(), SqsError> {
    if attributes.len() > 10 {
        return Err(SqsError::invalid(format!(
            "Number of message attributes [{}] exceeds the allowed maximum [10].",
            attributes.len()
        )));
    }
    for (name, value) in attributes {
        attribute_name(name)?;
        attribute_value(name, value)?;
    }
    Ok(())
}

/// A message attribute name: 1–256 letters and digits of any script (AWS accepts `attr.1øßä`),
/// `_`, `-` and `.`; not starting with `AWS.` or `Amazon.` in any case; no leading, trailing or
/// doubled period (§3.2; [LS-test:test_send_message_with_invalid_string_attributes]).
fn attribute_name(name: &str) -> Result<(), SqsError> {
    let lower = name.to_ascii_lowercase();
    let legal = !name.is_empty()
        && name.chars().count() <= 256
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !name.starts_with('.')
        && !name.ends_with('.')
        && !name.contains("..")
        && !lower.starts_with("aws.")
        && !lower.starts_with("amazon.");
    if legal {
        Ok(())
    } else {
        Err(SqsError::invalid(format!(
            "Message (user) attribute name '{name}' is invalid. Names can contain alphanumeric characters, hyphens, underscores and periods, up to 256 characters, must not start or end with a period, contain two periods in a row, or start with AWS. or Amazon."
        )))
    }
}

fn attribute_value(name: &str, value: &MessageAttributeValue) -> Result<(), SqsError> {
    let base = ["String", "Number", "Binary"].into_iter().find(|base| {
        value
            .data_type
            .strip_prefix(base)
            .is_some_and(|rest| rest.is_empty() || (rest.len() > 1 && rest.starts_with('.')))
    });
    let Some(base) = base else {
        return Err(SqsError::invalid(format!(
            "The type of message (user) attribute '{name}' is invalid. You must use only the following supported type prefixes: Binary, Number, String."
        )));
    };
    let empty = || {
        SqsError::invalid(format!(
            "Message (user) attribute '{name}' must contain a non-empty value of type '{base}'."
        ))
    };
    if base == "Binary" {
        let bytes = value
            .binary_value
            .as_deref()
            .map(|text| BASE64.decode(text).ok());
        return match bytes {
            Some(Some(bytes)) if !bytes.is_empty() => Ok(()),
            _ => Err(empty()),
        };
    }
    let text = value.string_value.as_deref().unwrap_or("");
    if text.is_empty() {
        return Err(empty());
    }
    xml_chars(text).map_err(|_| {
        SqsError::invalid(format!(
            "Message (user) attribute '{name}' contains invalid characters."
        ))
    })?;
    if base == "Number" && !is_number(text.trim()) {
        return Err(SqsError::invalid(format!(
            "Can't cast the value of message (user) attribute '{name}' to a number."
        )));
    }
    Ok(())
}

/// Whether `text` is a number as Rust's `f64` parser reads one (`-1.5e3`, `.5`, `inf`).
fn is_number(text: &str) -> bool {
    text.parse::<f64>().is_ok()
}

/// MessageSystemAttributes: only `AWSTraceHeader`, a String (§3.1).
pub(crate) fn system_attributes(attributes: &MessageAttributes) -> Result<(), SqsError> {
    for (name, value) in attributes {
        if name != "AWSTraceHeader" {
            return Err(SqsError::invalid(format!(
                "Message system attribute name '{name}' is invalid."
            )));
        }
        if value.data_type != "String" || value.string_value.as_deref().unwrap_or("").is_empty() {
            return Err(SqsError::invalid(format!(
                "Message (system) attribute '{name}' must contain a non-empty value of type 'String'."
            )));
        }
    }
    Ok(())
}

/// MessageGroupId / MessageDeduplicationId: 1–128 alphanumeric or punctuation characters (§3.4).
pub(crate) fn group_or_dedup_id(parameter: &str, value: &str) -> Result<(), SqsError> {
    let ok = (1..=128).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_graphic());
    if ok {
        Ok(())
    } else {
        Err(SqsError::invalid_value(
            parameter,
            &value,
            &format!(
                "{parameter} can only include alphanumeric and punctuation characters. 1 to 128 in length."
            ),
        ))
    }
}

/// DelaySeconds of a message: 0–900 (§3.3).
pub(crate) fn delay_seconds(delay: i64) -> Result<(), SqsError> {
    if (0..=900).contains(&delay) {
        Ok(())
    } else {
        Err(SqsError::invalid_value(
            "DelaySeconds",
            &delay,
            "DelaySeconds must be >= 0 and <= 900.",
        ))
    }
}

/// A VisibilityTimeout parameter: 0–43200 s (§4.1, §6).
pub(crate) fn visibility_timeout(seconds: i64) -> Result<(), SqsError> {
    if (0..=43_200).contains(&seconds) {
        Ok(())
    } else {
        Err(SqsError::invalid_value(
            "VisibilityTimeout",
            &seconds,
            "Must be >= 0 and <= 43200, if provided.",
        ))
    }
}

/// The whole-request checks every batch action makes (§3.6): 1–10 entries, legal and distinct
/// Ids. `entry_kind` names the entry type in the empty-batch message.
pub(crate) fn batch_ids<'a>(
    ids: impl ExactSizeIterator<Item = &'a str>,
    entry_kind: &str,
) -> Result<(), SqsError> {
    let count = ids.len();
    if count == 0 {
        return Err(SqsError::new(
            ErrorCode::EmptyBatchRequest,
            format!("There should be at least one {entry_kind} in the request."),
        ));
    }
    if count > MAX_BATCH_ENTRIES {
        return Err(SqsError::new(
            ErrorCode::TooManyEntriesInBatchRequest,
            format!("Maximum number of entries per request are 10. You have sent {count}."),
        ));
    }
    // At most ten ids, each keyed by a word holding its length and first seven bytes (decisive
    // for the usual short ids) and placed by that key in a 16-place table: an id is compared
    // (key, then text) only with the ids met on its way to a free place, mostly none, where
    // comparing each with every earlier one made 45 comparisons for ten.
    let key = |id: &str| {
        let head = id.bytes().take(7).enumerate();
        head.fold(id.len() as u64, |word, (i, b)| {
            word | u64::from(b) << (8 * i + 8)
        })
    };
    let mut keys = [0u64; MAX_BATCH_ENTRIES];
    let mut texts = [""; MAX_BATCH_ENTRIES];
    // Place → 1 + the index of the id there (0: free).
    let mut table = [0u8; 16];
    for (i, id) in ids.enumerate() {
        let legal = !id.is_empty()
            && id.len() <= 80
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !legal {
            return Err(SqsError::new(
                ErrorCode::InvalidBatchEntryId,
                "A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.",
            ));
        }
        let k = key(id);
        let mut place = (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 60) as usize;
        while let Some(j) = usize::from(table[place]).checked_sub(1) {
            if keys[j] == k && texts[j] == id {
                return Err(SqsError::new(
                    ErrorCode::BatchEntryIdsNotDistinct,
                    format!("Id {id} repeated."),
                ));
            }
            place = (place + 1) % table.len();
        }
        table[place] = i as u8 + 1;
        (keys[i], texts[i]) = (k, id);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_padded_and_reads_any_padding_bits() {
        assert_eq!(BASE64.encode("fo"), "Zm8=");
        assert_eq!(BASE64.decode("Zm8=").unwrap(), b"fo");
        assert_eq!(BASE64.decode("Zm9=").unwrap(), b"fo");
        for bad in ["Zm8", "Zm=8", "a!bc", "Zm8=="] {
            assert!(BASE64.decode(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn numbers() {
        for yes in [
            "0",
            "-1.5e3",
            ".5",
            "5.",
            "+2",
            "1E+9",
            "inf",
            "-Infinity",
            "NaN",
            "1e999",
        ] {
            assert!(is_number(yes), "{yes}");
        }
        for no in [
            "", ".", "-", "e5", "1e", "1.2.3", "1e+", "0x10", "1 2", "infinit", "--1",
        ] {
            assert!(!is_number(no), "{no}");
        }
    }

    #[test]
    fn printable_ascii_bodies_take_the_fast_path_only_when_printable() {
        assert!(printable_ascii(b"message 1234567 with some words ~"));
        for bad in [0x00u8, 0x09, 0x1f, 0x7f, 0x80, 0xff] {
            for at in [0, 3, 7, 8, 15, 16, 19] {
                let mut body = *b"0123456789abcdef0123";
                body[at] = bad;
                assert!(!printable_ascii(&body), "byte {bad:#x} at {at}");
            }
        }
        assert!(printable_ascii(b" ~ ~ ~ ~ ~ ~ ~ ~"));
    }

    #[test]
    fn queue_names() {
        assert!(queue_name("orders", false).is_ok());
        assert!(queue_name(&"a".repeat(80), false).is_ok());
        assert!(queue_name(&"a".repeat(81), false).is_err());
        assert!(queue_name("orders.fifo", false).is_err());
        assert!(queue_name("orders.fifo", true).is_ok());
        assert!(queue_name(".fifo", true).is_err());
        assert!(queue_name(&format!("{}.fifo", "a".repeat(76)), true).is_err());
        assert!(queue_name("has space", false).is_err());
    }

    #[test]
    fn bodies() {
        assert_eq!(
            body(&"".into()).unwrap_err().code,
            ErrorCode::MissingRequiredParameterException
        );
        assert_eq!(
            body(&"a\u{1}b".into()).unwrap_err().code,
            ErrorCode::InvalidMessageContents
        );
        assert!(body(&"tab\tand emoji 🦀".into()).is_ok());
    }

    #[test]
    fn dedup_ids() {
        assert!(group_or_dedup_id("MessageDeduplicationId", &"x".repeat(128)).is_ok());
        let err = group_or_dedup_id("MessageDeduplicationId", &"x".repeat(129)).unwrap_err();
        assert!(err.message.ends_with("1 to 128 in length."));
        assert!(group_or_dedup_id("MessageGroupId", "a b").is_err());
        assert!(group_or_dedup_id("MessageGroupId", "").is_err());
    }

    #[test]
    fn batch_rules() {
        let err = batch_ids(["a", "b", "a"].into_iter(), "X").unwrap_err();
        assert_eq!(err.message, "Id a repeated.");
        // Ids alike in length and first eight bytes are still told apart, and matched.
        assert!(batch_ids(["entry_001", "entry_002"].into_iter(), "X").is_ok());
        let err = batch_ids(["entry_001", "entry_002", "entry_001"].into_iter(), "X");
        assert_eq!(err.unwrap_err().message, "Id entry_001 repeated.");
        // Ten ids of one key share a place: each goes on to the next free one, past the end.
        let alike: Vec<String> = (0..10).map(|i| format!("entry_00{i}")).collect();
        assert!(batch_ids(alike.iter().map(String::as_str), "X").is_ok());
        let mut repeat: Vec<&str> = alike.iter().map(String::as_str).take(9).collect();
        repeat.push("entry_008");
        let err = batch_ids(repeat.into_iter(), "X").unwrap_err();
        assert_eq!(err.message, "Id entry_008 repeated.");
        let ids: Vec<String> = (0..11).map(|i| i.to_string()).collect();
        let err = batch_ids(ids.iter().map(String::as_str), "X").unwrap_err();
        assert_eq!(
            err.message,
            "Maximum number of entries per request are 10. You have sent 11."
        );
        assert_eq!(
            batch_ids(["bad id"].into_iter(), "X").unwrap_err().code,
            ErrorCode::InvalidBatchEntryId
        );
    }
}
