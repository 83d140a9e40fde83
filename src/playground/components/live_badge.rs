//! The live view's badge in the top bar: which server the page follows, whether it is there,
//! and the region the stage shows when it is not the server's own; and the buttons that save
//! what it recorded as a scenario file.

use super::icons::{icon, Icon};
use crate::live::Connection;
use crate::playground::Action;
use sqs_engine::Namespace;
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
    /// The server's own account and region.
    pub home: Namespace,
    /// The account and region of the queues on the stage, when they are not the server's own
    /// (its clients signed for another region).
    pub elsewhere: Option<Namespace>,
    /// Whether the page holds the run before the server started again.
    pub previous: bool,
    /// "Save as scenario": the current run, or the previous one.
    pub onaction: Callback<Action>,
}

/// See the module documentation.
#[component]
pub fn LiveBadge(props: &LiveBadgeProps) -> Html {
    let (key, mut words) = match props.connection {
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
    let mut title = "This page follows sqs-sim serve: every call your application makes to it \
                     shows here as it arrives. The timeline rewinds what happened since the \
                     server's latest snapshot."
        .to_string();
    if let Some(shown) = &props.elsewhere {
        let place = if shown.account == props.home.account {
            shown.region.to_string()
        } else {
            format!("{}, account {}", shown.region, shown.account)
        };
        title += &format!(
            " The stage shows the queues of {place}, where your clients call: the server's own \
             region is {}.",
            props.home.region
        );
        words += &format!(" · queues in {place}");
    }
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
