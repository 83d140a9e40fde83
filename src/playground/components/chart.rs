//! Queue depth by state over time, as inline SVG: one line per state, each with its own dash
//! pattern as well as its colour, and a legend.

use crate::playground::format::wall_clock;
use sqs_engine::Millis;
use sqs_sim::Sample;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::Element;
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

/// Time-axis ticks: whole multiples of a step (seconds) from this list, the finest that puts at
/// most [`MAX_TICKS`] ticks on the span.
const TICK_STEPS: [Millis; 12] = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600];
const MAX_TICKS: u64 = 4;

/// The instants of the time axis's labels between `from` and `to` (virtual ms): multiples of one
/// step of `TICK_STEPS`, so they read 12:00:30, 12:01:00, ...
pub fn ticks(from: Millis, to: Millis) -> Vec<Millis> {
    let span = to.saturating_sub(from);
    let step = TICK_STEPS
        .iter()
        .map(|s| s * 1000)
        .find(|step| span / step < MAX_TICKS)
        .unwrap_or(3_600_000 * (span / 3_600_000 / MAX_TICKS + 1));
    let first = from.div_ceil(step) * step;
    (0..)
        .map(|i| first + i * step)
        .take_while(|t| *t <= to)
        .collect()
}

/// The point nearest to `at` (the points are in time order).
fn nearest(points: &[Depth], at: Millis) -> usize {
    let after = points.partition_point(|p| p.at < at);
    match (after.checked_sub(1), points.get(after)) {
        (Some(before), Some(next)) if at - points[before].at < next.at - at => before,
        (Some(before), None) => before,
        _ => after,
    }
}

/// "3 visible, 1 in flight, 0 delayed, 0 dead-letter".
fn values_text(values: [u64; 4]) -> String {
    SERIES
        .iter()
        .zip(values)
        .map(|((name, _), n)| format!("{n} {name}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Properties of [`DepthChart`].
#[derive(Properties, PartialEq)]
pub struct DepthChartProps {
    /// The points ([`Depth::series`] of the World's samples).
    pub points: Rc<Vec<Depth>>,
}

/// See the module documentation. Pointing at the plot reads the values at that time; the same
/// values are in a table under "Table of values" (rendered only while it is open: it would
/// otherwise be redrawn with every sample).
#[component]
pub fn DepthChart(props: &DepthChartProps) -> Html {
    let hover = use_state_eq(|| None::<Millis>);
    let table_open = use_state_eq(|| false);
    let plot = use_node_ref();
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
    let span = (last.at - t0).max(1);
    let x = |at: Millis| (at - t0) as f64 / span as f64;
    let highest = points
        .iter()
        .flat_map(|p| p.values)
        .max()
        .unwrap_or(0)
        .max(1);
    let label = format!(
        "Queue depth from {} to {}; now {}; highest {highest}",
        wall_clock(t0),
        wall_clock(last.at),
        values_text(last.values)
    );
    let line = |series: usize| {
        points
            .iter()
            .map(|p| {
                let y = H - p.values[series] as f64 / highest as f64 * (H - 60.0);
                format!("{:.0},{y:.0}", x(p.at) * W)
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let read = hover.map(|at| points[nearest(points, at)]);
    let onpointermove = {
        let (hover, plot) = (hover.clone(), plot.clone());
        move |e: PointerEvent| {
            let Some(plot) = plot.cast::<Element>() else {
                return;
            };
            let rect = plot.get_bounding_client_rect();
            let frac =
                ((e.client_x() as f64 - rect.left()) / rect.width().max(1.0)).clamp(0.0, 1.0);
            hover.set(Some(t0 + (frac * span as f64).round() as Millis));
        }
    };
    let onpointerleave = {
        let hover = hover.clone();
        move |_| hover.set(None)
    };
    let ontoggle = {
        let table_open = table_open.clone();
        move |e: Event| {
            let open = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok())
                .is_some_and(|d| d.open());
            table_open.set(open);
        }
    };
    html! {
        <section class="panel chart" aria-label="Queue depth">
            <h2>{ "Queue depth" }</h2>
            <p class="readout" aria-hidden="true">
                { match read {
                    Some(p) => format!("{}: {}", wall_clock(p.at), values_text(p.values)),
                    None => "Point at the chart to read its values.".to_string(),
                } }
            </p>
            <div class="plot" {onpointermove} {onpointerleave}>
                <span class="y-label top" aria-hidden="true">{ highest }</span>
                <span class="y-label bottom" aria-hidden="true">{ "0" }</span>
                <svg ref={plot} viewBox={format!("0 0 {W} {H}")} role="img" preserveAspectRatio="none" aria-label={label}>
                    <line class="axis" x1="0" y1={H.to_string()} x2={W.to_string()} y2={H.to_string()} />
                    for (series, (_, class)) in SERIES.iter().enumerate() {
                        <polyline class={*class} points={line(series)} />
                    }
                    if let Some(p) = read {
                        <line class="guide" x1={format!("{:.0}", x(p.at) * W)} y1="0"
                            x2={format!("{:.0}", x(p.at) * W)} y2={H.to_string()} />
                    }
                </svg>
                <div class="ticks" aria-hidden="true">
                    for at in ticks(t0, last.at) {
                        <span style={format!("left: {:.2}%", x(at) * 100.0)}>{ wall_clock(at) }</span>
                    }
                </div>
            </div>
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
            <details class="values" {ontoggle}>
                <summary>{ "Table of values" }</summary>
                if *table_open {
                    <table>
                        <caption>{ "Messages per state at each sample" }</caption>
                        <thead>
                            <tr>
                                <th scope="col">{ "Time" }</th>
                                for (name, _) in SERIES {
                                    <th scope="col">{ name }</th>
                                }
                            </tr>
                        </thead>
                        <tbody>
                            for p in points.iter() {
                                <tr>
                                    <th scope="row">{ wall_clock(p.at) }</th>
                                    for n in p.values {
                                        <td>{ n }</td>
                                    }
                                </tr>
                            }
                        </tbody>
                    </table>
                }
            </details>
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

    #[test]
    fn the_time_axis_is_labelled_at_round_instants() {
        assert_eq!(ticks(0, 40_000), vec![0, 15_000, 30_000]);
        assert_eq!(ticks(1_500, 4_200), vec![2_000, 3_000, 4_000]);
        assert_eq!(ticks(0, 190_000), vec![0, 60_000, 120_000, 180_000]);
        assert_eq!(ticks(0, 240_000), vec![0, 120_000, 240_000]);
        assert_eq!(ticks(0, 86_400_000).len(), 4);
        assert_eq!(ticks(5_000, 5_000), vec![5_000]);
        assert!(ticks(0, 7 * 86_400_000).len() as u64 <= MAX_TICKS);
    }

    #[test]
    fn pointing_reads_the_nearest_sample() {
        let points = Depth::series(&samples(10));
        assert_eq!(nearest(&points, 0), 0);
        assert_eq!(nearest(&points, 2_400), 2);
        assert_eq!(nearest(&points, 2_600), 3);
        assert_eq!(nearest(&points, 60_000), 9);
    }
}
