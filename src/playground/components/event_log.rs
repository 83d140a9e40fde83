//! The event log: what happened, newest first, in plain words naming the SQS call behind each
//! step. A line about a message selects it (its history opens).

use super::el::{el, Attr};
use super::{markup, markup_built, on_click, Escaped};
use crate::playground::format::wall_clock;
use crate::playground::journal::Entry;
use crate::playground::Action;
use std::fmt::Write;
use yew::prelude::*;

/// Lines drawn (the journal keeps more): a few screens of the panel's scroll, and few enough
/// that replacing them all at high speed stays cheap.
const SHOWN: usize = 40;

/// See the module documentation. A function, not a component (a component's lifecycle code is
/// repeated per component in the bundle): the root keeps what it drew until the data changes.
pub fn event_log(log: &[Entry], dispatch: &Callback<Action>) -> Html {
    let lines = log.iter().rev().take(SHOWN).map(|e| line(e, dispatch));
    el("section")
        .class("panel event-log")
        .attr(Attr::AriaLabel, "Event log")
        .child(markup(r#"<h2>Event log</h2>"#))
        .children(
            log.is_empty()
                .then(|| markup(r#"<p class="empty">Nothing has happened yet.</p>"#)),
        )
        .child(
            el("ol")
                .class("log")
                .flag(Attr::Reversed, true)
                .children(lines),
        )
        .into()
}

fn line(entry: &Entry, dispatch: &Callback<Action>) -> Html {
    let select = entry
        .message_id
        .clone()
        .map(|id| on_click(dispatch, Action::Select(Some(id))));
    let text = match select {
        Some(onclick) => el("button").class("link").on_click(onclick),
        None => el("span"),
    }
    .text(entry.text.clone());
    // The time and the SQS action are written as markup ([`markup_built`]): text only.
    let mut stamp = format!("<time>{}</time>", wall_clock(entry.at));
    if let Some(action) = &entry.action {
        let _ = write!(stamp, r#"<code class="api">{}</code>"#, Escaped(action));
    }
    el("li")
        .key(entry.seq)
        .attr(Attr::DataActor, entry.actor.clone())
        .child(markup_built(stamp))
        .child(text)
        .into()
}
