//! The playground's parts. Each draws what it is given and reports what the user does through
//! its callbacks; none holds an SQS rule.

pub mod chart;
pub mod controls;
pub mod counters;
pub mod counts;
pub mod dlq;
pub mod event_log;
pub mod history;
pub mod icons;
pub mod ledger;
pub mod lesson;
#[cfg(feature = "live")]
pub mod live_badge;
pub mod message;
pub mod queue;
pub mod queue_switch;
pub mod scenario_picker;
pub mod send_form;
pub mod settings;
pub mod tabs;
pub mod worker_lane;
pub mod worker_policy;

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// A control's error, announced when it appears; nothing when there is none.
pub fn error(text: Option<&str>) -> Html {
    html! {
        if let Some(text) = text {
            <p class="error" role="alert">{ text }</p>
        }
    }
}

/// The value of the input an event came from.
pub fn input_value(e: &Event) -> String {
    e.target_unchecked_into::<HtmlInputElement>().value()
}

/// Whether the checkbox an event came from is checked.
pub fn input_checked(e: &Event) -> bool {
    e.target_unchecked_into::<HtmlInputElement>().checked()
}

/// The value of the select an event came from.
pub fn select_value(e: &Event) -> String {
    e.target_unchecked_into::<HtmlSelectElement>().value()
}
