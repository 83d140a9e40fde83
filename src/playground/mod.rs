//! The playground: a thin view over `sqs-sim`'s World. The root component keeps one
//! [`Session`](session::Session) (the World and the clock) in a reducer ([`state`]), draws the
//! [`Stage`](stage::Stage) built from it after every change ([`view`]), and hands every part one
//! `Callback<Action>`: what the user does comes back as an [`Action`], a World step (SQS calls
//! and simulation actions) or view state (selection, drag). No SQS rule lives in a component:
//! the engine and the World decide; errors they return are shown next to the control that
//! caused them.

pub mod action;
pub mod components;
pub mod drag;
pub mod effects;
pub mod flip;
pub mod format;
pub mod frame;
pub mod journal;
pub mod lesson;
pub mod link;
pub mod opening;
pub mod page;
pub mod scenarios;
pub mod session;
pub mod stage;
pub mod state;
pub mod story;
pub mod summaries;
pub mod view;

pub use action::Action;
pub use page::{apply_theme, relay};
pub use stage::max_receives;

use crate::share::bridge;
use components::counters::Counters;
use link::Link;
use state::State;
use view::{Adapters, View};
use yew::prelude::*;

/// Properties of [`Playground`].
#[derive(Properties)]
pub struct PlaygroundProps {
    /// Whether virtual time follows wall time (off in tests that step by hand).
    #[prop_or(true)]
    pub live: bool,
    /// What to open; `None` reads the page's address.
    #[prop_or_default]
    pub link: Option<Link>,
}

/// Only `live` counts: the link is read once, when the playground mounts (a new one would change
/// nothing), and comparing links would compare whole sessions.
impl PartialEq for PlaygroundProps {
    fn eq(&self, other: &Self) -> bool {
        self.live == other.live
    }
}

impl Default for PlaygroundProps {
    fn default() -> Self {
        PlaygroundProps {
            live: true,
            link: None,
        }
    }
}

/// The root component. See the module documentation.
#[component]
pub fn Playground(props: &PlaygroundProps) -> Html {
    let state = use_reducer({
        let link = props.link.clone();
        move || State::open(&link.unwrap_or_else(Link::of_page))
    });
    // Made once, so that the parts given it see equal properties from one frame to the next.
    let onaction = use_memo((), {
        let dispatcher = state.dispatcher();
        move |_| dispatcher.to_callback()
    });
    let onaction = &*onaction;
    let adapters = use_memo((), |_| Adapters::new(&state.session, onaction));
    let framed = *use_memo((), |_| bridge::framed());
    effects::use_clock(props.live, framed, state.session.clone(), onaction.clone());
    effects::use_scenario_file(state.src.clone(), onaction.clone());
    effects::use_picked_file(state.ui.picked.clone(), onaction.clone());
    // A `let`: Yew's #[component] does not see a hook call in a statement with an attribute.
    #[cfg(feature = "live")]
    let () = effects::use_live_server(state.live, state.session.clone(), onaction.clone());
    let container = use_node_ref();

    let s = state.session.borrow();
    let view = View::new(&state, &s, onaction, &adapters);
    effects::use_after_render(container.clone(), view.drawn(framed));
    // The pointer is followed on the whole playground, so a drop anywhere ends a drag. The
    // listeners are always there: a press and the moves after it may come in one task, before
    // the press is drawn.
    let onpointermove = onaction
        .reform(|e: PointerEvent| Action::PointerMove((e.client_x() as f64, e.client_y() as f64)));
    html! {
        <div class={view.classes()} ref={container} {onpointermove}
            onpointerup={onaction.reform(|_| Action::PointerUp)}
            onpointercancel={onaction.reform(|_| Action::PointerCancel)}>
            <div class="screen">
                { view.topbar() }
                { view.question_or_story() }
                { view.stage_main() }
                <Counters tally={view.tally()} />
            </div>
            { view.history() }
            { view.panels() }
            <div class="visually-hidden" role="status" aria-live="polite">
                { s.journal.announcement() }
            </div>
            { view.drag_ghost() }
        </div>
    }
}
