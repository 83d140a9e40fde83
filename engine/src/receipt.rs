//! Receipt handles: opaque to callers, but they carry (queue, slot, slot generation, receive
//! generation) so that DeleteMessage and ChangeMessageVisibility find the message in O(1), plus
//! seeded random bytes and a keyed check so a garbage or foreign handle is recognisably invalid
//! (semantics §5, §6).

use base64::prelude::{Engine as _, BASE64_STANDARD};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// Where a receipt handle points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Receipt {
    pub queue: u32,
    pub slot: u32,
    pub slot_gen: u32,
    pub receipt_gen: u32,
}

/// AWS's handles start like this; ours do too, so they look familiar in the UI.
const PREFIX: &str = "AQEB";

/// Length of a handle: the prefix and the base64 of 32 bytes.
const LEN: usize = PREFIX.len() + base64::encoded_len(32, true).expect("a small length");

/// The keyed check of a handle's first 24 bytes, read as three little-endian words.
fn check(secret: u64, fields: [u64; 3]) -> u64 {
    mix(mix(mix(secret ^ fields[0]) ^ fields[1]) ^ fields[2])
}

/// SplitMix64's finaliser (Stafford's variant 13), a bijection that spreads every input bit over
/// the output: the check's mixing step, cheap enough for every receive and delete. The check
/// only makes a garbage or foreign handle recognisably invalid; it is not a MAC.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A receipt handle in the shape this engine issues: the 32 bytes behind the AWS-style string
/// (`AQEB` and their base64). A `Copy` value, so events carry it without a copy of the text;
/// it displays and serialises as that text. Only the canonical spelling parses, so a handle
/// parsed from a request prints back exactly as it was given.
///
/// Kept as the bytes' four little-endian words: issuing and checking a handle (every receive
/// and delete) is then word arithmetic.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct ReceiptHandle([u64; 4]);

/// Hashes its bytes, as the derived `Hash` of the byte array it was did.
impl std::hash::Hash for ReceiptHandle {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.bytes().hash(state);
    }
}

impl ReceiptHandle {
    /// The handle for `receipt` with random part `nonce`.
    pub(crate) fn issue(secret: u64, receipt: Receipt, nonce: u64) -> Self {
        let fields = [
            u64::from(receipt.queue) | u64::from(receipt.slot) << 32,
            u64::from(receipt.slot_gen) | u64::from(receipt.receipt_gen) << 32,
            nonce,
        ];
        ReceiptHandle([fields[0], fields[1], fields[2], check(secret, fields)])
    }

    /// The receipt this handle points to, or `None` if an engine with `secret` never issued it.
    pub(crate) fn receipt(&self, secret: u64) -> Option<Receipt> {
        let [place, generations, nonce, sum] = self.0;
        if check(secret, [place, generations, nonce]) != sum {
            return None;
        }
        Some(Receipt {
            queue: place as u32,
            slot: (place >> 32) as u32,
            slot_gen: generations as u32,
            receipt_gen: (generations >> 32) as u32,
        })
    }

    /// The 32 bytes.
    fn bytes(&self) -> [u8; 32] {
        let mut bytes = [0; 32];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = (self.0[i / 8] >> (i % 8 * 8)) as u8;
        }
        bytes
    }

    /// The text, as a response carries it (without going through `fmt`: every receive).
    pub(crate) fn to_text(self) -> String {
        String::from_utf8(self.ascii().to_vec()).expect("base64 is ASCII")
    }

    fn ascii(&self) -> [u8; LEN] {
        let mut text = [0u8; LEN];
        text[..PREFIX.len()].copy_from_slice(PREFIX.as_bytes());
        BASE64_STANDARD
            .encode_slice(self.bytes(), &mut text[PREFIX.len()..])
            .expect("LEN holds the base64 of 32 bytes");
        text
    }
}

/// The text is not a receipt handle of the shape this engine issues.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotAReceiptHandle;

impl fmt::Display for NotAReceiptHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a receipt handle")
    }
}

impl FromStr for ReceiptHandle {
    type Err = NotAReceiptHandle;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let base64 = text.strip_prefix(PREFIX).ok_or(NotAReceiptHandle)?;
        // Only the canonical spelling (zero padding bits) decodes: BASE64_STANDARD checks them.
        let mut bytes = [0u8; 32];
        if !matches!(BASE64_STANDARD.decode_slice(base64, &mut bytes), Ok(32)) {
            return Err(NotAReceiptHandle);
        }
        let mut words = [0; 4];
        for (i, &byte) in bytes.iter().enumerate() {
            words[i / 8] |= u64::from(byte) << (i % 8 * 8);
        }
        Ok(ReceiptHandle(words))
    }
}

impl fmt::Display for ReceiptHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(std::str::from_utf8(&self.ascii()).expect("base64 is ASCII"))
    }
}

impl fmt::Debug for ReceiptHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ReceiptHandle({self})")
    }
}

impl Serialize for ReceiptHandle {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(std::str::from_utf8(&self.ascii()).expect("base64 is ASCII"))
    }
}

impl<'de> Deserialize<'de> for ReceiptHandle {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A ReceiptHandle as a request carries it: the [`ReceiptHandle`] value a receive answered (no
/// text to parse on the way back), or any other text, which the action checks and refuses as AWS
/// does. Parsed from and written as the text, so scripts and JSON see no difference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyReceiptHandle {
    /// A handle in the shape this engine issues (valid or not is for the action to say).
    Issued(ReceiptHandle),
    /// Text that is not in that shape: never a valid handle.
    Other(String),
}

/// The empty text, as an empty `String` was.
impl Default for AnyReceiptHandle {
    fn default() -> Self {
        AnyReceiptHandle::Other(String::new())
    }
}

impl From<ReceiptHandle> for AnyReceiptHandle {
    fn from(handle: ReceiptHandle) -> Self {
        AnyReceiptHandle::Issued(handle)
    }
}

/// Parses the text: the canonical spelling of an issued handle becomes [`AnyReceiptHandle::Issued`].
impl From<String> for AnyReceiptHandle {
    fn from(text: String) -> Self {
        match text.parse() {
            Ok(handle) => AnyReceiptHandle::Issued(handle),
            Err(NotAReceiptHandle) => AnyReceiptHandle::Other(text),
        }
    }
}

impl From<&str> for AnyReceiptHandle {
    fn from(text: &str) -> Self {
        text.to_string().into()
    }
}

impl fmt::Display for AnyReceiptHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyReceiptHandle::Issued(handle) => fmt::Display::fmt(handle, f),
            AnyReceiptHandle::Other(text) => f.write_str(text),
        }
    }
}

impl Serialize for AnyReceiptHandle {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            AnyReceiptHandle::Issued(handle) => handle.serialize(serializer),
            AnyReceiptHandle::Other(text) => serializer.serialize_str(text),
        }
    }
}

impl<'de> Deserialize<'de> for AnyReceiptHandle {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(AnyReceiptHandle::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The receipt a handle's text points to, as a delete resolves it.
    fn decode(secret: u64, text: &str) -> Option<Receipt> {
        text.parse::<ReceiptHandle>().ok()?.receipt(secret)
    }

    #[test]
    fn round_trip_and_forgery() {
        let receipt = Receipt {
            queue: 3,
            slot: 7,
            slot_gen: 1,
            receipt_gen: 2,
        };
        let handle = ReceiptHandle::issue(42, receipt, 99).to_text();
        // Pinned: the handles of a seed must not change between versions.
        assert_eq!(handle, "AQEBAwAAAAcAAAABAAAAAgAAAGMAAAAAAAAABbl0hSobPaY=");
        assert_eq!(decode(42, &handle), Some(receipt));
        assert_eq!(decode(43, &handle), None);
        assert_eq!(decode(42, "garbage"), None);
        // The same bytes spelt with non-zero padding bits: not a handle this engine issued.
        assert_eq!(decode(42, &handle.replace("aY=", "aZ=")), None);
        let mut tampered = handle.clone().into_bytes();
        tampered[10] ^= 1;
        assert_eq!(decode(42, &String::from_utf8(tampered).unwrap()), None);
    }

    #[test]
    fn text_display_and_json_agree() {
        let handle = ReceiptHandle::issue(
            1,
            Receipt {
                queue: 0,
                slot: 5,
                slot_gen: 0,
                receipt_gen: 1,
            },
            7,
        );
        let text = handle.to_text();
        assert_eq!(handle.to_string(), text);
        assert_eq!(text.parse(), Ok(handle));
        let json = serde_json::to_string(&handle).unwrap();
        assert_eq!(json, format!("\"{text}\""));
        assert_eq!(
            serde_json::from_str::<ReceiptHandle>(&json).unwrap(),
            handle
        );
        assert!(serde_json::from_str::<ReceiptHandle>("\"AQEBnope\"").is_err());
    }

    #[test]
    fn any_handle_keeps_the_text_it_was_given() {
        let receipt = Receipt {
            queue: 0,
            slot: 5,
            slot_gen: 0,
            receipt_gen: 1,
        };
        let handle = ReceiptHandle::issue(1, receipt, 7);
        let text = handle.to_text();
        let issued = AnyReceiptHandle::from(text.as_str());
        assert_eq!(issued, AnyReceiptHandle::Issued(handle));
        for given in ["garbage", "", &text.replacen("AQEB", "AQEC", 1)] {
            let other = AnyReceiptHandle::from(given);
            assert_eq!(other, AnyReceiptHandle::Other(given.into()));
            assert_eq!(other.to_string(), given);
        }
        for any in [issued, AnyReceiptHandle::from("garbage")] {
            let json = serde_json::to_string(&any).unwrap();
            assert_eq!(json, format!("\"{any}\""));
            assert_eq!(
                serde_json::from_str::<AnyReceiptHandle>(&json).unwrap(),
                any
            );
        }
    }
}
