//! The comparison table: what the two copies measured, line by line, and the difference (B
//! minus A). The figures and their differences come from `sqs_sim::compare`; this draws them.

use super::NAMES;
use crate::playground::format::{dollars, duration, group};
use sqs_engine::Millis;
use sqs_sim::compare::{Difference as Delta, Figure, Row};
use std::rc::Rc;
use yew::prelude::*;

/// Properties of [`Difference`].
#[derive(Properties, PartialEq)]
pub struct TableProps {
    /// The table's lines.
    pub rows: Rc<Vec<Row>>,
}

/// See the module documentation. One column per figure, one line per copy and one for the
/// difference, so the table is short enough to sit under the stages.
#[component]
pub fn Difference(props: &TableProps) -> Html {
    let [a, b] = NAMES;
    let line = |name: String, cell: &dyn Fn(&Row) -> String| {
        html! {
            <tr>
                <th scope="row">{ name }</th>
                for row in props.rows.iter() {
                    <td data-differs={row.difference().is_some_and(differs).to_string()}>{ cell(row) }</td>
                }
            </tr>
        }
    };
    html! {
        // Focusable: it scrolls when the page is narrow.
        <section class="panel difference" aria-label="Difference" tabindex="0">
            <table>
                <caption>{ "What differs" }</caption>
                <thead>
                    <tr>
                        <th scope="col"><span class="visually-hidden">{ "Copy" }</span></th>
                        for row in props.rows.iter() {
                            <th scope="col">{ row.label }</th>
                        }
                    </tr>
                </thead>
                <tbody>
                    { line(a.to_string(), &|r| figure(r.left)) }
                    { line(b.to_string(), &|r| figure(r.right)) }
                    { line(format!("{b} − {a}"), &|r| r.difference().map_or_else(|| "–".to_string(), delta)) }
                </tbody>
            </table>
        </section>
    }
}

/// A figure as shown.
fn figure(f: Figure) -> String {
    match f {
        Figure::Count(n) => group(n),
        Figure::Duration(Some(ms)) => seconds(ms),
        Figure::Duration(None) => "–".to_string(),
        Figure::Usd(usd) => dollars(usd),
    }
}

/// A duration: tenths of a second below 10 s, then as sentences say it.
fn seconds(ms: Millis) -> String {
    if ms < 10_000 {
        format!("{:.1} s", ms as f64 / 1000.0)
    } else {
        duration(ms)
    }
}

/// Whether a difference is not zero.
fn differs(d: Delta) -> bool {
    match d {
        Delta::Count(n) | Delta::Duration(n) => n != 0,
        Delta::Usd(usd) => usd != 0.0,
    }
}

/// A difference with its sign ("+2", "−30 s", "0").
fn delta(d: Delta) -> String {
    let signed = |negative: bool, text: String| match (negative, differs(d)) {
        (_, false) => "0".to_string(),
        (true, true) => format!("−{text}"),
        (false, true) => format!("+{text}"),
    };
    match d {
        Delta::Count(n) => signed(n < 0, group(n.unsigned_abs())),
        Delta::Duration(ms) => signed(ms < 0, seconds(ms.unsigned_abs())),
        Delta::Usd(usd) => signed(usd < 0.0, dollars(usd.abs())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_carry_their_sign_and_zero_has_none() {
        assert_eq!(delta(Delta::Count(-2)), "−2");
        assert_eq!(delta(Delta::Count(1_200)), "+1,200");
        assert_eq!(delta(Delta::Duration(30_000)), "+30 s");
        assert_eq!(delta(Delta::Duration(-1_500)), "−1.5 s");
        assert_eq!(delta(Delta::Duration(0)), "0");
        assert_eq!(delta(Delta::Usd(-0.0000004)), "−$0.0000004");
        assert_eq!(figure(Figure::Duration(None)), "–");
        assert_eq!(figure(Figure::Duration(Some(90_000))), "90 s");
    }
}
