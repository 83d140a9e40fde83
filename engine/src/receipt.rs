//! Receipt handles: opaque to callers, but they carry (queue, slot, slot generation, receive
//! generation) so that DeleteMessage and ChangeMessageVisibility find the message in O(1), plus
//! seeded random bytes and a keyed check so a garbage or foreign handle is recognisably invalid
//! (semantics §5, §6).

use crate::rng::mix;

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

fn check(secret: u64, fields: &[u8; 24]) -> u64 {
    fields.chunks(8).fold(secret, |acc, chunk| {
        mix(acc ^ u64::from_le_bytes(chunk.try_into().expect("8 bytes")))
    })
}

/// Length of a handle: the prefix and the base64 of 32 bytes.
const LEN: usize = PREFIX.len() + crate::base64::encoded_len(32);

/// The handle for `receipt` with random part `nonce`.
pub(crate) fn encode(secret: u64, receipt: Receipt, nonce: u64) -> String {
    let mut bytes = [0u8; 32];
    for (i, v) in [
        receipt.queue,
        receipt.slot,
        receipt.slot_gen,
        receipt.receipt_gen,
    ]
    .into_iter()
    .enumerate()
    {
        bytes[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
    }
    bytes[16..24].copy_from_slice(&nonce.to_le_bytes());
    let fields: [u8; 24] = bytes[..24].try_into().expect("24 bytes");
    bytes[24..].copy_from_slice(&check(secret, &fields).to_le_bytes());
    let mut handle = [0u8; LEN];
    handle[..PREFIX.len()].copy_from_slice(PREFIX.as_bytes());
    crate::base64::encode_to(&bytes, &mut handle[PREFIX.len()..]);
    String::from_utf8(handle.to_vec()).expect("base64 is ASCII")
}

/// The receipt a handle points to, or `None` if this engine never issued it.
pub(crate) fn decode(secret: u64, handle: &str) -> Option<Receipt> {
    let bytes: [u8; 32] = crate::base64::decode_array(handle.strip_prefix(PREFIX)?)?;
    let fields: [u8; 24] = bytes[..24].try_into().ok()?;
    if check(secret, &fields).to_le_bytes() != bytes[24..] {
        return None;
    }
    let word = |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().expect("4 bytes"));
    Some(Receipt {
        queue: word(0),
        slot: word(1),
        slot_gen: word(2),
        receipt_gen: word(3),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_forgery() {
        let receipt = Receipt {
            queue: 3,
            slot: 7,
            slot_gen: 1,
            receipt_gen: 2,
        };
        let handle = encode(42, receipt, 99);
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
}
