//! The digests SQS reports, from RustCrypto's `md-5` and `sha2`: MD5 of bodies (semantics §3.1;
//! that of message attributes is `message::md5_of_attributes`) and the SHA-256 content-based
//! deduplication id (§3.4), and the lower-case hex they are written in.

use md5::Md5;
use sha2::{Digest, Sha256};

/// MD5 of `data` (RFC 1321).
pub(crate) fn md5(data: &[u8]) -> [u8; 16] {
    Md5::digest(data).into()
}

/// Hex SHA-256 of `data` (FIPS 180-4).
pub(crate) fn sha256_hex(data: &[u8]) -> String {
    hex(&Sha256::digest(data))
}

/// Lower-case hex (this runs on every send and receive).
pub(crate) fn hex(bytes: &[u8]) -> String {
    let digits: Vec<u8> = bytes.iter().flat_map(|&b| hex_pair(b)).collect();
    String::from_utf8(digits).expect("hex digits are ASCII")
}

/// The 8 lower-case hex digits of `x`, most significant first, computed for all digits at once
/// in a `u64` (every send makes a MessageId of 32).
pub(crate) fn hex_u32(x: u32) -> [u8; 8] {
    /// `byte` in every byte.
    const fn lanes(byte: u8) -> u64 {
        u64::from_ne_bytes([byte; 8])
    }
    // Spread the nibbles one per byte, halving the field width each step (the upper half of
    // each field moves up into the next field): 16 bits per 32, 8 per 16, 4 per 8.
    let mut v = u64::from(x);
    v = (v | v << 16) & 0x0000_ffff_0000_ffff;
    v = (v | v << 8) & 0x00ff_00ff_00ff_00ff;
    v = (v | v << 4) & 0x0f0f_0f0f_0f0f_0f0f;
    // A nibble of 10 or more gets 0x27 more: from '0' + 10 (':') to 'a'. Adding 6 sets bit 4
    // exactly for those; no byte carries into the next.
    let letters = (v + lanes(6)) >> 4 & lanes(1);
    (v + lanes(b'0') + letters * 0x27).to_be_bytes()
}

/// The two lower-case hex digits of a byte, from a table.
pub(crate) fn hex_pair(byte: u8) -> [u8; 2] {
    HEX_PAIRS[byte as usize]
}

const HEX_PAIRS: [[u8; 2]; 256] = {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut pairs = [[0; 2]; 256];
    let mut b = 0;
    while b < 256 {
        pairs[b] = [DIGITS[b >> 4], DIGITS[b & 15]];
        b += 1;
    }
    pairs
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_u32_spells_every_nibble_as_hex_does() {
        let mut rng = crate::rng::Rng::new(0x0123_4567_89ab_cdef);
        for _ in 0..1000 {
            let word = rng.next_u64() as u32;
            assert_eq!(
                hex_u32(word).as_slice(),
                hex(&word.to_be_bytes()).as_bytes()
            );
        }
        assert_eq!(&hex_u32(0x89ab_cdef), b"89abcdef");
        assert_eq!(&hex_u32(u32::MAX), b"ffffffff");
        assert_eq!(&hex_u32(0), b"00000000");
    }

    /// Hex MD5 of `data`.
    fn md5_hex(data: &[u8]) -> String {
        hex(&md5(data))
    }

    #[test]
    fn md5_known_vectors() {
        assert_eq!(md5_hex(b""), "d41d8cd98f00b204e9800998ecf8427e");
        // §3.1: "message" -> 78e731027d8fd50ed642340b7c9a63b3
        assert_eq!(md5_hex(b"message"), "78e731027d8fd50ed642340b7c9a63b3");
    }

    #[test]
    fn sha256_known_vectors() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
