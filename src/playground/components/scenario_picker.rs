//! The scenario picker and the story: the scenario's narrative and what to watch, so a teacher
//! can open one and press Play.

use super::el::{el, labelled};
use super::{error, markup_built, Escaped};
use crate::playground::scenarios::Entry;
use crate::playground::Action;
use sqs_sim::Scenario;
use std::fmt::Write;
use wasm_bindgen::JsCast;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// Properties of [`scenario_picker`].
pub struct PickerProps<'a> {
    /// What can be opened (built once: the library is parsed to list it).
    pub entries: &'a [Entry],
    /// The open scenario.
    pub current: Entry,
    /// Why the last opening failed.
    pub error: Option<String>,
    /// The root's action callback.
    pub dispatch: Callback<Action>,
}

/// A `<select>` of scenario ids whose change opens the chosen one (the picker, and the queue
/// type setting, which opens a fresh sandbox of that type).
pub fn open_selected(dispatch: Callback<Action>) -> Callback<Event> {
    Callback::from(move |e: Event| {
        if let Some(select) = e
            .target()
            .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
        {
            dispatch.emit(Action::Open(select.value()));
        }
    })
}

/// See the module documentation. A function, not a component: a component's lifecycle code is
/// repeated per component in the bundle (~1 KB), and this one is cheap to draw every frame.
pub fn scenario_picker(props: &PickerProps) -> Html {
    let onchange = open_selected(props.dispatch.clone());
    let current = &props.current;
    // A scenario from a link or a file is not in the library: it is listed first, as itself, so
    // that the picker never names another one.
    let unlisted = !props.entries.iter().any(|e| e.id == current.id);
    // The options are written as markup ([`markup_built`]): text only.
    let mut options = String::new();
    for e in unlisted.then_some(current).into_iter().chain(props.entries) {
        let _ = write!(
            options,
            r#"<option value="{}"{}>{}</option>"#,
            Escaped(&e.id),
            if e.id == current.id { " selected" } else { "" },
            Escaped(&e.title)
        );
    }
    labelled(
        "picker",
        "scenario",
        "Scenario",
        el("select")
            .on_change(onchange)
            .child(markup_built(options)),
    )
    .child(error(props.error.as_deref()))
    .into()
}

/// The scenario's narrative and what to watch. A function, not a component: a few lines of
/// text, cheaper to compare as they are drawn than to copy into properties. Written as markup
/// ([`markup_built`]): text only.
pub fn story(scenario: &Scenario) -> Html {
    let mut html = format!(
        r#"<section class="panel story" aria-label="Story"><h2>{}</h2><p>{}</p>"#,
        Escaped(&scenario.title),
        Escaped(&scenario.narrative)
    );
    if !scenario.watch.is_empty() {
        html.push_str(r#"<h3>What to watch</h3><ol class="watch">"#);
        for w in &scenario.watch {
            let _ = write!(html, "<li>{}</li>", Escaped(w));
        }
        html.push_str("</ol>");
    }
    html.push_str("</section>");
    markup_built(html)
}
