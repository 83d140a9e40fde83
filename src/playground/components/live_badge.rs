//! The live view's badge in the top bar: which server the page follows, and whether it is
//! there; and the buttons that save what it recorded as a scenario file.

use super::icons::{icon, Icon};
use crate::live::Connection;
use crate::playground::Action;
use yew::prelude::*;

/// Properties of [`LiveBadge`].
#[derive(Properties, PartialEq)]
pub struct LiveBadgeProps {
    /// The server (`127.0.0.1:9324`).
    pub address: String,
    /// How the page stands with it.
    pub connection: Connection,
    /// Whether its clock is paused.
    pub paused: bool,
    /// Whether the page holds the run before the server started again.
    pub previous: bool,
    /// "Save as scenario": the current run, or the previous one.
    pub onaction: Callback<Action>,
}

/// See the module documentation.
#[component]
pub fn LiveBadge(props: &LiveBadgeProps) -> Html {
    let (key, words) = match props.connection {
        Connection::Connecting => ("connecting", format!("Connecting to {}…", props.address)),
        Connection::Open if props.paused => {
            ("open", format!("Live · {} · clock paused", props.address))
        }
        Connection::Open => ("open", format!("Live · {}", props.address)),
        Connection::Gone => (
            "gone",
            format!("Server gone · {} · reconnecting…", props.address),
        ),
    };
    let title = "This page follows sqs-sim serve: every call your application makes to it shows \
                 here as it arrives. The timeline rewinds what happened since the server's latest \
                 snapshot.";
    let save = |previous: bool| {
        props
            .onaction
            .reform(move |_: MouseEvent| Action::SaveRun(previous))
    };
    html! {
        <div class="live-bar">
            <p class="live-badge" data-connection={key} role="status" {title}>
                if props.connection == Connection::Gone {
                    { icon(Icon::Warning) }
                } else {
                    <span class="live-dot" aria-hidden="true"></span>
                }
                { words }
            </p>
            <button type="button" onclick={save(false)}
                title="A scenario file of the server's state where this page's copy starts and every call recorded since, at its virtual time: it opens in the ordinary playground (Import scenario file) and replays exactly.">
                { "Save as scenario" }
            </button>
            if props.previous {
                <button type="button" class="quiet" onclick={save(true)}>{ "Save previous run" }</button>
            }
        </div>
    }
}
