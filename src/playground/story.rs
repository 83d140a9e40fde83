//! The story on the clock: each "what to watch" line of a scenario with the virtual instant it
//! is about, so that the line whose time has come can be shown (and announced) under the top bar
//! and marked on the timeline. A line that starts with a clock time (`12:01:00: ...`) is about
//! that instant (virtual 0 is 12:00:00, as on the clock); a line without one is placed evenly
//! between the timed lines around it (or the start and the scenario's end).

use sqs_engine::Millis;

/// One line of the story and its instant.
#[derive(Clone, Debug, PartialEq)]
pub struct Beat {
    /// Virtual time it is about.
    pub at: Millis,
    /// Whether the line itself names that time (else it was placed between its neighbours).
    pub timed: bool,
    /// The line as written.
    pub text: String,
}

/// The lines of `watch` with their instants; `end` is where the scenario's script ends.
pub fn beats(watch: &[String], end: Millis) -> Vec<Beat> {
    let named: Vec<Option<Millis>> = watch.iter().map(|w| leading_time(w)).collect();
    let mut beats = Vec::with_capacity(watch.len());
    let mut i = 0;
    let mut before: Millis = 0;
    while i < watch.len() {
        if let Some(at) = named[i] {
            beats.push(Beat {
                at,
                timed: true,
                text: watch[i].clone(),
            });
            before = at;
            i += 1;
            continue;
        }
        // A run of untimed lines, spread between `before` and the next timed line (or the end).
        let run = named[i..].iter().take_while(|t| t.is_none()).count();
        let after = named
            .get(i + run)
            .copied()
            .flatten()
            .unwrap_or(end)
            .max(before);
        let gap = (after - before) / (run as Millis + 1);
        // The first of a run that opens the story starts at 0 (the story begins at once).
        let first_at_start = beats.is_empty();
        for k in 0..run {
            let at = if first_at_start {
                before + (after - before) * k as Millis / run as Millis
            } else {
                before + gap * (k as Millis + 1)
            };
            beats.push(Beat {
                at,
                timed: false,
                text: watch[i + k].clone(),
            });
        }
        i += run;
    }
    beats
}

/// The lines whose time has come at `now`: those of the latest instant not after it (several
/// lines can be about one instant). `None` before the first line's time.
pub fn current(beats: &[Beat], now: Millis) -> Option<std::ops::Range<usize>> {
    let last = beats.iter().rposition(|b| b.at <= now)?;
    let at = beats[last].at;
    let first = beats[..=last]
        .iter()
        .rposition(|b| b.at != at)
        .map_or(0, |i| i + 1);
    Some(first..last + 1)
}

/// `12:01:30` at the start of a line (optionally followed by `:`), as virtual milliseconds.
fn leading_time(line: &str) -> Option<Millis> {
    let clock = line.get(..8)?;
    let parts: Vec<&str> = clock.split(':').collect();
    let [h, m, s] = parts.as_slice() else {
        return None;
    };
    if ![h, m, s].iter().all(|p| p.len() == 2) {
        return None;
    }
    let (h, m, s): (u64, u64, u64) = (h.parse().ok()?, m.parse().ok()?, s.parse().ok()?);
    if !(12..24).contains(&h) || m > 59 || s > 59 {
        return None;
    }
    Some(((h - 12) * 3600 + m * 60 + s) * 1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn timed_lines_keep_their_clock_time() {
        let b = beats(
            &lines(&["12:00:10: one", "12:01:00: two; 12:01:20: later"]),
            120_000,
        );
        assert_eq!(
            b.iter().map(|b| (b.at, b.timed)).collect::<Vec<_>>(),
            [(10_000, true), (60_000, true)]
        );
    }

    #[test]
    fn untimed_lines_are_spread_between_their_neighbours() {
        let b = beats(&lines(&["12:00:10: a", "b", "12:00:20: c", "d"]), 40_000);
        let at: Vec<Millis> = b.iter().map(|b| b.at).collect();
        assert_eq!(at, [10_000, 15_000, 20_000, 30_000]);
        assert!(!b[1].timed && !b[3].timed);
        // A story with no times starts at once and shares out the scenario.
        let b = beats(&lines(&["a", "b", "c"]), 60_000);
        assert_eq!(
            b.iter().map(|b| b.at).collect::<Vec<_>>(),
            [0, 20_000, 40_000]
        );
    }

    #[test]
    fn the_current_lines_are_those_of_the_latest_instant_come() {
        let b = beats(
            &lines(&["12:00:10: a", "12:00:30: b", "12:00:30: c", "12:00:50: d"]),
            60_000,
        );
        assert_eq!(current(&b, 5_000), None);
        assert_eq!(current(&b, 10_000), Some(0..1));
        assert_eq!(current(&b, 45_000), Some(1..3));
        assert_eq!(current(&b, 99_000), Some(3..4));
    }

    #[test]
    fn only_a_clock_time_counts() {
        assert_eq!(leading_time("12:00:30: x"), Some(30_000));
        assert_eq!(leading_time("13:02:03 x"), Some(3_723_000));
        assert_eq!(leading_time("By 12:00:40 x"), None);
        assert_eq!(leading_time("order-2 fails"), None);
        assert_eq!(leading_time("99:00:00"), None);
    }
}
