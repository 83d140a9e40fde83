//! A message's [`Body`] and the [`Md5`] digest answers give of it.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::sync::Arc;

/// A message body. A short text (up to [`Body::INLINE`] bytes: most bodies of the playground and
/// of its scenarios) is kept inline, so sending, receiving and deleting it allocates nothing; a
/// longer one is shared (`Arc<str>`) by the send request, the stored message and every answer
/// that returns it, so a receive does not copy it. It reads as a `&str` and displays and
/// serialises as that text.
#[derive(Clone)]
pub struct Body(Text);

#[derive(Clone)]
enum Text {
    Inline { len: u8, bytes: [u8; Body::INLINE] },
    Shared(Arc<str>),
}

impl Body {
    /// The longest text kept inline, in bytes (a body takes 24 bytes either way).
    pub const INLINE: usize = 22;

    /// The text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            // Unchecked: a check would cost ~150 instructions per read of a short body, and
            // readers (the simulation's poison marker, ledger keys) read every body.
            // SAFETY: the inline bytes are copied from a `&str` (`From<&str>`, its only maker),
            // whole, and never changed, so they are UTF-8.
            Text::Inline { .. } => unsafe { std::str::from_utf8_unchecked(self.as_bytes()) },
            Text::Shared(text) => text,
        }
    }

    /// The text's bytes, without the UTF-8 check (what digests and sizes read).
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Text::Inline { len, bytes } => &bytes[..usize::from(*len)],
            Text::Shared(text) => text.as_bytes(),
        }
    }

    /// The text's length in bytes.
    pub fn len(&self) -> usize {
        self.as_bytes().len()
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for Body {
    fn default() -> Self {
        Body::from("")
    }
}

impl std::ops::Deref for Body {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Body {
    fn from(text: &str) -> Self {
        let mut bytes = [0; Body::INLINE];
        match bytes.get_mut(..text.len()) {
            Some(inline) => {
                inline.copy_from_slice(text.as_bytes());
                Body(Text::Inline {
                    len: text.len() as u8,
                    bytes,
                })
            }
            None => Body(Text::Shared(Arc::from(text))),
        }
    }
}

impl From<String> for Body {
    fn from(text: String) -> Self {
        if text.len() <= Body::INLINE {
            Body::from(text.as_str())
        } else {
            Body(Text::Shared(Arc::from(text)))
        }
    }
}

/// Compares, hashes and orders as its text, however it is kept.
impl PartialEq for Body {
    fn eq(&self, other: &Body) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for Body {}

impl std::hash::Hash for Body {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialOrd for Body {
    fn partial_cmp(&self, other: &Body) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Body {
    fn cmp(&self, other: &Body) -> std::cmp::Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}

/// Compares with text, as tests and scripts write a body.
impl PartialEq<&str> for Body {
    fn eq(&self, other: &&str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl fmt::Display for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

serde_as_text!(Body);

/// An MD5 digest (MD5OfMessageBody, MD5OfBody): 16 bytes that serialise as the 32 lower-case
/// hex digits AWS sends, formatted only when shown.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Md5(pub [u8; 16]);

impl Md5 {
    /// The 32 hex digits.
    fn digits(&self) -> [u8; 32] {
        let mut digits = [0; 32];
        for (pair, &byte) in digits.chunks_exact_mut(2).zip(&self.0) {
            pair.copy_from_slice(&crate::hash::hex_pair(byte));
        }
        digits
    }
}

impl fmt::Display for Md5 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(std::str::from_utf8(&self.digits()).expect("hex digits are ASCII"))
    }
}

impl fmt::Debug for Md5 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Md5({self})")
    }
}

/// Compares with hex digits, as tests and scripts write a digest.
impl PartialEq<&str> for Md5 {
    fn eq(&self, other: &&str) -> bool {
        self.digits() == other.as_bytes()
    }
}

impl Serialize for Md5 {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(std::str::from_utf8(&self.digits()).expect("hex digits are ASCII"))
    }
}

impl<'de> Deserialize<'de> for Md5 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        let hex = text.len() == 32 && text.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'));
        if !hex {
            return Err(serde::de::Error::custom(format!(
                "not an MD5 digest (32 lower-case hex digits): {text}"
            )));
        }
        Ok(Md5(std::array::from_fn(|i| {
            u8::from_str_radix(&text[2 * i..2 * i + 2], 16).expect("hex digits")
        })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_share_long_texts_and_serialise_as_their_text() {
        // Short texts are copied inline, longer ones shared; either way a body reads, compares
        // and serialises as its text.
        let (edge, long) = ("x".repeat(Body::INLINE), "héllo \"x\" ".repeat(3));
        for text in ["héllo \"x\"", &edge, &long] {
            let body = Body::from(String::from(text));
            assert_eq!(body, Body::from(text));
            let copy = body.clone();
            let shared = text.len() > Body::INLINE;
            assert_eq!(copy.as_ptr() == body.as_ptr(), shared, "{text}");
            assert_eq!(body, text);
            assert_eq!((body.len(), &*body), (text.len(), text));
            assert_eq!(format!("{body:?}"), format!("{text:?}"));
            let json = serde_json::to_string(&body).unwrap();
            assert_eq!(json, serde_json::to_string(text).unwrap());
            assert_eq!(serde_json::from_str::<Body>(&json).unwrap(), body);
        }
        let (inline, shared) = (Body::from("a"), Body::from(long.as_str()));
        assert!(
            inline < shared,
            "ordered by text, whichever way each is kept"
        );
        assert_eq!(&*Body::default(), "");
        assert!(Body::default().is_empty());
    }

    #[test]
    fn md5_serialises_as_hex_and_compares_with_it() {
        let digest = Md5(*b"\x78\xe7\x31\x02\x7d\x8f\xd5\x0e\xd6\x42\x34\x0b\x7c\x9a\x63\xb3");
        assert_eq!(digest, "78e731027d8fd50ed642340b7c9a63b3");
        let json = serde_json::to_string(&digest).unwrap();
        assert_eq!(json, "\"78e731027d8fd50ed642340b7c9a63b3\"");
        assert_eq!(serde_json::from_str::<Md5>(&json).unwrap(), digest);
        assert!(serde_json::from_str::<Md5>("\"78E731027D8FD50ED642340B7C9A63B3\"").is_err());
        assert!(serde_json::from_str::<Md5>("\"78e7\"").is_err());
    }
}
