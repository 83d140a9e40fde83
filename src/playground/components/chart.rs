//! Queue depth by state over time, as inline SVG: one line per state, each with its own dash
//! pattern as well as its colour, and a legend.

use crate::playground::format::wall_clock;
use sqs_engine::Millis;
use sqs_sim::Sample;
use std::rc::Rc;
use yew::prelude::*;

/// The drawing's size in view-box units (it is stretched to the panel): fine enough for
/// whole-number coordinates, which keep the points' text short.
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

/// Properties of [`DepthChart`].
#[derive(Properties, PartialEq)]
pub struct DepthChartProps {
    /// The points ([`Depth::series`] of the World's samples).
    pub points: Rc<Vec<Depth>>,
}

/// See the module documentation.
#[component]
pub fn DepthChart(props: &DepthChartProps) -> Html {
    let points = &props.points;
    let (Some(first), Some(last)) = (points.first(), points.last()) else {
        return html! {
            <section class="panel chart" aria-label="Queue depth">
                <h2>{ "Queue depth" }</h2>
                <p class="empty">{ "No samples yet." }</p>
            </section>
        };
    };
    let t0 = first.at;
    let span = (last.at - t0).max(1) as f64;
    let highest = points
        .iter()
        .flat_map(|p| p.values)
        .max()
        .unwrap_or(0)
        .max(1);
    let now = SERIES
        .iter()
        .zip(last.values)
        .map(|((name, _), n)| format!("{n} {name}"))
        .collect::<Vec<_>>()
        .join(", ");
    let label = format!(
        "Queue depth from {} to {}; now {now}; highest {highest}",
        wall_clock(t0),
        wall_clock(last.at)
    );
    let line = |series: usize| {
        points
            .iter()
            .map(|p| {
                let x = (p.at - t0) as f64 / span * W;
                let y = H - p.values[series] as f64 / highest as f64 * (H - 60.0);
                format!("{x:.0},{y:.0}")
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    html! {
        <section class="panel chart" aria-label="Queue depth">
            <h2>{ "Queue depth" }</h2>
            <svg viewBox={format!("0 0 {W} {H}")} role="img" preserveAspectRatio="none" aria-label={label}>
                <line class="axis" x1="0" y1={H.to_string()} x2={W.to_string()} y2={H.to_string()} />
                for (series, (_, class)) in SERIES.iter().enumerate() {
                    <polyline class={*class} points={line(series)} />
                }
            </svg>
            <ul class="legend">
                for ((name, class), n) in SERIES.iter().zip(last.values) {
                    <li>
                        <svg viewBox="0 0 24 8" aria-hidden="true">
                            <line class={*class} x1="0" y1="4" x2="24" y2="4" />
                        </svg>
                        { format!("{name} {n}") }
                    </li>
                }
            </ul>
        </section>
    }
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
