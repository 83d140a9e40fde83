//! The side-effect ledger: what the workers did in the outside world (charged a card, sent an
//! email), which of it happened twice, and which repeats the idempotency check stopped.

use super::markup;
use crate::playground::format::wall_clock;
use sqs_sim::Effect;
use yew::prelude::*;

/// Effects drawn (the latest).
pub const SHOWN: usize = 40;

/// See the module documentation; `effects` are the ledger's latest [`SHOWN`], oldest first. A function, not a component (a component's lifecycle code is
/// repeated per component in the bundle): the root keeps what it drew until the data changes.
pub fn ledger_panel(effects: &[Effect]) -> Html {
    html! {
        <section class="panel ledger" aria-label="Side-effect ledger">
            { markup(r#"<h2>Side effects</h2>"#) }
            if effects.is_empty() {
                { markup(r#"<p class="empty">No side effect yet.</p>"#) }
            }
            <ol class="log">
                { for effects.iter().rev().map(|e| {
                    let mark = if e.prevented {
                        markup(r#"<span class="tag ok">prevented</span>"#)
                    } else if e.duplicate {
                        markup(r#"<span class="tag bad">DUPLICATE</span>"#)
                    } else {
                        html! {}
                    };
                    html! {
                        <li data-duplicate={e.duplicate.to_string()}>
                            <time>{ wall_clock(e.at) }</time>
                            <span class="who">{ &e.worker }</span>
                            <span>{ format!("{} (attempt {})", e.key(), e.attempt) }</span>
                            { mark }
                        </li>
                    }
                }) }
            </ol>
        </section>
    }
}
