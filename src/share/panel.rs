//! The "Share" panel: a link to this exact moment, an embed snippet, session and event-log
//! files, an import, and the real AWS configuration for the current settings.

use super::export::{self, MAX_IMPORT_BYTES};
use super::snippets::{self, QueueSpec};
use super::{browser, embed, permalink, session::Session};
use sqs_sim::{Sample, Scenario, WorldEvent};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::platform::spawn_local;
use yew::prelude::*;

/// Properties of [`Share`]: what it needs from the playground, asked for only when used.
#[derive(Properties, PartialEq)]
pub struct ShareProps {
    /// Asks for the session right now (scenario, actions, playhead, speed).
    pub session: Callback<(), Session>,
    /// The scenario the session started from (for the scenario file).
    pub scenario: Rc<Scenario>,
    /// The main queue's settings, for the code snippets.
    pub queue: Option<QueueSpec>,
    /// Asks for the event log kept so far.
    pub events: Callback<(), Vec<WorldEvent>>,
    /// Asks for the depth samples, for the chart file.
    pub samples: Callback<(), Vec<Sample>>,
    /// A session read from an imported file.
    pub onimport: Callback<Session>,
}

/// What the panel shows besides its buttons. The panel's own state: it outlives opening another
/// scenario or importing a session, which the playground does without unmounting the panel.
#[derive(Clone, Debug, Default, PartialEq)]
struct ShareState {
    /// The last link made ("" before any).
    link: String,
    /// What the last button did (or why it could not).
    status: String,
    /// Which code to show.
    lang: Lang,
}

/// One change to [`ShareState`]: a finished task changes only what it made.
#[derive(Clone, Debug, PartialEq)]
enum ShareChange {
    /// A link was made.
    Link(String),
    /// A button's outcome.
    Status(String),
    /// Another language's code.
    Lang(Lang),
}

impl Reducible for ShareState {
    type Action = ShareChange;

    fn reduce(self: Rc<Self>, change: ShareChange) -> Rc<Self> {
        let mut next = (*self).clone();
        match change {
            ShareChange::Link(link) => next.link = link,
            ShareChange::Status(status) => next.status = status,
            ShareChange::Lang(lang) => next.lang = lang,
        }
        Rc::new(next)
    }
}

/// Which code to show.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Lang {
    /// The AWS CLI.
    #[default]
    Cli,
    /// Python (boto3).
    Python,
    /// Rust (aws-sdk-sqs).
    Rust,
}

/// A file the panel saves.
#[derive(Clone, Copy)]
enum Export {
    Scenario,
    EventsJson,
    EventsCsv,
    Chart,
}

impl Export {
    /// Its button, file name and MIME type.
    fn describe(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Export::Scenario => (
                "Export scenario file",
                "sqs-playground-scenario.json",
                "application/json",
            ),
            Export::EventsJson => (
                "Export event log (JSON)",
                "sqs-playground-events.json",
                "application/json",
            ),
            Export::EventsCsv => (
                "Export event log (CSV)",
                "sqs-playground-events.csv",
                "text/csv",
            ),
            Export::Chart => (
                "Export depth chart (SVG)",
                "sqs-playground-depth.svg",
                "image/svg+xml",
            ),
        }
    }
}

/// The page's address without its fragment, and with `extra` query parameters added.
pub(crate) fn page_url(extra: &str) -> String {
    let location = web_sys::window().map(|w| w.location());
    let base = location
        .map(|l| {
            format!(
                "{}{}",
                l.origin().unwrap_or_default(),
                l.pathname().unwrap_or_default()
            )
        })
        .unwrap_or_default();
    if extra.is_empty() {
        base
    } else {
        format!("{base}?{extra}")
    }
}

/// Makes the link to `session` and shows it (or the problem in the status). Asynchronous: the
/// browser compresses it.
async fn make_link(session: &Session, change: &UseReducerDispatcher<ShareState>) -> Option<String> {
    match permalink::encode(session).await {
        Ok(value) => {
            let url = format!("{}#{}={value}", page_url(""), permalink::KEY);
            change.dispatch(ShareChange::Link(url.clone()));
            Some(url)
        }
        Err(e) => {
            change.dispatch(ShareChange::Status(e));
            None
        }
    }
}

/// The embed's address: the link's, with `embed=1` in its query.
fn embed_url(link: &str) -> String {
    if link.is_empty() {
        return String::new();
    }
    let flag = if link.contains('?') {
        "&embed=1#"
    } else {
        "?embed=1#"
    };
    link.replacen('#', flag, 1)
}

/// See the module documentation.
#[component]
pub fn Share(props: &ShareProps) -> Html {
    let state = use_reducer(ShareState::default);
    let change = state.dispatcher();

    // "Copy link" and "Embed code" both make the link; the first also copies it.
    let make = |copy: bool| {
        let (session, change) = (props.session.clone(), change.clone());
        Callback::from(move |_: MouseEvent| {
            let (session, change) = (session.emit(()), change.clone());
            spawn_local(async move {
                let Some(url) = make_link(&session, &change).await else {
                    return;
                };
                if copy {
                    change.dispatch(ShareChange::Status(match browser::copy(&url).await {
                        Ok(()) => "Link copied: it reopens this exact moment.".into(),
                        Err(e) => e,
                    }));
                }
            });
        })
    };
    let save = |file: Export| {
        let (session, scenario, change) = (
            props.session.clone(),
            props.scenario.clone(),
            change.clone(),
        );
        let (events, samples) = (props.events.clone(), props.samples.clone());
        Callback::from(move |_: MouseEvent| {
            let text = match file {
                Export::Scenario => export::session_file_text(&session.emit(()), &scenario),
                Export::EventsJson => export::events_json(&events.emit(())),
                Export::EventsCsv => export::events_csv(&events.emit(())),
                Export::Chart => export::depth_chart_svg(&samples.emit(())),
            };
            let (_, name, mime) = file.describe();
            change.dispatch(ShareChange::Status(
                match browser::download(name, mime, &text) {
                    Ok(()) => format!("Saved {name}."),
                    Err(e) => e,
                },
            ))
        })
    };
    let onimport = {
        let (onimport, change) = (props.onimport.clone(), change.clone());
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let Some(file) = input.files().and_then(|f| f.get(0)) else {
                return;
            };
            input.set_value("");
            let (onimport, change) = (onimport.clone(), change.clone());
            let name = file.name();
            spawn_local(async move {
                match browser::read_text(file, MAX_IMPORT_BYTES)
                    .await
                    .and_then(|t| export::import(&t))
                {
                    Ok(session) => {
                        change.dispatch(ShareChange::Status("Scenario file opened.".into()));
                        onimport.emit(session);
                    }
                    Err(e) => change
                        .dispatch(ShareChange::Status(format!("{name} cannot be opened: {e}"))),
                }
            });
        })
    };
    let select_all = Callback::from(|e: FocusEvent| {
        if let Some(t) = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
        {
            t.select();
        }
    });

    let lang = state.lang;
    let code = props.queue.as_ref().map(|q| match lang {
        Lang::Cli => snippets::aws_cli(q),
        Lang::Python => snippets::boto3(q),
        Lang::Rust => snippets::rust_sdk(q),
    });
    let tabs = [
        (Lang::Cli, "AWS CLI"),
        (Lang::Python, "Python (boto3)"),
        (Lang::Rust, "Rust (aws-sdk-sqs)"),
    ];
    let files = [
        Export::Scenario,
        Export::EventsJson,
        Export::EventsCsv,
        Export::Chart,
    ];
    let link = &state.link;

    html! {
        <section class="panel share" aria-label="Share">
            <h2>{ "Share and export" }</h2>
            <p class="status" role="status" aria-live="polite">{ &state.status }</p>
            <div class="row">
                <button type="button" onclick={make(true)}>{ "Copy link" }</button>
                <button type="button" onclick={make(false)}>{ "Embed code" }</button>
            </div>
            if !link.is_empty() {
                <label>{ "Link to this moment" }
                    <textarea readonly=true rows="2" onfocus={select_all.clone()} value={link.clone()} />
                </label>
                <label>{ "Embed this moment in a page" }
                    <textarea readonly=true rows="3" onfocus={select_all} value={embed::iframe_snippet(&embed_url(link))} />
                </label>
            }
            <div class="row">
                for file in files {
                    <button type="button" onclick={save(file)}>{ file.describe().0 }</button>
                }
            </div>
            <label class="file">{ "Import scenario file" }
                <input type="file" accept=".json,application/json" onchange={onimport} />
            </label>
            if let Some(code) = code {
                <h3>{ "The same queue on AWS" }</h3>
                <div class="row" role="group" aria-label="Language">
                    for (l, label) in tabs {
                        <button type="button" aria-pressed={(lang == l).to_string()}
                            onclick={change.to_callback().reform(move |_| ShareChange::Lang(l))}>
                            { label }
                        </button>
                    }
                </div>
                // Focusable, so that a keyboard can scroll it; named for screen readers.
                <pre class="code" tabindex="0" role="region" aria-label="Code for AWS">
                    <code>{ code }</code>
                </pre>
            }
        </section>
    }
}
