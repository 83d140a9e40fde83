//! How times and numbers read on screen: virtual time as a wall clock (virtual 0 = 12:00:00, as
//! in the seed articles' timelines), countdowns in whole seconds, counts with thousands separators.

use sqs_engine::Millis;

/// Virtual time as a wall clock: 0 is `12:00:00`, 30 s is `12:00:30`; wraps after 24 hours.
pub fn wall_clock(t: Millis) -> String {
    let s = t / 1000;
    let h = (12 + s / 3600) % 24;
    format!("{h:02}:{:02}:{:02}", (s / 60) % 60, s % 60)
}

/// Elapsed virtual time with one decimal: `30.0 s`.
pub fn elapsed(t: Millis) -> String {
    format!("{}.{} s", group(t / 1000), (t % 1000) / 100)
}

/// Whole seconds left, rounded up, so a countdown shows `1 s` until it is over.
pub fn secs_left(ms: Millis) -> u64 {
    ms.div_ceil(1000)
}

/// A duration for sentences: `45 s`, `2 min 5 s`, `1 h 3 min`.
pub fn duration(ms: Millis) -> String {
    let s = ms / 1000;
    match s {
        0..=119 => format!("{s} s"),
        120..=3599 if s % 60 == 0 => format!("{} min", s / 60),
        120..=3599 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, (s / 60) % 60),
    }
}

/// A count with thousands separators: `3,412`.
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count and its noun: `1 message`, `3,412 messages`.
pub fn plural(n: usize, noun: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{} {noun}{s}", group(n as u64))
}

/// A long identifier cut to its ends: `AQEBx3…9fQ` (the whole value goes in a tooltip).
pub fn abbreviate(id: &str, keep: usize) -> String {
    let chars: Vec<char> = id.chars().collect();
    if chars.len() <= keep * 2 + 1 {
        return id.to_string();
    }
    let head: String = chars[..keep].iter().collect();
    let tail: String = chars[chars.len() - keep..].iter().collect();
    format!("{head}…{tail}")
}

/// US dollars for tiny amounts: `$0.000012`.
pub fn dollars(usd: f64) -> String {
    if usd == 0.0 {
        "$0".to_string()
    } else if usd < 0.01 {
        format!("${}", format!("{usd:.7}").trim_end_matches('0'))
    } else {
        format!("${usd:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_starts_at_noon() {
        assert_eq!(wall_clock(0), "12:00:00");
        assert_eq!(wall_clock(30_000), "12:00:30");
        assert_eq!(wall_clock(3_600_000 + 61_500), "13:01:01");
        assert_eq!(wall_clock(12 * 3_600_000), "00:00:00");
    }

    #[test]
    fn elapsed_and_countdowns() {
        assert_eq!(elapsed(30_050), "30.0 s");
        assert_eq!(elapsed(12_345_678), "12,345.6 s");
        assert_eq!(secs_left(11_001), 12);
        assert_eq!(secs_left(0), 0);
        assert_eq!(duration(45_000), "45 s");
        assert_eq!(duration(125_000), "2 min 5 s");
        assert_eq!(duration(3_780_000), "1 h 3 min");
    }

    #[test]
    fn numbers_and_ids() {
        assert_eq!(group(3412), "3,412");
        assert_eq!(group(999), "999");
        assert_eq!(plural(1, "message"), "1 message");
        assert_eq!(plural(3412, "message"), "3,412 messages");
        assert_eq!(group(1_000_000), "1,000,000");
        assert_eq!(abbreviate("abcdefghijklmnop", 4), "abcd…mnop");
        assert_eq!(abbreviate("short", 4), "short");
        assert_eq!(dollars(0.0000004), "$0.0000004");
        assert_eq!(dollars(0.000012), "$0.000012");
        assert_eq!(dollars(1.5), "$1.50");
        assert_eq!(dollars(0.0124), "$0.01");
        assert_eq!(dollars(1234.567), "$1234.57");
    }
}
