//! The identifiers requests and answers carry: [`MessageId`] and [`QueueUrl`].

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::sync::Arc;

/// A MessageId. AWS's are UUIDs, 36 characters: it is kept inline (a `Copy` value, no
/// allocation), so the stored message, its events and the responses each carry their own. It
/// reads as a `&str` and displays and serialises as that text. Any text of at most
/// [`MessageId::MAX`] bytes is one (scripts and tests may use short ids). It hashes as its text
/// and borrows as `&str`, so maps keyed by MessageId are looked up with a plain `&str`.
#[derive(Clone, Copy, Eq)]
pub struct MessageId {
    len: u8,
    text: [u8; MessageId::MAX],
}

impl MessageId {
    /// The longest MessageId in bytes (a UUID's length).
    pub const MAX: usize = 36;

    /// `text` as a MessageId, `None` if it is longer than [`MessageId::MAX`].
    pub fn new(text: &str) -> Option<Self> {
        let mut id = MessageId {
            len: u8::try_from(text.len()).ok()?,
            text: [0; MessageId::MAX],
        };
        id.text
            .get_mut(..text.len())?
            .copy_from_slice(text.as_bytes());
        Some(id)
    }

    /// A UUID's 36 ASCII characters (the engine's own ids: no text to check).
    pub(crate) fn from_uuid(text: [u8; MessageId::MAX]) -> Self {
        debug_assert!(text.is_ascii());
        MessageId {
            len: MessageId::MAX as u8,
            text,
        }
    }

    /// The text's bytes, unchecked (`as_str` checks the text is UTF-8 each time).
    pub fn as_bytes(&self) -> &[u8] {
        &self.text[..self.len as usize]
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.text[..self.len as usize]).expect("made from a str")
    }
}

/// Compares as the derived `==` would (length, then all the bytes; the unused tail is always
/// zero), word by word: wasm's `memcmp`, which the derived one calls, walks byte by byte, and ids
/// are compared on every map lookup.
impl PartialEq for MessageId {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && same_bytes(&self.text, &other.text)
    }
}

/// Whether two byte arrays are equal, read 8 bytes at a time and folded with xor, so that LLVM
/// does not merge the comparisons back into a `memcmp` call (a byte loop in wasm).
fn same_bytes<const N: usize>(a: &[u8; N], b: &[u8; N]) -> bool {
    let (a_words, b_words) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail = (a_words.remainder().iter())
        .zip(b_words.remainder())
        .fold(0, |diff, (x, y)| diff | (x ^ y));
    let word = |bytes: &[u8]| {
        let mut word = [0; 8];
        word.copy_from_slice(bytes);
        u64::from_ne_bytes(word)
    };
    let words = a_words
        .zip(b_words)
        .fold(0, |diff, (x, y)| diff | (word(x) ^ word(y)));
    words == 0 && tail == 0
}

/// The empty id, as an empty `String` was.
impl Default for MessageId {
    fn default() -> Self {
        MessageId {
            len: 0,
            text: [0; MessageId::MAX],
        }
    }
}

/// Panics if `text` is longer than [`MessageId::MAX`] (see [`MessageId::new`]).
impl From<&str> for MessageId {
    fn from(text: &str) -> Self {
        MessageId::new(text).expect("a MessageId is at most 36 bytes")
    }
}

/// Hashes as its text's `str` does (bytes, then 0xff), so `Borrow<str>` lookups work, without
/// checking the text is UTF-8 on every hash.
impl std::hash::Hash for MessageId {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write(self.as_bytes());
        state.write_u8(0xff);
    }
}

impl std::borrow::Borrow<str> for MessageId {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl std::ops::Deref for MessageId {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for MessageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for MessageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl Serialize for MessageId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for MessageId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        MessageId::new(&text).ok_or_else(|| {
            serde::de::Error::custom(format!("a MessageId is at most 36 bytes: {text}"))
        })
    }
}

/// A QueueUrl, as requests carry it and CreateQueue and GetQueueUrl answer it. The text is shared
/// (a clone counts a reference instead of copying it), and a URL this engine handed out also
/// knows which queue it names, so an action finds its queue without parsing the text (every call
/// names one). It reads, compares, displays and serialises as its text; a URL made from text is
/// resolved by its text.
#[derive(Clone)]
pub struct QueueUrl {
    /// `None`: the empty text, which `Default` (`..Default::default()` in every request built
    /// by hand) makes without an allocation, as an empty `String` did.
    text: Option<Arc<str>>,
    /// The uid of the queue that issued this very text ([`QueueUrl::FROM_TEXT`]: none).
    queue: u32,
}

impl QueueUrl {
    /// No queue issued the text.
    const FROM_TEXT: u32 = u32::MAX;

    /// The URL queue `uid` hands out.
    pub(crate) fn issued(text: String, uid: u32) -> Self {
        QueueUrl {
            text: Some(Arc::from(text)),
            queue: uid,
        }
    }

    /// The uid of the queue that issued it, if `own` is that queue's URL: the very same shared
    /// text, which no other queue can hold (uids are never reused, and the text lives as long as
    /// this URL does). Anything else is resolved by its text.
    pub(crate) fn issued_by(&self, own: Option<&QueueUrl>) -> Option<u32> {
        match (own.and_then(|own| own.text.as_ref()), &self.text) {
            (Some(own), Some(text)) if Arc::ptr_eq(own, text) => Some(self.queue),
            _ => None,
        }
    }

    /// The uid it was issued by, if any (to look up the `own` URL of [`QueueUrl::issued_by`]).
    pub(crate) fn queue(&self) -> u32 {
        self.queue
    }
}

/// The empty text.
impl Default for QueueUrl {
    fn default() -> Self {
        QueueUrl {
            text: None,
            queue: QueueUrl::FROM_TEXT,
        }
    }
}

impl From<&str> for QueueUrl {
    fn from(text: &str) -> Self {
        QueueUrl {
            text: Some(Arc::from(text)),
            queue: QueueUrl::FROM_TEXT,
        }
    }
}

impl From<String> for QueueUrl {
    fn from(text: String) -> Self {
        QueueUrl {
            text: Some(Arc::from(text)),
            queue: QueueUrl::FROM_TEXT,
        }
    }
}

impl std::ops::Deref for QueueUrl {
    type Target = str;

    fn deref(&self) -> &str {
        self.text.as_deref().unwrap_or_default()
    }
}

/// Compares as its text, however it was made.
impl PartialEq for QueueUrl {
    fn eq(&self, other: &QueueUrl) -> bool {
        **self == **other
    }
}

impl Eq for QueueUrl {}

/// Compares with text, as tests write a URL.
impl PartialEq<&str> for QueueUrl {
    fn eq(&self, other: &&str) -> bool {
        **self == **other
    }
}

impl fmt::Display for QueueUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

impl fmt::Debug for QueueUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

serde_as_text!(QueueUrl);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_ids_are_equal_exactly_when_their_texts_are() {
        let base = "0123456789abcdef0123456789abcdef0123";
        let id = MessageId::from(base);
        assert!(id == MessageId::from(base));
        // A difference at any byte, in the 8-byte words or the 4-byte tail, is seen.
        for at in 0..base.len() {
            let mut other = base.as_bytes().to_vec();
            other[at] = b'-';
            let other = MessageId::from(std::str::from_utf8(&other).unwrap());
            assert!(id != other, "byte {at}");
        }
        // A prefix is another id, though its bytes match as far as they go.
        assert!(MessageId::from("0123") != MessageId::from("01234"));
        assert!(MessageId::from("") == MessageId::default());
    }

    #[test]
    fn message_ids_read_display_and_serialise_as_their_text() {
        let uuid = "910a2dec-8902-4cc1-beeb-8da1658eec67";
        let id = MessageId::new(uuid).unwrap();
        assert_eq!(&*id, uuid);
        assert_eq!(id.to_string(), uuid);
        assert_eq!(format!("{id:?}"), format!("{uuid:?}"));
        let json = serde_json::to_string(&id).unwrap();
        assert_eq!(json, format!("\"{uuid}\""));
        assert_eq!(serde_json::from_str::<MessageId>(&json).unwrap(), id);
        // Short ids are ids too; longer than a UUID is not one.
        assert_eq!(&*MessageId::from("m1"), "m1");
        assert_eq!(&*MessageId::default(), "");
        assert_ne!(MessageId::from("m1"), MessageId::from("m2"));
        assert_eq!(MessageId::new(&"x".repeat(37)), None);
        assert!(serde_json::from_str::<MessageId>(&format!("\"{}\"", "x".repeat(37))).is_err());
    }

    #[test]
    fn queue_urls_read_compare_and_serialise_as_their_text() {
        let text = "https://sqs.us-east-1.amazonaws.com/000000000000/q";
        let url = QueueUrl::from(text);
        assert_eq!(&*url, text);
        assert_eq!(url, QueueUrl::from(text.to_string()));
        assert_eq!(url.to_string(), text);
        assert_eq!(format!("{url:?}"), format!("{text:?}"));
        let json = serde_json::to_string(&url).unwrap();
        assert_eq!(json, format!("\"{text}\""));
        assert_eq!(serde_json::from_str::<QueueUrl>(&json).unwrap(), url);
        // The default (no text kept) is the empty text, as made from "".
        assert_eq!(&*QueueUrl::default(), "");
        assert_eq!(QueueUrl::default(), QueueUrl::from(""));
        assert_eq!(serde_json::to_string(&QueueUrl::default()).unwrap(), "\"\"");
        assert_ne!(url, QueueUrl::default());
    }
}
