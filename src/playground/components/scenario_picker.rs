//! The scenario picker and the story: the scenario's narrative and what to watch, so a teacher
//! can open one and press Play.

use super::{error, select_value};
use crate::playground::scenarios::Entry;
use crate::playground::story::Beat;
use crate::playground::Action;
use std::ops::Range;
use std::rc::Rc;
use yew::prelude::*;

/// A library scenario picked whose file has not opened yet (the reducer holds it; the root's
/// effect fetches the file).
#[derive(Clone, Debug, PartialEq)]
pub enum Picked {
    /// Its file is being fetched (the scenario's id).
    Loading(String),
    /// Its file could not be read or opened (why).
    Failed(String),
}

/// Properties of [`ScenarioPicker`].
#[derive(Properties, PartialEq)]
pub struct PickerProps {
    /// What can be opened (the library).
    pub entries: Rc<Vec<Entry>>,
    /// The open scenario.
    pub current: Entry,
    /// Why the last opening failed.
    pub error: Option<String>,
    /// The scenario picked, while its file comes or after it failed.
    pub picked: Option<Picked>,
    /// A scenario chosen (its file fetched by its id).
    pub onaction: Callback<Action>,
}

/// See the module documentation. A library scenario is fetched when picked: the picker says so
/// while it comes, and names the file and the problem if it cannot be read (the open scenario
/// stays, and the picker shows it again).
#[component]
pub fn ScenarioPicker(props: &PickerProps) -> Html {
    let select = use_node_ref();
    let loading = match &props.picked {
        Some(Picked::Loading(id)) => Some(id),
        _ => None,
    };
    // While no file comes, the select shows the open scenario (after a failed pick too).
    use_effect_with((loading.is_some(), props.current.id.clone()), {
        let select = select.clone();
        move |(loading, current)| {
            if let (false, Some(select)) = (loading, select.cast::<web_sys::HtmlSelectElement>()) {
                select.set_value(current);
            }
        }
    });
    let onchange = props
        .onaction
        .reform(|e: Event| Action::Fetch(select_value(&e)));
    let failed = match &props.picked {
        Some(Picked::Failed(error)) => Some(error.as_str()),
        _ => props.error.as_deref(),
    };
    let loading = loading.map(|id| {
        let entry = props.entries.iter().find(|entry| entry.id == *id);
        entry.map_or(id, |entry| &entry.title)
    });
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
            <select id="scenario" ref={select} {onchange} aria-busy={loading.is_some().then_some("true")}>
                for e in entries {
                    <option value={e.id.clone()} selected={e.id == current.id}>{ &e.title }</option>
                }
            </select>
            <span class="picker-status" role="status">
                if let Some(title) = loading {
                    { format!("Loading \"{title}\"…") }
                }
            </span>
            { error(failed) }
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
    /// What to watch, in order, with their instants.
    pub beats: Rc<Vec<Beat>>,
    /// The lines whose time has come.
    pub current: Option<Range<usize>>,
}

/// The scenario's narrative and what to watch, the lines whose time has come marked.
#[component]
pub fn Story(props: &StoryProps) -> Html {
    let now = |i: usize| props.current.as_ref().is_some_and(|r| r.contains(&i));
    html! {
        <section class="panel story" aria-label="Story">
            <h2>{ &props.title }</h2>
            <p>{ &props.narrative }</p>
            if !props.beats.is_empty() {
                <h3>{ "What to watch" }</h3>
                <ol class="watch">
                    for (i, b) in props.beats.iter().enumerate() {
                        <li class={classes!(now(i).then_some("now"))}
                            aria-current={now(i).then_some("true")}>{ &b.text }</li>
                    }
                </ol>
            }
        </section>
    }
}

/// Properties of [`StoryLine`].
#[derive(Properties, PartialEq)]
pub struct StoryLineProps {
    /// The scenario's title (said when it has nothing to watch).
    pub title: String,
    /// What to watch, with their instants.
    pub beats: Rc<Vec<Beat>>,
    /// The lines whose time has come (`None`: before the first).
    pub current: Option<Range<usize>>,
}

/// The line of the story that is happening now, under the top bar: highlighted, and announced
/// (politely) when it changes; before the first line's time, that line as what comes next.
#[component]
pub fn StoryLine(props: &StoryLineProps) -> Html {
    let total = props.beats.len();
    let (range, upcoming) = match &props.current {
        Some(r) => (r.clone(), false),
        None => (0..total.min(1), true),
    };
    let step = match (total, upcoming) {
        (0, _) => String::new(),
        (_, true) => format!("Next (1 of {total})"),
        _ if range.len() == 1 => format!("Now ({} of {total})", range.start + 1),
        _ => format!("Now ({}–{} of {total})", range.start + 1, range.end),
    };
    html! {
        <section class={classes!("story-line", upcoming.then_some("upcoming"))} aria-label="Story line">
            <span class="story-step" aria-hidden="true">{ step }</span>
            // Focusable: in a short window it scrolls.
            <p class="story-now" aria-live="polite" tabindex="0">
                if total == 0 {
                    { &props.title }
                }
                for b in &props.beats[range] {
                    <span class="beat">{ &b.text }</span>
                }
            </p>
        </section>
    }
}
