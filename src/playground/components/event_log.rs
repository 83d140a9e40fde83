//! The event log: what happened, newest first, in plain words naming the SQS call behind each
//! step. A line about a message selects it (its history opens).

use crate::playground::format::wall_clock;
use crate::playground::journal::{Entry, Versioned};
use crate::playground::Action;
use std::rc::Rc;
use yew::prelude::*;

/// Lines drawn (the journal keeps more): a few screens of the panel's scroll, and few enough
/// that replacing them all at high speed stays cheap.
const SHOWN: usize = 40;

/// Properties of [`EventLog`].
#[derive(Properties, PartialEq)]
pub struct EventLogProps {
    /// The log, oldest first (compared by revision: it can be long).
    pub log: Versioned<Vec<Entry>>,
    /// Names the user gave (live mode): (a client's own name, the name shown for it).
    #[prop_or_default]
    pub names: Rc<Vec<(String, String)>>,
    /// A click on a line about a message selects it.
    pub onaction: Callback<Action>,
}

/// See the module documentation.
#[component]
pub fn EventLog(props: &EventLogProps) -> Html {
    let log = &props.log.data;
    html! {
        <section class="panel event-log" aria-label="Event log">
            <h2>{ "Event log" }</h2>
            if log.is_empty() {
                <p class="empty">{ "Nothing has happened yet." }</p>
            }
            <ol class="log" reversed=true tabindex="0">
                for entry in log.iter().rev().take(SHOWN) {
                    <Line key={entry.seq} entry={renamed(entry, &props.names)} onaction={props.onaction.clone()} />
                }
            </ol>
        </section>
    }
}

/// The line with its actor's name as the user renamed it: the World's sentences about an
/// actor begin with its name.
fn renamed(entry: &Entry, names: &[(String, String)]) -> Entry {
    let mut entry = entry.clone();
    if let Some((own, shown)) = names.iter().find(|(own, _)| *own == entry.actor) {
        if let Some(rest) = entry.text.strip_prefix(own.as_str()) {
            entry.text = format!("{shown}{rest}");
        }
        entry.actor = shown.clone();
    }
    entry
}

/// Properties of [`Line`].
#[derive(Properties, PartialEq)]
struct LineProps {
    entry: Entry,
    onaction: Callback<Action>,
}

/// One line: its time, the SQS action behind it, and the World's words (a button when it is
/// about a message).
#[component]
fn Line(props: &LineProps) -> Html {
    let e = &props.entry;
    let text = match &e.message_id {
        Some(id) => {
            let id = id.clone();
            let onclick = props
                .onaction
                .reform(move |_: MouseEvent| Action::Select(Some(id.clone())));
            html! { <button class="link" {onclick}>{ &e.text }</button> }
        }
        None => html! { <span>{ &e.text }</span> },
    };
    html! {
        <li data-actor={e.actor.clone()}>
            <time>{ wall_clock(e.at) }</time>
            if let Some(action) = &e.action {
                <code class="api">{ action }</code>
            }
            { text }
        </li>
    }
}
