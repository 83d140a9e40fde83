//! Decimal numbers written without the formatting machinery: the benchmark's bodies and the
//! simulation's producers write one per message, where `format!` is a measurable share.

/// Appends `n` in decimal.
pub fn push_decimal(out: &mut String, n: u64) {
    let (mut digits, mut at, mut n) = ([0u8; 20], 20, n);
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&digits[at..]).expect("ASCII digits"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_every_width_like_display() {
        for n in [0, 7, 10, 1_234_567, u64::MAX] {
            let mut out = String::from("x");
            push_decimal(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }
}
