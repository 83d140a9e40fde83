//! The playground's parts. Each draws what it is given and reports what the user does through
//! the root's [`crate::playground::Action`] callback; none holds an SQS rule.

pub mod chart;
pub mod controls;
pub mod counters;
pub mod counts;
pub mod dlq;
pub mod el;
pub mod event_log;
pub mod history;
pub mod icons;
pub mod ledger;
pub mod message;
pub mod queue;
pub mod scenario_picker;
pub mod send_form;
pub mod settings;
pub mod worker_lane;
pub mod worker_policy;

use crate::playground::Action;
use std::fmt;
use yew::{AttrValue, Callback, Html, MouseEvent};

/// A click that sends `action`. One closure type for every such button: each closure written
/// out at a call site is its own code in the bundle.
pub fn on_click(dispatch: &Callback<Action>, action: Action) -> Callback<MouseEvent> {
    let dispatch = dispatch.clone();
    Callback::from(move |_: MouseEvent| dispatch.emit(action.clone()))
}

/// Markup with nothing live in it (no value, no handler), as one string the browser parses: the
/// bundle then holds its text, not code that builds it node by node.
pub fn markup(html: &'static str) -> Html {
    Html::from_html_unchecked(AttrValue::Static(html))
}

/// Markup written at run time, for a display-only part (no handler, nothing that keeps focus or
/// a typed value): one string in place of code that builds each element ([`el`], or `html!`,
/// which writes out every element's construction where it stands). Any text from the World goes through
/// [`Escaped`]. Yew replaces the part's nodes only when the string changes. (The chart, the
/// ledger, the history, the story, the counts and a few headers written so: ~2 KB gzip less.)
pub fn markup_built(html: String) -> Html {
    Html::from_html_unchecked(AttrValue::from(html))
}

/// Text written into markup ([`markup_built`]) as element text or a quoted attribute value.
pub struct Escaped<'a>(pub &'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(i) = rest.find(['&', '<', '>', '"', '\'']) {
            f.write_str(&rest[..i])?;
            f.write_str(match rest.as_bytes()[i] {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                b'"' => "&quot;",
                _ => "&#39;",
            })?;
            rest = &rest[i + 1..];
        }
        f.write_str(rest)
    }
}

/// A class attribute: `base`, then each class of `extra` whose flag is on. One function in place
/// of `classes!`, whose set is built by code written out at every use.
pub fn class(base: &'static str, extra: &[(bool, &'static str)]) -> AttrValue {
    let mut list = base.to_string();
    for (on, name) in extra {
        if *on {
            list.push(' ');
            list.push_str(name);
        }
    }
    AttrValue::from(list)
}

/// A control's error, announced when it appears; nothing when there is none.
pub fn error(text: Option<&str>) -> Html {
    text.map_or_else(Html::default, |e| {
        markup_built(format!(
            r#"<p class="error" role="alert">{}</p>"#,
            Escaped(e)
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::Escaped;

    #[test]
    fn escaped_text_cannot_open_a_tag_or_close_an_attribute() {
        assert_eq!(
            Escaped(r#"<b a="1">Tom & 'Jerry'</b>"#).to_string(),
            "&lt;b a=&quot;1&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/b&gt;"
        );
        assert_eq!(Escaped("plain").to_string(), "plain");
    }
}
