//! Decimal numbers written without the formatting machinery: the benchmark's bodies and the
//! simulation's producers write one per message, where `format!` is a measurable share. And read
//! in JSON's number grammar, as the UI's number fields and share links take them.

/// Appends `n` in decimal, two digits per division.
pub fn push_decimal(out: &mut String, n: u64) {
    // Below 100 (a producer's `{n%100}`), without the buffer.
    if n < 100 {
        let [tens, ones] = PAIRS[n as usize];
        if n >= 10 {
            out.push(char::from(tens));
        }
        out.push(char::from(ones));
        return;
    }
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

/// A JSON number's value (`1`, `-2.5`, `1e3`), read by serde_json's own parser.
pub fn parse(text: &str) -> Option<f64> {
    text.parse::<serde_json::Number>().ok()?.as_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_json_numbers_only() {
        assert_eq!(parse("1000"), Some(1000.0));
        assert_eq!(parse("-2.5"), Some(-2.5));
        assert_eq!(parse("1e3"), Some(1000.0));
        assert_eq!(parse("0.1"), Some(0.1));
        for no in ["", "x", "1 ", " 1", "1.2.3", "inf", "NaN", "+1", "1e400"] {
            assert_eq!(parse(no), None, "{no}");
        }
    }

    #[test]
    fn writes_every_width_like_display() {
        for n in [0, 7, 10, 99, 100, 101, 1_234_567, 12_345_678, u64::MAX] {
            let mut out = String::from("x");
            push_decimal(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }
}
