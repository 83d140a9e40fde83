//! The clock and its controls: virtual time as a wall clock and as elapsed seconds, Play,
//! Pause, Step, Speed (1× to 1000×) and the timeline to scrub back (rewind by replay).

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
    html! {
        <div class="controls" role="group" aria-label="Time">
            { markup_built(clock) }
            <div class="transport">
                // Play and Pause: one button drawn twice (each written out is its own code).
                { for [(Action::Play, Icon::Play, "Play", props.playing), (Action::Pause, Icon::Pause, "Pause", !props.playing)]
                    .into_iter()
                    .map(|(action, shape, label, on)| html! {
                        <button class={class("transport-button", &[(on, "active")])}
                            aria-pressed={on.to_string()} onclick={send(action)}>
                            { icon(shape) }{ label }
                        </button>
                    }) }
                <button class="transport-button" onclick={send(Action::Step)}
                    title="Pause and jump to the next moment something happens">
                    { icon(Icon::Step) }{ "Step" }
                </button>
            </div>
            <div class="speed">
                { markup(r#"<label for="speed">Speed</label>"#) }
                <input id="speed" type="number" min={(SPEED_RANGE.0 as u32).to_string()} max={(SPEED_RANGE.1 as u32).to_string()}
                    value={speed_text} onchange={on_speed} />
                { markup(r#"<span aria-hidden="true">×</span>"#) }
                { for PRESETS.iter().map(|&p| {
                    let onclick = send(Action::Speed(p));
                    html! {
                        <button class={class("preset", &[(props.speed == p, "active")])}
                            aria-pressed={(props.speed == p).to_string()} {onclick}>{ format!("{}×", p as u32) }</button>
                    }
                }) }
            </div>
            <div class="timeline">
                { markup(r#"<label for="timeline">Timeline</label>"#) }
                <input id="timeline" type="range" min="0" max={props.horizon.max(1).to_string()} step="100"
                    value={props.now.to_string()} onchange={on_seek} oninput={pause}
                    aria-valuetext={wall_clock(props.now)} />
            </div>
            { error(props.error.as_deref()) }
        </div>
    }
}
