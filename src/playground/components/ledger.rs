//! The side-effect ledger: what the workers did in the outside world (charged a card, sent an
//! email), which of it happened twice, and which repeats the idempotency check stopped.

use crate::playground::format::wall_clock;
use sqs_sim::Effect;
use std::rc::Rc;
use yew::prelude::*;

/// Effects drawn (the latest).
pub const SHOWN: usize = 40;

/// Properties of [`Ledger`].
#[derive(Properties, PartialEq)]
pub struct LedgerProps {
    /// The ledger's latest [`SHOWN`] effects, oldest first.
    pub effects: Rc<Vec<Effect>>,
}

/// See the module documentation.
#[component]
pub fn Ledger(props: &LedgerProps) -> Html {
    html! {
        <section class="panel ledger" aria-label="Side-effect ledger">
            <h2>{ "Side effects" }</h2>
            if props.effects.is_empty() {
                <p class="empty">{ "No side effect yet." }</p>
            }
            // Focusable: a list that scrolls must be reachable by keyboard.
            <ol class="log" tabindex="0">
                for e in props.effects.iter().rev() {
                    <li data-duplicate={e.duplicate.to_string()}>
                        <time>{ wall_clock(e.at) }</time>
                        <span class="who">{ &e.worker }</span>
                        <span>{ format!("{} (attempt {})", e.key(), e.attempt) }</span>
                        if e.prevented {
                            <span class="tag ok">{ "prevented" }</span>
                        } else if e.duplicate {
                            <span class="tag bad">{ "DUPLICATE" }</span>
                        }
                    </li>
                }
            </ol>
        </section>
    }
}
