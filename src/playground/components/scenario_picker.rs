//! The scenario picker and the story: the scenario's narrative and what to watch, so a teacher
//! can open one and press Play.

use super::{error, select_value};
use crate::playground::scenarios::Entry;
use std::rc::Rc;
use yew::prelude::*;

/// Properties of [`ScenarioPicker`].
#[derive(Properties, PartialEq)]
pub struct PickerProps {
    /// What can be opened (the library).
    pub entries: Rc<Vec<Entry>>,
    /// The open scenario.
    pub current: Entry,
    /// Why the last opening failed.
    pub error: Option<String>,
    /// A scenario chosen: its id.
    pub onopen: Callback<String>,
}

/// See the module documentation.
#[component]
pub fn ScenarioPicker(props: &PickerProps) -> Html {
    let onchange = props.onopen.reform(|e: Event| select_value(&e));
    let current = &props.current;
    // A scenario from a link or a file is not in the library: it is listed first, as itself, so
    // that the picker never names another one.
    let unlisted = !props.entries.iter().any(|e| e.id == current.id);
    let entries = unlisted
        .then_some(current)
        .into_iter()
        .chain(props.entries.iter());
    html! {
        <div class="picker">
            <label for="scenario">{ "Scenario" }</label>
            <select id="scenario" {onchange}>
                for e in entries {
                    <option value={e.id.clone()} selected={e.id == current.id}>{ &e.title }</option>
                }
            </select>
            { error(props.error.as_deref()) }
        </div>
    }
}

/// Properties of [`Story`].
#[derive(Properties, PartialEq)]
pub struct StoryProps {
    /// The scenario's title.
    pub title: String,
    /// What it shows.
    pub narrative: String,
    /// What to watch, in order.
    pub watch: Vec<String>,
}

/// The scenario's narrative and what to watch.
#[component]
pub fn Story(props: &StoryProps) -> Html {
    html! {
        <section class="panel story" aria-label="Story">
            <h2>{ &props.title }</h2>
            <p>{ &props.narrative }</p>
            if !props.watch.is_empty() {
                <h3>{ "What to watch" }</h3>
                <ol class="watch">
                    for w in &props.watch {
                        <li>{ w }</li>
                    }
                </ol>
            }
        </section>
    }
}
