//! Live counters: what the audience should count while a scenario runs.

use super::el::{el, Attr};
use super::markup;
use crate::playground::format::{dollars, group};
use yew::prelude::*;

/// The numbers shown (from the World's metrics and summary).
#[derive(Debug, Default)]
pub struct Tally {
    /// Successful receives.
    pub deliveries: u64,
    /// Receives of a message received before.
    pub redeliveries: u64,
    /// Side effects done twice.
    pub duplicates: u64,
    /// Repeats the idempotency ledger stopped.
    pub prevented: u64,
    /// Messages moved to the dead-letter queue.
    pub dead_lettered: u64,
    /// SQS requests made.
    pub api_calls: u64,
    /// Their price.
    pub cost_usd: f64,
    /// Requests by action, for the tooltip.
    pub by_action: String,
}

/// See the module documentation. A function, not a component: the counts change with nearly
/// every event, so comparing them first would save little.
pub fn counters(t: &Tally) -> Html {
    let tile = |label: Html, value: String, kind: &'static str| {
        el("div")
            .class("tile")
            .attr(Attr::DataKind, kind)
            .child(el("dt").child(label))
            .child(el("dd").text(value))
    };
    let calls = el("span")
        .attr(Attr::Title, t.by_action.clone())
        .text("API calls");
    let tiles = [
        tile(Html::from("Deliveries"), group(t.deliveries), "deliveries"),
        tile(
            markup(
                r#"<abbr title="Deliveries of a message that had been received before: its visibility timeout ran out without a DeleteMessage.">Redeliveries</abbr>"#,
            ),
            group(t.redeliveries),
            "redeliveries",
        ),
        tile(
            markup(
                r#"<abbr title="The same side effect (charge, email) performed twice because a message was processed twice.">Duplicates done</abbr>"#,
            ),
            group(t.duplicates),
            "duplicates",
        ),
        tile(
            markup(
                r#"<abbr title="Repeats skipped because the worker found the idempotency key in its ledger.">Duplicates prevented</abbr>"#,
            ),
            group(t.prevented),
            "prevented",
        ),
        tile(Html::from("Dead-lettered"), group(t.dead_lettered), "dead"),
        tile(calls.into(), group(t.api_calls), "calls"),
        tile(
            markup(
                r#"<abbr title="At SQS's list price of USD 0.40 per million requests.">Cost</abbr>"#,
            ),
            dollars(t.cost_usd),
            "cost",
        ),
    ];
    el("section")
        .class("panel counters")
        .attr(Attr::AriaLabel, "Counters")
        .child(el("dl").class("tiles").children(tiles))
        .into()
}
