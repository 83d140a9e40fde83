//! Queue depth by state over time, as inline SVG: one line per state, each with its own dash
//! pattern as well as its colour, and a legend.

use crate::playground::format::wall_clock;
use crate::playground::journal::Versioned;
use sqs_sim::Sample;
use yew::prelude::*;

/// The drawing's size in view-box units.
const W: f64 = 400.0;
const H: f64 = 120.0;

/// A series: name, CSS class (colour and dash), value.
type Series = (&'static str, &'static str, fn(&Sample) -> u64);

/// The series drawn.
const SERIES: [Series; 4] = [
    ("visible", "s-visible", |s| s.visible),
    ("in flight", "s-inflight", |s| s.in_flight),
    ("delayed", "s-delayed", |s| s.delayed),
    ("dead-letter", "s-dead", |s| s.dead_letter),
];

/// Properties of [`DepthChart`].
#[derive(Properties, PartialEq)]
pub struct ChartProps {
    /// The World's depth samples.
    pub samples: Versioned<Vec<Sample>>,
}

/// See the module documentation.
#[component]
pub fn DepthChart(props: &ChartProps) -> Html {
    let samples = &props.samples.data;
    let (Some(first), Some(last)) = (samples.first(), samples.last()) else {
        return html! {
            <section class="panel chart" aria-label="Queue depth">
                <h2>{ "Queue depth" }</h2>
                <p class="empty">{ "No samples yet." }</p>
            </section>
        };
    };
    let t0 = first.at;
    let span = (last.at - t0).max(1) as f64;
    let top = samples
        .iter()
        .flat_map(|s| SERIES.iter().map(move |(_, _, f)| f(s)))
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let points = |value: fn(&Sample) -> u64| {
        samples
            .iter()
            .map(|s| {
                let x = (s.at - t0) as f64 / span * W;
                let y = H - value(s) as f64 / top * (H - 6.0);
                format!("{x:.1},{y:.1}")
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let now = SERIES
        .iter()
        .map(|(name, _, f)| format!("{} {name}", f(last)))
        .collect::<Vec<_>>()
        .join(", ");
    html! {
        <section class="panel chart" aria-label="Queue depth">
            <h2>{ "Queue depth" }</h2>
            <svg viewBox={format!("0 0 {W} {H}")} role="img" preserveAspectRatio="none"
                aria-label={format!("Queue depth from {} to {}; now {now}; highest {top}", wall_clock(t0), wall_clock(last.at))}>
                <line class="axis" x1="0" y1={H.to_string()} x2={W.to_string()} y2={H.to_string()} />
                { for SERIES.iter().map(|(_, class, f)| html! {
                    <polyline class={*class} points={points(*f)} />
                }) }
            </svg>
            <ul class="legend">
                { for SERIES.iter().map(|(name, class, f)| html! {
                    <li>
                        <svg viewBox="0 0 24 8" aria-hidden="true"><line class={*class} x1="0" y1="4" x2="24" y2="4" /></svg>
                        { format!("{name} {}", f(last)) }
                    </li>
                }) }
            </ul>
        </section>
    }
}
