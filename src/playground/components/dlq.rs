//! The dead-letter queue as its own place: where a message goes after more receives than the
//! RedrivePolicy's maxReceiveCount allows.

use super::counts::count_tiles;
use super::el::{el, Attr};
use super::message::card_list;
use super::{markup, markup_built, Escaped};
use crate::playground::format::plural;
use crate::playground::stage::Place;
use crate::playground::Action;
use yew::prelude::*;

/// Properties of [`dead_letter_panel`].
pub struct DlqProps {
    /// The dead-letter queue's name, if the queue has one.
    pub name: Option<String>,
    /// Its messages.
    pub place: Place,
    /// The selected message, if any.
    pub selected: Option<String>,
    /// The root's action callback.
    pub dispatch: Callback<Action>,
}

/// See the module documentation. A function, not a component: a component's lifecycle code is
/// repeated per component in the bundle (~1 KB), and this one is cheap to draw every frame.
pub fn dead_letter_panel(props: &DlqProps) -> Html {
    let body = match &props.name {
        None => markup(
            r#"<p class="empty">This queue has no RedrivePolicy, so no dead-letter queue: a failing message comes back forever.</p>"#,
        ),
        Some(_) if props.place.aggregated() => {
            count_tiles(&props.place.counts, "Dead-lettered messages")
        }
        Some(_) if props.place.cards.is_empty() => markup(r#"<p class="empty">Empty.</p>"#),
        Some(_) => card_list(
            "Dead-lettered messages".into(),
            &props.place.cards,
            &[],
            props.selected.as_deref(),
            false,
            &props.dispatch,
        ),
    };
    // The header is written as markup ([`markup_built`]): text only.
    let name = props
        .name
        .as_ref()
        .map(|n| format!(" <code>{}</code>", Escaped(n)))
        .unwrap_or_default();
    let head = format!(
        r#"<header class="panel-head"><h2><abbr title="A queue that receives messages which were received more than maxReceiveCount times without being deleted.">Dead-letter queue</abbr>{name}</h2><p class="panel-sub">{}</p></header>"#,
        plural(props.place.total, "message")
    );
    el("section")
        .class("panel dlq")
        .attr(Attr::AriaLabel, "Dead-letter queue")
        .child(markup_built(head))
        .child(body)
        .into()
}
