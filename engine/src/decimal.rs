//! Decimal numbers written without the formatting machinery: the benchmark's bodies and the
//! simulation's producers write one per message, where `format!` is a measurable share.

/// Appends `n` in decimal, two digits per division.
pub fn push_decimal(out: &mut String, n: u64) {
    let (mut digits, mut at, mut n) = ([0u8; 20], 20, n);
    while n >= 100 {
        at -= 2;
        digits[at..at + 2].copy_from_slice(&PAIRS[(n % 100) as usize]);
        n /= 100;
    }
    if n >= 10 {
        at -= 2;
        digits[at..at + 2].copy_from_slice(&PAIRS[n as usize]);
    } else {
        at -= 1;
        digits[at] = b'0' + n as u8;
    }
    // Digit by digit: cheaper than checking the slice is UTF-8.
    out.reserve(digits.len() - at);
    digits[at..].iter().for_each(|&d| out.push(char::from(d)));
}

/// "00" to "99".
const PAIRS: [[u8; 2]; 100] = {
    let mut pairs = [[0; 2]; 100];
    let mut i = 0;
    while i < 100 {
        pairs[i] = [b'0' + (i / 10) as u8, b'0' + (i % 10) as u8];
        i += 1;
    }
    pairs
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_every_width_like_display() {
        for n in [0, 7, 10, 99, 100, 101, 1_234_567, 12_345_678, u64::MAX] {
            let mut out = String::from("x");
            push_decimal(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }
}
