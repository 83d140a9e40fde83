//! One message's whole life as a timeline across actors: a row per actor (SQS, each worker, the
//! producer, you) with a mark at each event, and the events in words below.

use crate::playground::format::{duration, wall_clock};
use crate::playground::journal::Entry;
use crate::playground::Action;
use yew::prelude::*;

/// Properties of [`History`].
#[derive(Properties, PartialEq)]
pub struct HistoryProps {
    /// The message's body (or id, once it is gone).
    pub title: String,
    /// Its events, oldest first.
    pub entries: Vec<Entry>,
    /// The Close button (no message selected).
    pub onaction: Callback<Action>,
}

/// See the module documentation.
#[component]
pub fn History(props: &HistoryProps) -> Html {
    let entries = &props.entries;
    let first = entries.first().map_or(0, |e| e.at);
    let last = entries.last().map_or(0, |e| e.at);
    let span = (last - first).max(1);
    let mut actors: Vec<&str> = Vec::new();
    for e in entries {
        if !actors.contains(&e.actor.as_str()) {
            actors.push(&e.actor);
        }
    }
    let onclick = props.onaction.reform(|_: MouseEvent| Action::Select(None));
    html! {
        <section class="panel history" aria-label="Message history">
            <header class="panel-head">
                <h2>{ "History of " }<code>{ &props.title }</code></h2>
                <button class="quiet" {onclick}>{ "Close" }</button>
            </header>
            <p class="panel-sub">
                { format!("{} events over {}", entries.len(), duration(last - first)) }
            </p>
            <div class="swimlanes" aria-hidden="true">
                for actor in actors {
                    <div class="swimlane">
                        <span class="swimlane-name">{ actor }</span>
                        <span class="swimlane-track">
                            for e in entries.iter().filter(|e| e.actor == actor) {
                                <span class="mark"
                                    style={format!("left: {:.1}%", (e.at - first) as f64 * 100.0 / span as f64)}
                                    title={e.text.clone()}></span>
                            }
                        </span>
                    </div>
                }
            </div>
            <ol class="log">
                for e in entries {
                    <li>
                        <time>{ wall_clock(e.at) }</time>
                        <span class="who">{ &e.actor }</span>
                        <span>{ &e.text }</span>
                    </li>
                }
            </ol>
        </section>
    }
}
