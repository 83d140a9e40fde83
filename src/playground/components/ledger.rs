//! The side-effect ledger: what the workers did in the outside world (charged a card, sent an
//! email), which of it happened twice, and which repeats the idempotency check stopped.

use super::{markup_built, Escaped};
use crate::playground::format::wall_clock;
use sqs_sim::Effect;
use std::fmt::Write;
use yew::Html;

/// Effects drawn (the latest).
pub const SHOWN: usize = 40;

/// See the module documentation; `effects` are the ledger's latest [`SHOWN`], oldest first. A
/// function, not a component (a component's lifecycle code is repeated per component in the
/// bundle): the root keeps what it drew until the data changes. Written as markup
/// ([`markup_built`]): lines of text only.
pub fn ledger_panel(effects: &[Effect]) -> Html {
    let mut html = String::from(
        r#"<section class="panel ledger" aria-label="Side-effect ledger"><h2>Side effects</h2>"#,
    );
    if effects.is_empty() {
        html.push_str(r#"<p class="empty">No side effect yet.</p>"#);
    }
    html.push_str(r#"<ol class="log">"#);
    for e in effects.iter().rev() {
        let mark = if e.prevented {
            r#"<span class="tag ok">prevented</span>"#
        } else if e.duplicate {
            r#"<span class="tag bad">DUPLICATE</span>"#
        } else {
            ""
        };
        let _ = write!(
            html,
            r#"<li data-duplicate="{}"><time>{}</time><span class="who">{}</span><span>{} (attempt {})</span>{mark}</li>"#,
            e.duplicate,
            wall_clock(e.at),
            Escaped(&e.worker),
            Escaped(&e.key()),
            e.attempt
        );
    }
    html.push_str("</ol></section>");
    markup_built(html)
}
