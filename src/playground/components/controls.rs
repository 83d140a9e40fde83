//! The clock and its controls: virtual time as a wall clock and as elapsed seconds, Play,
//! Pause, Step, Speed (1× to 1000×) and the timeline to scrub back (rewind by replay).

use super::el::{el, labelled, Attr};
use super::icons::{icon, Icon};
use super::{class, error, markup, markup_built, on_click};
use crate::playground::format::{decimal, elapsed, wall_clock};
use crate::playground::session::SPEED_RANGE;
use crate::playground::Action;
use sqs_engine::Millis;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Speeds offered as one-press buttons.
const PRESETS: [f64; 4] = [1.0, 10.0, 100.0, 1000.0];

/// What [`controls`] draws.
pub struct ControlsProps {
    /// Virtual now.
    pub now: Millis,
    /// The timeline's end.
    pub horizon: Millis,
    /// Whether the clock runs.
    pub playing: bool,
    /// The speed.
    pub speed: f64,
    /// A word from the clock (e.g. nothing to step to).
    pub error: Option<String>,
    /// The root's action callback.
    pub dispatch: Callback<Action>,
}

/// See the module documentation. A function, not a component: it changes with the clock, so
/// the root redraws it with every frame anyway.
pub fn controls(props: &ControlsProps) -> Html {
    let send = |action| on_click(&props.dispatch, action);
    let on_speed = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let value = e
                .target_unchecked_into::<HtmlInputElement>()
                .value_as_number();
            if value.is_finite() {
                dispatch.emit(Action::Speed(value));
            }
        })
    };
    let on_seek = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let value = e
                .target_unchecked_into::<HtmlInputElement>()
                .value_as_number();
            if value.is_finite() && value >= 0.0 {
                dispatch.emit(Action::Seek(value as Millis));
            }
        })
    };
    // Scrubbing while the clock runs would fight the thumb: grabbing it pauses.
    let pause = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: InputEvent| dispatch.emit(Action::Pause))
    };
    let speed_text = decimal(props.speed);
    // The clock is written as markup ([`markup_built`]): text only.
    let (wall, elapsed) = (wall_clock(props.now), elapsed(props.now));
    let clock = format!(
        r#"<div class="clock" role="timer" aria-label="Virtual time {wall}, {elapsed} elapsed"><span class="clock-wall">{wall}</span><span class="clock-elapsed">+{elapsed}</span></div>"#
    );
    // Play and Pause: one button drawn twice (each written out is its own code).
    let play_pause = [
        (Action::Play, Icon::Play, "Play", props.playing),
        (Action::Pause, Icon::Pause, "Pause", !props.playing),
    ]
    .into_iter()
    .map(|(action, shape, label, on)| {
        el("button")
            .class(class("transport-button", &[(on, "active")]))
            .attr(Attr::AriaPressed, on.to_string())
            .on_click(send(action))
            .child(icon(shape))
            .text(label)
    });
    let presets = PRESETS.iter().map(|&p| {
        el("button")
            .class(class("preset", &[(props.speed == p, "active")]))
            .attr(Attr::AriaPressed, (props.speed == p).to_string())
            .on_click(send(Action::Speed(p)))
            .text(format!("{}×", p as u32))
    });
    el("div")
        .class("controls")
        .attr(Attr::Role, "group")
        .attr(Attr::AriaLabel, "Time")
        .child(markup_built(clock))
        .child(
            el("div").class("transport").children(play_pause).child(
                el("button")
                    .class("transport-button")
                    .on_click(send(Action::Step))
                    .attr(
                        Attr::Title,
                        "Pause and jump to the next moment something happens",
                    )
                    .child(icon(Icon::Step))
                    .text("Step"),
            ),
        )
        .child(
            labelled(
                "speed",
                "speed",
                "Speed",
                el("input")
                    .attr(Attr::Type, "number")
                    .attr(Attr::Min, (SPEED_RANGE.0 as u32).to_string())
                    .attr(Attr::Max, (SPEED_RANGE.1 as u32).to_string())
                    .value(speed_text)
                    .on_change(on_speed),
            )
            .child(markup(r#"<span aria-hidden="true">×</span>"#))
            .children(presets),
        )
        .child(labelled(
            "timeline",
            "timeline",
            "Timeline",
            el("input")
                .attr(Attr::Type, "range")
                .attr(Attr::Min, "0")
                .attr(Attr::Max, props.horizon.max(1).to_string())
                .attr(Attr::Step, "100")
                .value(props.now.to_string())
                .on_change(on_seek)
                .on_input(pause)
                .attr(Attr::AriaValuetext, wall_clock(props.now)),
        ))
        .child(error(props.error.as_deref()))
        .into()
}
