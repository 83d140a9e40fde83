//! Queue depth by state over time, as inline SVG: one line per state, each with its own dash
//! pattern as well as its colour, and a legend.

use super::{markup, markup_built};
use crate::playground::format::wall_clock;
use sqs_engine::Millis;
use sqs_sim::Sample;
use std::fmt::Write;
use yew::Html;

/// The drawing's size in view-box units: fine enough for whole-number coordinates (they print
/// much faster than decimals, and every point is printed again when a sample arrives). The
/// markup writes them out (`viewBox="0 0 4000 1200"`): no float is printed in the bundle.
const W: f64 = 4000.0;
const H: f64 = 1200.0;

/// The most points a line has: the chart is a few hundred pixels wide, and each point is text
/// the browser parses and draws again whenever a sample arrives.
pub const MAX_POINTS: usize = 120;

/// The series drawn: name and CSS class (colour and dash); their values are [`Depth::values`].
const SERIES: [(&str, &str); 4] = [
    ("visible", "s-visible"),
    ("in flight", "s-inflight"),
    ("delayed", "s-delayed"),
    ("dead-letter", "s-dead"),
];

/// One point of the chart: a sample's time and its depth per series.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Depth {
    /// When.
    pub at: Millis,
    /// Visible, in flight, delayed, dead-letter.
    pub values: [u64; 4],
}

impl Depth {
    /// The points to draw from the World's samples: at most [`MAX_POINTS`] evenly spaced from
    /// the first sample, and the latest.
    pub fn series(samples: &[Sample]) -> Vec<Depth> {
        let stride = samples.len().div_ceil(MAX_POINTS).max(1);
        let last = samples.len().saturating_sub(1);
        samples
            .iter()
            .enumerate()
            .filter(|(i, _)| i % stride == 0 || *i == last)
            .map(|(_, s)| Depth {
                at: s.at,
                values: [s.visible, s.in_flight, s.delayed, s.dead_letter],
            })
            .collect()
    }
}

/// See the module documentation; `samples` are the points ([`Depth::series`] of the World's
/// samples). A function, not a component (a component's lifecycle code is repeated per component
/// in the bundle): the root keeps what it drew until the points change. Written as markup
/// ([`markup_built`]): numbers and fixed names only, nothing to focus or type into.
pub fn depth_chart(samples: &[Depth]) -> Html {
    let (Some(first), Some(last)) = (samples.first(), samples.last()) else {
        return markup(
            r#"<section class="panel chart" aria-label="Queue depth"><h2>Queue depth</h2><p class="empty">No samples yet.</p></section>"#,
        );
    };
    let t0 = first.at;
    let span = (last.at - t0).max(1) as f64;
    let highest = samples
        .iter()
        .flat_map(|s| s.values)
        .max()
        .unwrap_or(0)
        .max(1);
    let top = highest as f64;
    let now = SERIES
        .iter()
        .zip(last.values)
        .map(|((name, _), n)| format!("{n} {name}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut html = String::with_capacity(samples.len() * 48 + 1024);
    let _ = write!(
        html,
        r#"<section class="panel chart" aria-label="Queue depth"><h2>Queue depth</h2><svg viewBox="0 0 4000 1200" role="img" preserveAspectRatio="none" aria-label="Queue depth from {} to {}; now {now}; highest {highest}"><line class="axis" x1="0" y1="1200" x2="4000" y2="1200"/>"#,
        wall_clock(t0),
        wall_clock(last.at)
    );
    for (series, (_, class)) in SERIES.iter().enumerate() {
        let _ = write!(html, r#"<polyline class="{class}" points=""#);
        for s in samples {
            let x = (s.at - t0) as f64 / span * W;
            let y = H - s.values[series] as f64 / top * (H - 60.0);
            let _ = write!(html, "{},{} ", x.round() as u32, y.round() as u32);
        }
        html.push_str(r#""/>"#);
    }
    html.push_str(r#"</svg><ul class="legend">"#);
    for ((name, class), n) in SERIES.iter().zip(last.values) {
        let _ = write!(
            html,
            r#"<li><svg viewBox="0 0 24 8" aria-hidden="true"><line class="{class}" x1="0" y1="4" x2="24" y2="4"/></svg>{name} {n}</li>"#
        );
    }
    html.push_str("</ul></section>");
    markup_built(html)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples(n: u64) -> Vec<Sample> {
        (0..n)
            .map(|i| Sample {
                at: i * 1000,
                visible: i,
                dead_letter: 2 * i,
                ..Sample::default()
            })
            .collect()
    }

    #[test]
    fn a_long_history_is_thinned_to_the_points_a_chart_can_show() {
        let few = Depth::series(&samples(10));
        assert_eq!(few.len(), 10);
        assert_eq!(few[3].values, [3, 0, 0, 6]);

        let many = Depth::series(&samples(720));
        assert!(many.len() <= MAX_POINTS + 1, "{}", many.len());
        assert!(many.len() >= MAX_POINTS / 2, "{}", many.len());
        assert_eq!(many[0].at, 0);
        // The latest sample is always drawn: the legend reads it.
        assert_eq!(many.last().map(|d| d.at), Some(719_000));
    }
}
