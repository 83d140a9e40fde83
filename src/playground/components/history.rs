//! One message's whole life as a timeline across actors: a row per actor (SQS, each worker, the
//! producer, you) with a mark at each event, and the events in words below.

use super::el::{el, Attr};
use super::{markup_built, on_click, Escaped};
use crate::playground::format::{duration, fixed, wall_clock};
use crate::playground::journal::Entry;
use crate::playground::Action;
use std::fmt::Write;
use yew::prelude::*;

/// Properties of [`history`].
pub struct HistoryProps {
    /// The message's body (or id, once it is gone).
    pub title: String,
    /// Its events, oldest first.
    pub entries: Vec<Entry>,
    /// The root's action callback.
    pub dispatch: Callback<Action>,
}

/// See the module documentation. A function, not a component: a component's lifecycle code is
/// repeated per component in the bundle (~1 KB), and this one is cheap to draw every frame.
pub fn history(props: &HistoryProps) -> Html {
    let close = on_click(&props.dispatch, Action::Select(None));
    let first = props.entries.first().map_or(0, |e| e.at);
    let last = props.entries.last().map_or(0, |e| e.at);
    let span = (last - first).max(1);
    let mut actors: Vec<&str> = Vec::new();
    for e in &props.entries {
        if !actors.contains(&e.actor.as_str()) {
            actors.push(&e.actor);
        }
    }
    // Everything but the header is written as markup ([`markup_built`]): text and marks only.
    let mut html = format!(
        r#"<p class="panel-sub">{} events over {}</p><div class="swimlanes" aria-hidden="true">"#,
        props.entries.len(),
        duration(last - first)
    );
    for actor in &actors {
        let _ = write!(
            html,
            r#"<div class="swimlane"><span class="swimlane-name">{}</span><span class="swimlane-track">"#,
            Escaped(actor)
        );
        for e in props.entries.iter().filter(|e| e.actor == *actor) {
            let left = fixed((e.at - first) as f64 * 100.0 / span as f64, 1);
            let _ = write!(
                html,
                r#"<span class="mark" style="left: {left}%" title="{}"></span>"#,
                Escaped(&e.text)
            );
        }
        html.push_str("</span></div>");
    }
    html.push_str(r#"</div><ol class="log">"#);
    for e in &props.entries {
        let _ = write!(
            html,
            r#"<li><time>{}</time><span class="who">{}</span><span>{}</span></li>"#,
            wall_clock(e.at),
            Escaped(&e.actor),
            Escaped(&e.text)
        );
    }
    html.push_str("</ol>");
    let title = format!(
        r#"<h2>History of <code>{}</code></h2>"#,
        Escaped(&props.title)
    );
    el("section")
        .class("panel history")
        .attr(Attr::AriaLabel, "Message history")
        .child(
            el("header")
                .class("panel-head")
                .child(markup_built(title))
                .child(el("button").class("quiet").on_click(close).text("Close")),
        )
        .child(markup_built(html))
        .into()
}
