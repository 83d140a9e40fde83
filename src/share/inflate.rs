//! Raw DEFLATE (RFC 1951) decoding for permalinks, in the manner of Mark Adler's `puff`: small,
//! one bit at a time, which is fast enough for a link of a few KB, and synchronous (a link is
//! read before the page draws). It accepts exactly what miniz_oxide's
//! `decompress_to_vec_with_limit` accepts (tests compare the two), so a damaged link is refused.
//!
//! Written here rather than taken from a crate for the bundle's size: miniz_oxide's inflater in
//! its place makes the release bundle about 5.2 KB larger under `gzip -9` (4.3 KB under brotli),
//! a table-driven decoder built for throughput that a link of a few KB does not need. The
//! browser's own `DecompressionStream` is asynchronous.

/// The bits of `input`, least significant first.
struct Bits<'a> {
    input: &'a [u8],
    at: usize,
    buffer: u32,
    count: u32,
}

impl Bits<'_> {
    /// The next `n` (at most 16) bits; `None` past the end of the input.
    fn take(&mut self, n: u32) -> Option<u32> {
        while self.count < n {
            self.buffer |= u32::from(*self.input.get(self.at)?) << self.count;
            self.at += 1;
            self.count += 8;
        }
        let bits = self.buffer & ((1 << n) - 1);
        self.buffer >>= n;
        self.count -= n;
        Some(bits)
    }
}

/// A canonical Huffman code: how many codes have each length, and the symbols in code order.
struct Code {
    count: [u16; 16],
    symbols: Vec<u16>,
}

impl Code {
    /// The code with these lengths (by symbol, 0 = unused). Like miniz_oxide, an incomplete code
    /// is refused unless it has at most one symbol (and `strict` refuses that too: the code
    /// lengths' own code).
    fn new(lengths: &[u8], strict: bool) -> Option<Code> {
        let mut count = [0u16; 16];
        for &length in lengths {
            count[usize::from(length)] += 1;
        }
        let used: u16 = count[1..].iter().sum();
        // Code space left after each length: 0 at the end when the code is complete.
        let mut left = 1i32;
        for &n in &count[1..] {
            left = (left << 1) - i32::from(n);
        }
        if left != 0 && (used > 1 || strict) {
            return None;
        }
        let mut next = [0u16; 16];
        for length in 1..15 {
            next[length + 1] = next[length] + count[length];
        }
        let mut symbols = vec![0; usize::from(used)];
        for (symbol, &length) in lengths.iter().enumerate() {
            if length != 0 {
                let slot = &mut next[usize::from(length)];
                symbols[usize::from(*slot)] = symbol as u16;
                *slot += 1;
            }
        }
        Some(Code { count, symbols })
    }

    /// The next symbol in `bits`; `None` for a code no symbol has, or past the end.
    fn decode(&self, bits: &mut Bits) -> Option<u16> {
        // The first code of the current length, and the index of its symbol.
        let (mut code, mut first, mut index) = (0i32, 0i32, 0i32);
        for &count in &self.count[1..] {
            code |= bits.take(1)? as i32;
            let count = i32::from(count);
            if code - first < count {
                return self.symbols.get((index + code - first) as usize).copied();
            }
            index += count;
            first = (first + count) << 1;
            code <<= 1;
        }
        None
    }
}

/// The order in which a dynamic block gives its code length code's lengths.
const ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// `input` decoded, or `None` if it is not raw DEFLATE or decodes to more than `limit` bytes.
pub fn inflate(input: &[u8], limit: usize) -> Option<Vec<u8>> {
    let mut bits = Bits {
        input,
        at: 0,
        buffer: 0,
        count: 0,
    };
    let mut out = Vec::new();
    loop {
        let last = bits.take(1)? == 1;
        match bits.take(2)? {
            0 => stored(&mut bits, &mut out, limit)?,
            1 => {
                let mut lengths = [8u8; 288];
                lengths[144..256].fill(9);
                lengths[256..280].fill(7);
                let (literals, distances) =
                    (Code::new(&lengths, false)?, Code::new(&[5; 32], false)?);
                codes(&mut bits, &mut out, limit, &literals, &distances)?;
            }
            2 => {
                let (literals, distances) = dynamic(&mut bits)?;
                codes(&mut bits, &mut out, limit, &literals, &distances)?;
            }
            _ => return None,
        }
        if last {
            return Some(out);
        }
    }
}

/// A stored block: from the next byte, its length, that length's complement, its bytes.
fn stored(bits: &mut Bits, out: &mut Vec<u8>, limit: usize) -> Option<()> {
    bits.take(bits.count % 8)?;
    let length = bits.take(16)?;
    if length != bits.take(16)? ^ 0xffff || out.len() + length as usize > limit {
        return None;
    }
    for _ in 0..length {
        out.push(bits.take(8)? as u8);
    }
    Some(())
}

/// A dynamic block's literal/length and distance codes.
fn dynamic(bits: &mut Bits) -> Option<(Code, Code)> {
    let literals = bits.take(5)? as usize + 257;
    let distances = bits.take(5)? as usize + 1;
    let given = bits.take(4)? as usize + 4;
    if literals > 286 || distances > 30 {
        return None;
    }
    let mut lengths = [0u8; 19];
    for &symbol in &ORDER[..given] {
        lengths[symbol] = bits.take(3)? as u8;
    }
    let lengths_code = Code::new(&lengths, true)?;
    let total = literals + distances;
    let mut lengths = vec![0u8; total];
    let mut at = 0;
    while at < total {
        let symbol = lengths_code.decode(bits)?;
        if symbol < 16 {
            lengths[at] = symbol as u8;
            at += 1;
            continue;
        }
        let (length, repeat) = match symbol {
            16 => (*lengths.get(at.checked_sub(1)?)?, 3 + bits.take(2)?),
            17 => (0, 3 + bits.take(3)?),
            _ => (0, 11 + bits.take(7)?),
        };
        let end = at + repeat as usize;
        lengths.get_mut(at..end)?.fill(length);
        at = end;
    }
    Some((
        Code::new(&lengths[..literals], false)?,
        Code::new(&lengths[literals..], false)?,
    ))
}

/// A compressed block's literals and copies, up to its end-of-block symbol.
fn codes(
    bits: &mut Bits,
    out: &mut Vec<u8>,
    limit: usize,
    literals: &Code,
    distances: &Code,
) -> Option<()> {
    loop {
        let symbol = literals.decode(bits)?;
        if symbol < 256 {
            if out.len() == limit {
                return None;
            }
            out.push(symbol as u8);
            continue;
        }
        if symbol == 256 {
            return Some(());
        }
        let length = match symbol - 257 {
            28 => 258,
            i @ 0..8 => 3 + usize::from(i),
            i @ 8..28 => {
                let extra = u32::from(i / 4 - 1);
                ((4 + usize::from(i % 4)) << extra) + 3 + bits.take(extra)? as usize
            }
            _ => return None,
        };
        let distance = match distances.decode(bits)? {
            d @ 0..4 => 1 + usize::from(d),
            d @ 4..30 => {
                let extra = u32::from(d / 2 - 1);
                ((2 + usize::from(d % 2)) << extra) + 1 + bits.take(extra)? as usize
            }
            _ => return None,
        };
        if distance > out.len() || out.len() + length > limit {
            return None;
        }
        for _ in 0..length {
            out.push(out[out.len() - distance]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::inflate;
    use miniz_oxide::deflate::compress_to_vec;
    use miniz_oxide::inflate::decompress_to_vec_with_limit;
    use rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::SplitMix64;

    /// A seeded generator for the inputs below.
    struct Rng(SplitMix64);

    impl Rng {
        fn new(seed: u64) -> Self {
            Rng(SplitMix64::seed_from_u64(seed))
        }

        fn next(&mut self) -> u64 {
            self.0.next_u64()
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Text with repeats near and far (matches of every length and distance), or noise.
    fn sample(rng: &mut Rng) -> Vec<u8> {
        let mut out = Vec::new();
        let size = rng.below(40_000);
        let noisy = rng.below(4) == 0;
        while out.len() < size {
            if noisy || out.len() < 4 || rng.below(3) == 0 {
                out.push(
                    b"abcdefghij{}\":,0123 "[rng.below(20)]
                        ^ if noisy { rng.next() as u8 } else { 0 },
                );
            } else {
                let from = rng.below(out.len());
                let length = rng.below(300).min(out.len() - from);
                out.extend_from_within(from..from + length);
            }
        }
        out
    }

    /// Both inflaters' answers; the limit is what the permalink's is to a link.
    fn both(packed: &[u8], limit: usize) -> (Option<Vec<u8>>, Option<Vec<u8>>) {
        (
            inflate(packed, limit),
            decompress_to_vec_with_limit(packed, limit).ok(),
        )
    }

    #[test]
    fn decodes_what_miniz_compresses_at_all_levels() {
        let mut rng = Rng::new(7);
        for round in 0..120 {
            let data = sample(&mut rng);
            let packed = compress_to_vec(&data, (round % 11) as u8);
            assert_eq!(
                inflate(&packed, usize::MAX).as_deref(),
                Some(&data[..]),
                "round {round}"
            );
        }
    }

    #[test]
    fn refuses_what_miniz_refuses_and_reads_what_it_reads() {
        let mut rng = Rng::new(42);
        let mut refused = 0;
        for round in 0..3_000 {
            let data = sample(&mut rng);
            let mut packed = compress_to_vec(&data[..data.len().min(2_000)], (round % 11) as u8);
            // Damage: flipped bits, a cut, garbage, or none.
            match round % 4 {
                0 => {
                    for _ in 0..1 + rng.below(3) {
                        let at = rng.below(packed.len());
                        packed[at] ^= 1 << rng.below(8);
                    }
                }
                1 => packed.truncate(rng.below(packed.len() + 1)),
                2 => packed = (0..rng.below(64)).map(|_| rng.next() as u8).collect(),
                _ => {}
            }
            let (ours, miniz) = both(&packed, 8 * 1024 * 1024);
            assert_eq!(ours, miniz, "round {round}: {packed:?}");
            refused += usize::from(ours.is_none());
        }
        // The damage did reach the refusals (and not every input was refused).
        assert!((500..2_500).contains(&refused), "{refused} refused");
    }

    #[test]
    fn stops_at_the_limit_as_miniz_does() {
        let data = vec![7u8; 10_000];
        for level in [0, 1, 9] {
            let packed = compress_to_vec(&data, level);
            for limit in [0, 1, 9_999, 10_000, 10_001] {
                let (ours, miniz) = both(&packed, limit);
                assert_eq!(ours, miniz, "level {level}, limit {limit}");
                assert_eq!(ours.is_some(), limit >= 10_000);
            }
        }
    }
}
