//! Standard base64 (RFC 4648, padded): BinaryValue message attributes arrive base64-encoded, and
//! receipt handles, move-task handles and NextTokens are base64 like AWS's.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Encodes bytes as padded base64.
pub(crate) fn encode(bytes: &[u8]) -> String {
    let mut out = vec![0; encoded_len(bytes.len())];
    encode_to(bytes, &mut out);
    String::from_utf8(out).expect("base64 is ASCII")
}

/// The length of the padded base64 of `n` bytes.
pub(crate) const fn encoded_len(n: usize) -> usize {
    n.div_ceil(3) * 4
}

/// Writes the padded base64 of `bytes` into `out`, which is [`encoded_len`] long (receipt
/// handles are encoded this way into a stack buffer, on every receive).
pub(crate) fn encode_to(bytes: &[u8], out: &mut [u8]) {
    let sextet = |n: u32, shift: u32| ALPHABET[(n >> shift & 63) as usize];
    let mut chunks = bytes.chunks_exact(3);
    let mut quads = out.chunks_exact_mut(4);
    for (chunk, dest) in (&mut chunks).zip(&mut quads) {
        let n = u32::from(chunk[0]) << 16 | u32::from(chunk[1]) << 8 | u32::from(chunk[2]);
        dest[0] = sextet(n, 18);
        dest[1] = sextet(n, 12);
        dest[2] = sextet(n, 6);
        dest[3] = sextet(n, 0);
    }
    let rest = chunks.remainder();
    if let Some(dest) = quads.next() {
        let n = rest
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for (i, c) in dest.iter_mut().enumerate() {
            *c = if i <= rest.len() {
                sextet(n, 18 - 6 * i as u32)
            } else {
                b'='
            };
        }
    }
}

/// Marks a byte that is not a base64 character in [`VALUES`].
const INVALID: u8 = 0xff;

/// The 6-bit value of each byte, [`INVALID`] for those outside the alphabet.
const VALUES: [u8; 256] = {
    let mut table = [INVALID; 256];
    let mut i = 0;
    while i < 64 {
        table[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    table
};

/// Decodes padded base64; `None` if the text is not valid base64.
pub(crate) fn decode(text: &str) -> Option<Vec<u8>> {
    let mut out = vec![0; text.len() / 4 * 3];
    let len = decode_to(text, &mut out, false)?;
    out.truncate(len);
    Some(out)
}

/// Decodes the base64 of exactly `N` bytes, in its one canonical spelling (padding bits zero),
/// into a stack array: receipt handles are decoded this way on every delete.
pub(crate) fn decode_array<const N: usize>(text: &str) -> Option<[u8; N]> {
    let mut out = [0; N];
    if text.len() != encoded_len(N) {
        return None;
    }
    (decode_to(text, &mut out, true)? == N).then_some(out)
}

/// Decodes into `out` (at least 3 bytes per 4 characters); returns the length written. A table
/// lookup per character, no copy per chunk. `canonical` rejects non-zero padding bits.
fn decode_to(text: &str, out: &mut [u8], canonical: bool) -> Option<usize> {
    let bytes = text.as_bytes();
    if bytes.len() % 4 != 0 {
        return None;
    }
    // Every chunk but the last is four alphabet characters ('=' is not one).
    let (body, last) = bytes.split_at(bytes.len().saturating_sub(4));
    let len = body.len() / 4 * 3;
    for (chunk, dest) in body
        .chunks_exact(4)
        .zip(out.get_mut(..len)?.chunks_exact_mut(3))
    {
        let n = sextets(chunk)?;
        dest.copy_from_slice(&[(n >> 16) as u8, (n >> 8) as u8, n as u8]);
    }
    if last.is_empty() {
        return Some(len);
    }
    let pad = last.iter().rev().take_while(|&&c| c == b'=').count();
    if pad > 2 {
        return None;
    }
    let n = sextets(&last[..4 - pad])?;
    if canonical && n & ((1 << (2 * pad)) - 1) != 0 {
        return None;
    }
    let n = n << (6 * pad);
    let decoded = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
    let end = len + 3 - pad;
    out.get_mut(len..end)?.copy_from_slice(&decoded[..3 - pad]);
    Some(end)
}

/// The 6-bit values of up to four alphabet characters, big-endian; `None` if one is not in the
/// alphabet.
fn sextets(chars: &[u8]) -> Option<u32> {
    let (mut n, mut seen) = (0u32, 0u8);
    for &c in chars {
        let v = VALUES[c as usize];
        seen |= v;
        n = n << 6 | u32::from(v & 63);
    }
    (seen < 64).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for text in ["", "f", "fo", "foo", "foob", "fooba", "foobar"] {
            let encoded = encode(text.as_bytes());
            assert_eq!(decode(&encoded).unwrap(), text.as_bytes());
        }
        assert_eq!(encode(b"foobar"), "Zm9vYmFy");
        assert_eq!(encode(b"fo"), "Zm8=");
    }

    #[test]
    fn rejects_garbage() {
        assert!(decode("garbage").is_none());
        assert!(decode("Zm=8").is_none());
        assert!(decode("a!bc").is_none());
    }

    #[test]
    fn arrays_take_only_the_canonical_spelling() {
        assert_eq!(decode_array::<2>("Zm8="), Some(*b"fo"));
        // "Zm9=" decodes to "fo" as well, with padding bits set: another spelling, refused.
        assert_eq!(decode("Zm9=").unwrap(), b"fo");
        assert_eq!(decode_array::<2>("Zm9="), None);
        assert_eq!(decode_array::<3>("Zm8="), None);
        assert_eq!(decode_array::<1>("Zm8="), None);
    }
}
