//! The clock and its controls: virtual time as a wall clock and as elapsed seconds, Play,
//! Pause, Step, Speed (1× to 1000×) and the timeline to scrub back (rewind by replay).

use super::error;
use super::icons::{icon, Icon};
use crate::playground::format::{elapsed, wall_clock};
use crate::playground::session::SPEED_RANGE;
use crate::playground::story::Beat;
use sqs_engine::Millis;
use std::ops::Range;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Why Play and Step refuse while a question is open.
const HELD: &str = "A question is open: answer it (or Skip) to go on.";

/// Speeds offered as one-press buttons.
const PRESETS: [f64; 4] = [1.0, 10.0, 100.0, 1000.0];

/// Properties of [`Controls`].
#[derive(Properties, PartialEq)]
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
    /// A question waits for its answer: Play and Step refuse (and say why when pressed).
    #[prop_or_default]
    pub held: bool,
    /// The story's lines, each marked on the timeline at its instant.
    #[prop_or_default]
    pub beats: Rc<Vec<Beat>>,
    /// The lines whose time has come.
    #[prop_or_default]
    pub current: Option<Range<usize>>,
    /// Play, Pause (also when the timeline's thumb is grabbed), Step, a speed typed or pressed,
    /// a moment chosen on the timeline.
    pub onclock: Callback<Clock>,
}

/// What the clock's controls ask for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Clock {
    /// Start the clock.
    Play,
    /// Stop it.
    Pause,
    /// Jump to the next event.
    Step,
    /// Set the speed.
    Speed(f64),
    /// Move to a virtual instant (rewind by replay).
    Seek(Millis),
}

/// The number an input event's field holds, if it holds one.
fn number(e: &Event) -> Option<f64> {
    let value = e
        .target_unchecked_into::<HtmlInputElement>()
        .value_as_number();
    value.is_finite().then_some(value)
}

/// See the module documentation.
#[component]
pub fn Controls(props: &ControlsProps) -> Html {
    let onspeed = {
        let onclock = props.onclock.clone();
        Callback::from(move |e: Event| {
            if let Some(speed) = number(&e) {
                onclock.emit(Clock::Speed(speed));
            }
        })
    };
    let onseek = {
        let onclock = props.onclock.clone();
        Callback::from(move |e: Event| {
            if let Some(t) = number(&e).filter(|t| *t >= 0.0) {
                onclock.emit(Clock::Seek(t as Millis));
            }
        })
    };
    // Scrubbing while the clock runs would fight the thumb: grabbing it pauses.
    let ongrab = props.onclock.reform(|_: InputEvent| Clock::Pause);
    let (wall, elapsed) = (wall_clock(props.now), elapsed(props.now));
    // (press, shape, name, pressed, held back by a question).
    let transport = [
        (Clock::Play, Icon::Play, "Play", props.playing, props.held),
        (Clock::Pause, Icon::Pause, "Pause", !props.playing, false),
    ];
    let held = props.held.then_some("true");
    let held_title = props.held.then_some(HELD);
    html! {
        <div class="controls" role="group" aria-label="Time">
            <div class="clock" role="timer" aria-label={format!("Virtual time {wall}, {elapsed} elapsed")}>
                <span class="clock-wall">{ &wall }</span>
                <span class="clock-elapsed">{ format!("+{elapsed}") }</span>
            </div>
            <div class="transport">
                for (press, shape, label, on, held) in transport {
                    <button class={classes!("transport-button", on.then_some("active"))}
                        aria-pressed={on.to_string()} onclick={props.onclock.reform(move |_| press)}
                        aria-disabled={held.then_some("true")} title={held.then_some(HELD)}>
                        { icon(shape) }{ label }
                    </button>
                }
                <button class="transport-button" onclick={props.onclock.reform(|_| Clock::Step)} aria-disabled={held}
                    title={held_title.unwrap_or("Pause and jump to the next moment something happens")}>
                    { icon(Icon::Step) }{ "Step" }
                </button>
            </div>
            <div class="speed">
                <label for="speed">{ "Speed" }</label>
                <input id="speed" type="number" min={SPEED_RANGE.0.to_string()} max={SPEED_RANGE.1.to_string()}
                    value={props.speed.to_string()} onchange={onspeed} />
                <span aria-hidden="true">{ "×" }</span>
                for preset in PRESETS {
                    <button class={classes!("preset", (props.speed == preset).then_some("active"))}
                        aria-pressed={(props.speed == preset).to_string()}
                        onclick={props.onclock.reform(move |_| Clock::Speed(preset))}>
                        { format!("{preset}×") }
                    </button>
                }
            </div>
            <div class="timeline">
                <label for="timeline">{ "Timeline" }</label>
                <div class="timeline-track">
                    <input id="timeline" type="range" min="0" max={props.horizon.max(1).to_string()} step="100"
                        value={props.now.to_string()} onchange={onseek} oninput={ongrab}
                        aria-valuetext={wall} />
                    <BeatMarks beats={props.beats.clone()} current={props.current.clone()}
                        horizon={props.horizon} onclock={props.onclock.clone()} />
                </div>
            </div>
            { error(props.error.as_deref()) }
        </div>
    }
}

/// Properties of [`BeatMarks`].
#[derive(Properties, PartialEq)]
struct MarksProps {
    beats: Rc<Vec<Beat>>,
    current: Option<Range<usize>>,
    horizon: Millis,
    onclock: Callback<Clock>,
}

/// Markers closer than this many pixels along the timeline are one marker: each is a 24 px
/// target, and WCAG 2.2's target size asks that no other target lie within 24 px of its centre.
const MARK_APART_PX: f64 = 26.0;
/// The same as a fraction of the timeline until its width is known (the first drawing).
const MARK_APART: f64 = 0.04;

/// A marker per story line along the timeline (lines close together share one); pressing one
/// moves the clock there. Which lines share a marker depends on the timeline's width in pixels,
/// measured after each drawing and when the window is resized.
#[component]
fn BeatMarks(props: &MarksProps) -> Html {
    let track = use_node_ref();
    let width = use_state(|| 0.0_f64);
    {
        // After every drawing: a new width (the top bar's row reflows) is drawn again.
        let (track, width) = (track.clone(), width.clone());
        use_effect(move || {
            if let Some(el) = track.cast::<web_sys::Element>() {
                let now = f64::from(el.client_width());
                if (now - *width).abs() >= 1.0 {
                    width.set(now);
                }
            }
        });
    }
    {
        // A resize while the clock stands still draws nothing else: measure then too.
        let (track, width) = (track.clone(), width.setter());
        use_effect_with((), move |_| {
            let listener = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
                if let Some(el) = track.cast::<web_sys::Element>() {
                    width.set(f64::from(el.client_width()));
                }
            });
            crate::share::browser::listen("resize", listener)
        });
    }
    let apart = match *width {
        w if w > 0.0 => MARK_APART_PX / w,
        _ => MARK_APART,
    };
    let horizon = props.horizon.max(1) as f64;
    let now = |i: usize| props.current.as_ref().is_some_and(|r| r.contains(&i));
    // (first line, last line, where), the lines of a marker in order.
    let mut marks: Vec<(usize, usize, f64)> = Vec::new();
    for (i, b) in props.beats.iter().enumerate() {
        let at = (b.at as f64 / horizon).min(1.0);
        match marks.last_mut() {
            Some((_, last, x)) if at - *x < apart => *last = i,
            _ => marks.push((i, i, at)),
        }
    }
    html! {
        <div class="beat-marks" ref={track}>
            for (first, last, x) in marks {
                <button class={classes!("beat-mark", (first..=last).any(now).then_some("now"))}
                    style={format!("left: {:.2}%", x * 100.0)}
                    aria-label={mark_name(first, last, props.beats[first].at)}
                    title={props.beats[first..=last].iter().map(|b| b.text.as_str()).collect::<Vec<_>>().join("\n")}
                    onclick={props.onclock.reform({ let at = props.beats[first].at; move |_| Clock::Seek(at) })}>
                </button>
            }
        </div>
    }
}

/// `Go to story line 2 at 12:00:32`, or `Go to story lines 2–3 at 12:01:00`.
fn mark_name(first: usize, last: usize, at: Millis) -> String {
    let lines = match first == last {
        true => format!("line {}", first + 1),
        false => format!("lines {}–{}", first + 1, last + 1),
    };
    format!("Go to story {lines} at {}", wall_clock(at))
}
