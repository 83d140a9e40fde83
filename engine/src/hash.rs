//! The digests SQS reports: MD5 of bodies and of message attributes (semantics §3.1) and the
//! SHA-256 content-based deduplication id (§3.4). Written here to keep the crate dependency-free.

use crate::api::MessageAttributes;

/// Hex MD5 of `data` (RFC 1321).
pub(crate) fn md5_hex(data: &[u8]) -> String {
    hex(&md5(data))
}

/// Hex SHA-256 of `data` (FIPS 180-4).
pub(crate) fn sha256_hex(data: &[u8]) -> String {
    hex(&sha256(data))
}

/// MD5OfMessageAttributes: attributes in name order, each as length-prefixed name, length-prefixed
/// DataType, a transport byte (1 string/number, 2 binary) and the length-prefixed value bytes.
/// `None` for an empty map, since AWS then omits the member. Binary values are already checked
/// to be base64 by validation.
pub(crate) fn md5_of_attributes(attributes: &MessageAttributes) -> Option<String> {
    if attributes.is_empty() {
        return None;
    }
    let mut buf = Vec::new();
    let put = |buf: &mut Vec<u8>, bytes: &[u8]| {
        buf.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
        buf.extend_from_slice(bytes);
    };
    for (name, value) in attributes {
        put(&mut buf, name.as_bytes());
        put(&mut buf, value.data_type.as_bytes());
        let (transport, bytes) = crate::validate::attribute_value_bytes(value);
        buf.push(transport);
        put(&mut buf, &bytes);
    }
    Some(md5_hex(&buf))
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

/// Calls `block` for each 64-byte block of `data` padded as MD5 and SHA-256 both pad it
/// (`big_endian` picks the length's byte order); only the tail is copied.
fn for_each_block(data: &[u8], big_endian: bool, mut block: impl FnMut(&[u8; 64])) {
    let mut chunks = data.chunks_exact(64);
    for chunk in &mut chunks {
        block(chunk.try_into().expect("64 bytes"));
    }
    let bits = (data.len() as u64).wrapping_mul(8);
    let length = if big_endian {
        bits.to_be_bytes()
    } else {
        bits.to_le_bytes()
    };
    // Most bodies leave a tail of under 56 bytes: one block, which is all that is zeroed.
    match chunks.remainder() {
        rest if rest.len() < 56 => last_blocks::<64>(rest, length, &mut block),
        rest => last_blocks::<128>(rest, length, &mut block),
    }
}

/// The padded tail of [`for_each_block`]: `rest`, the 0x80 marker, zeros and `length`, in `N`
/// bytes (one or two blocks).
fn last_blocks<const N: usize>(rest: &[u8], length: [u8; 8], block: &mut impl FnMut(&[u8; 64])) {
    let mut tail = [0u8; N];
    tail[..rest.len()].copy_from_slice(rest);
    tail[rest.len()] = 0x80;
    tail[N - 8..].copy_from_slice(&length);
    for chunk in tail.chunks_exact(64) {
        block(chunk.try_into().expect("64 bytes"));
    }
}

/// MD5 of `data` (RFC 1321).
pub(crate) fn md5(data: &[u8]) -> [u8; 16] {
    let mut state = [0x6745_2301u32, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];
    for_each_block(data, false, |block| md5_block(&mut state, block));
    let mut out = [0u8; 16];
    for (chunk, s) in out.chunks_exact_mut(4).zip(state) {
        chunk.copy_from_slice(&s.to_le_bytes());
    }
    out
}

/// One MD5 compression, written out step by step: every send hashes its body, and the
/// straight-line form keeps the shifts, constants and message indexes compile-time constants.
fn md5_block(state: &mut [u32; 4], block: &[u8; 64]) {
    let mut m = [0u32; 16];
    for (word, bytes) in m.iter_mut().zip(block.chunks_exact(4)) {
        *word = u32::from_le_bytes(bytes.try_into().expect("4 bytes"));
    }
    let [mut a, mut b, mut c, mut d] = *state;
    macro_rules! step {
        ($f:ident, $a:ident, $b:ident, $c:ident, $d:ident, $i:expr, $s:expr) => {
            $a = $b.wrapping_add(
                $a.wrapping_add($f($b, $c, $d))
                    .wrapping_add(m[MD5_INDEX[$i]])
                    .wrapping_add(MD5_K[$i])
                    .rotate_left($s),
            );
        };
    }
    macro_rules! round {
        ($f:ident, $base:expr, $s0:expr, $s1:expr, $s2:expr, $s3:expr) => {
            step!($f, a, b, c, d, $base, $s0);
            step!($f, d, a, b, c, $base + 1, $s1);
            step!($f, c, d, a, b, $base + 2, $s2);
            step!($f, b, c, d, a, $base + 3, $s3);
            step!($f, a, b, c, d, $base + 4, $s0);
            step!($f, d, a, b, c, $base + 5, $s1);
            step!($f, c, d, a, b, $base + 6, $s2);
            step!($f, b, c, d, a, $base + 7, $s3);
            step!($f, a, b, c, d, $base + 8, $s0);
            step!($f, d, a, b, c, $base + 9, $s1);
            step!($f, c, d, a, b, $base + 10, $s2);
            step!($f, b, c, d, a, $base + 11, $s3);
            step!($f, a, b, c, d, $base + 12, $s0);
            step!($f, d, a, b, c, $base + 13, $s1);
            step!($f, c, d, a, b, $base + 14, $s2);
            step!($f, b, c, d, a, $base + 15, $s3);
        };
    }
    // F and G as RFC 1321 defines them, (b & c) | (!b & d) and (b & d) | (c & !d), written as
    // selects in three operations instead of four.
    fn f(b: u32, c: u32, d: u32) -> u32 {
        d ^ (b & (c ^ d))
    }
    fn g(b: u32, c: u32, d: u32) -> u32 {
        c ^ (d & (b ^ c))
    }
    fn h(b: u32, c: u32, d: u32) -> u32 {
        b ^ c ^ d
    }
    fn i(b: u32, c: u32, d: u32) -> u32 {
        c ^ (b | !d)
    }
    round!(f, 0, 7, 12, 17, 22);
    round!(g, 16, 5, 9, 14, 20);
    round!(h, 32, 4, 11, 16, 23);
    round!(i, 48, 6, 10, 15, 21);
    for (s, v) in state.iter_mut().zip([a, b, c, d]) {
        *s = s.wrapping_add(v);
    }
}

/// Which message word each MD5 step adds: i, 5i+1, 3i+5 and 7i (mod 16) in the four rounds.
const MD5_INDEX: [usize; 64] = {
    let mut index = [0; 64];
    let mut i = 0;
    while i < 64 {
        index[i] = match i / 16 {
            0 => i,
            1 => (5 * i + 1) % 16,
            2 => (3 * i + 5) % 16,
            _ => (7 * i) % 16,
        };
        i += 1;
    }
    index
};

/// RFC 1321's table T[i] = floor(2^32 * |sin(i + 1)|).
const MD5_K: [u32; 64] = [
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

const SHA256_K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

fn sha256(data: &[u8]) -> [u8; 32] {
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    for_each_block(data, true, |block| {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let mut v = h;
        for i in 0..64 {
            let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
            let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
            let t1 = v[7]
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(SHA256_K[i])
                .wrapping_add(w[i]);
            let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
            let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            let t2 = s0.wrapping_add(maj);
            v.copy_within(0..7, 1);
            v[4] = v[4].wrapping_add(t1);
            v[0] = t1.wrapping_add(t2);
        }
        for (s, x) in h.iter_mut().zip(v) {
            *s = s.wrapping_add(x);
        }
    });
    let mut out = [0u8; 32];
    for (chunk, s) in out.chunks_mut(4).zip(h) {
        chunk.copy_from_slice(&s.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::MessageAttributeValue;

    #[test]
    fn hex_u32_spells_every_nibble_as_hex_does() {
        let mut x = 0x0123_4567_89ab_cdefu64;
        for _ in 0..1000 {
            let word = x as u32;
            assert_eq!(
                hex_u32(word).as_slice(),
                hex(&word.to_be_bytes()).as_bytes()
            );
            x = crate::rng::mix(x);
        }
        assert_eq!(&hex_u32(0x89ab_cdef), b"89abcdef");
        assert_eq!(&hex_u32(u32::MAX), b"ffffffff");
        assert_eq!(&hex_u32(0), b"00000000");
    }

    fn string_attr(name: &str, data_type: &str, value: &str) -> MessageAttributes {
        let mut map = MessageAttributes::new();
        map.insert(
            name.into(),
            MessageAttributeValue {
                data_type: data_type.into(),
                string_value: Some(value.into()),
                binary_value: None,
            },
        );
        map
    }

    #[test]
    fn md5_known_vectors() {
        assert_eq!(md5_hex(b""), "d41d8cd98f00b204e9800998ecf8427e");
        // §3.1: "message" -> 78e731027d8fd50ed642340b7c9a63b3
        assert_eq!(md5_hex(b"message"), "78e731027d8fd50ed642340b7c9a63b3");
        // Lengths around the padding boundaries (55, 56, 64 bytes).
        assert_eq!(md5_hex(&[b'a'; 55]), "ef1772b6dff9a122358552954ad0df65");
        assert_eq!(md5_hex(&[b'a'; 56]), "3b0c8ac703f828b04c6c197006d17218");
        assert_eq!(md5_hex(&[b'a'; 64]), "014842d480b571495a4a0363793f7367");
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

    #[test]
    fn attribute_md5_matches_the_reference_vectors() {
        // §3.1 verified vectors.
        let md5 = |m: MessageAttributes| md5_of_attributes(&m).unwrap();
        assert_eq!(
            md5(string_attr("MyAttribute", "String", "foobar")),
            "adb59cd4678ea5a855436b949cd07ab6"
        );
        assert_eq!(
            md5(string_attr("Foo", "String", "Bar")),
            "ae7155c6026991b6d54b11589678bf9c"
        );
        assert_eq!(
            md5(string_attr("timestamp", "Number", "1493147359900")),
            "235c5c510d26fb653d073faed50ae77c"
        );
        assert_eq!(md5_of_attributes(&MessageAttributes::new()), None);
    }
}
