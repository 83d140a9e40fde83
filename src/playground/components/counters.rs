//! Live counters: what the audience should count while a scenario runs, on one line (with
//! short labels where the line is narrow).

use crate::playground::format::{dollars, group};
use yew::prelude::*;

/// The numbers shown (from the World's metrics and summary).
#[derive(Clone, Debug, Default, PartialEq)]
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

/// Properties of [`Counters`].
#[derive(Properties, PartialEq)]
pub struct CountersProps {
    /// The numbers.
    pub tally: Tally,
}

/// See the module documentation.
#[component]
pub fn Counters(props: &CountersProps) -> Html {
    let t = &props.tally;
    html! {
        <section class="panel counters" aria-label="Counters">
            <dl class="tiles" tabindex="0">
                <Tile kind="deliveries" short="Deliveries" value={group(t.deliveries)}>{ "Deliveries" }</Tile>
                <Tile kind="redeliveries" short="Redeliveries" value={group(t.redeliveries)}>
                    <abbr title="Deliveries of a message that had been received before: its visibility timeout ran out without a DeleteMessage.">{ "Redeliveries" }</abbr>
                </Tile>
                <Tile kind="duplicates" short="Duplicates" value={group(t.duplicates)}>
                    <abbr title="The same side effect (charge, email) performed twice because a message was processed twice.">{ "Duplicates done" }</abbr>
                </Tile>
                <Tile kind="prevented" short="Prevented" value={group(t.prevented)}>
                    <abbr title="Repeats skipped because the worker found the idempotency key in its ledger.">{ "Duplicates prevented" }</abbr>
                </Tile>
                <Tile kind="dead" short="To DLQ" value={group(t.dead_lettered)}>{ "Dead-lettered" }</Tile>
                <Tile kind="calls" short="Calls" value={group(t.api_calls)}>
                    <span title={format!("{}; cost {}", t.by_action, dollars(t.cost_usd))}>{ "API calls" }</span>
                </Tile>
                <Tile kind="cost" short="Cost" value={dollars(t.cost_usd)}>
                    <abbr title="At SQS's list price of USD 0.40 per million requests.">{ "Cost" }</abbr>
                </Tile>
            </dl>
        </section>
    }
}

/// Properties of [`Tile`].
#[derive(Properties, PartialEq)]
struct TileProps {
    /// Its `data-kind` (CSS hook).
    kind: &'static str,
    /// The label where the line is narrow (an embed): shown instead of `children`, which stay
    /// for screen readers.
    short: &'static str,
    /// The number as shown.
    value: String,
    /// What is counted.
    children: Html,
}

/// One counter: what is counted, and the number.
#[component]
fn Tile(props: &TileProps) -> Html {
    html! {
        <div class="tile" data-kind={props.kind}>
            <dt>
                <span class="long">{ props.children.clone() }</span>
                <span class="short" aria-hidden="true">{ props.short }</span>
            </dt>
            <dd>{ &props.value }</dd>
        </div>
    }
}
