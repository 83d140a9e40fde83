//! The playground's parts. Each draws what it is given and reports what the user does through
//! the root's [`crate::playground::Action`] callback; none holds an SQS rule.

pub mod chart;
pub mod controls;
pub mod counters;
pub mod counts;
pub mod dlq;
pub mod event_log;
pub mod history;
pub mod icons;
pub mod ledger;
pub mod message;
pub mod queue;
pub mod scenario_picker;
pub mod send_form;
pub mod settings;
pub mod worker_lane;
pub mod worker_policy;

use crate::playground::Action;
use yew::{html, AttrValue, Callback, Html, MouseEvent};

/// A click that sends `action`. One closure type for every such button: each closure written
/// out at a call site is its own code in the bundle.
pub fn on_click(dispatch: &Callback<Action>, action: Action) -> Callback<MouseEvent> {
    let dispatch = dispatch.clone();
    Callback::from(move |_: MouseEvent| dispatch.emit(action.clone()))
}

/// Markup with nothing live in it (no value, no handler), as one string the browser parses: the
/// bundle then holds its text, not code that builds it node by node.
pub fn markup(html: &'static str) -> Html {
    Html::from_html_unchecked(AttrValue::Static(html))
}

/// A control's error, announced when it appears; nothing when there is none.
pub fn error(text: Option<&str>) -> Html {
    text.map_or_else(
        Html::default,
        |e| html! { <p class="error" role="alert">{ e }</p> },
    )
}
