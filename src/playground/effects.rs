//! What the root does besides drawing, as hooks: the clock's animation frames, a host page's
//! commands and the events posted to it, the live server's stream and the requests sent to it,
//! the scenario file an address names or the picker picks, and after each render the cards'
//! glide and the focus.

use super::action::Action;
use super::components::controls::Clock;
use super::components::scenario_picker::Picked;
use super::lesson::{Panel, PhaseKind};
use super::session::{Session, Slot};
use super::{flip, frame, page, scenarios};
#[cfg(feature = "live")]
use crate::live;
use crate::share::bridge;
use crate::share::embed::{self, HostCommand};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// Every animation frame moves the clock ([`Action::Frame`]) while `live`; inside a host page's
/// frame (`host`), the events recorded since the last frame are posted to it first. A host
/// page's commands drive the clock or open a scenario.
#[hook]
pub fn use_clock(
    live: bool,
    host: bool,
    session: Rc<RefCell<Session>>,
    onaction: Callback<Action>,
) {
    let onframe = use_memo((), {
        let onaction = onaction.clone();
        // Events posted to the host page so far ([`page::relay`]).
        let posted = RefCell::new(0);
        move |_| {
            Callback::from(move |wall: f64| {
                if host {
                    page::relay(&session.borrow().journal, &mut posted.borrow_mut(), None);
                }
                onaction.emit(Action::Frame(wall));
            })
        }
    });
    bridge::use_host_commands({
        let open = fetching_open(&onaction);
        Callback::from(move |command| {
            let clock = match command {
                HostCommand::Play => Clock::Play,
                HostCommand::Pause => Clock::Pause,
                HostCommand::Step => Clock::Step,
                HostCommand::Seek(t) => Clock::Seek(t),
                HostCommand::Load(id) => return open.emit(id),
            };
            onaction.emit(Action::Clock(clock));
        })
    });
    frame::use_frame_loop(live, (*onframe).clone());
}

/// `src=`: the default scenario shows while the file comes; it opens when read (as Import
/// reads a file), or the picker names what is wrong with it.
#[hook]
pub fn use_scenario_file(src: Option<String>, onaction: Callback<Action>) {
    use_effect_with(src, move |src| {
        if let Some(src) = src.clone() {
            wasm_bindgen_futures::spawn_local(async move {
                let read = crate::share::browser::fetch_text(&src)
                    .await
                    .and_then(|text| {
                        crate::share::export::import(&text)
                            .map_err(|e| format!("The scenario file {src} cannot be opened: {e}"))
                    });
                onaction.emit(match read {
                    Ok(session) => Action::Import(session),
                    Err(error) => Action::Refused {
                        slot: Slot::Scenario,
                        error,
                    },
                });
            });
        }
    });
}

/// The library scenario picked in the picker: its file is fetched, then it opens, or the picker
/// names what is wrong ([`Action::FetchFailed`]).
#[hook]
pub fn use_picked_file(picked: Option<Picked>, onaction: Callback<Action>) {
    let loading = match picked {
        Some(Picked::Loading(id)) => Some(id),
        _ => None,
    };
    use_effect_with(loading, move |loading| {
        if let Some(id) = loading.clone() {
            let failed = onaction.reform(Action::FetchFailed);
            scenarios::open_when_fetched(id, onaction.reform(Action::Open), failed);
        }
    });
}

/// Live mode: follows the server's stream while `on`; after every render, the requests the last
/// action made go to the server, and a refusal comes back as [`Action::Refused`].
#[cfg(feature = "live")]
#[hook]
pub fn use_live_server(on: bool, session: Rc<RefCell<Session>>, onaction: Callback<Action>) {
    live::stream::use_live_stream(on, onaction.reform(Action::Live));
    use_effect(move || {
        for outgoing in session.borrow_mut().take_outbox() {
            let onaction = onaction.clone();
            wasm_bindgen_futures::spawn_local(async move {
                if let Err(error) = live::stream::send(&outgoing).await {
                    let slot = outgoing.slot();
                    onaction.emit(Action::Refused { slot, error });
                }
            });
        }
    });
}

/// What one render drew that the root reacts to once it is in the document.
pub struct Drawn {
    /// Which message is in which place ([`super::stage::Stage::placement`]).
    pub placement: u64,
    /// The message whose keyboard hand-over bar is open.
    pub picked: Option<String>,
    /// The question shown (its number) and its phase.
    pub question: Option<(usize, PhaseKind)>,
    /// The scenario's id, when a host page listens (it is told once that the player is ready).
    pub ready: Option<String>,
}

impl Drawn {
    /// The question `panel` shows, if it shows one.
    pub fn question(panel: Option<&Panel>) -> Option<(usize, PhaseKind)> {
        match panel {
            Some(Panel::Question(asked)) => Some((asked.number, asked.phase.kind())),
            _ => None,
        }
    }
}

/// After every render: glide the cards that changed place, focus the hand-over bar when it
/// opens and a question when it opens or its answer shows, and tell a host page, once, that the
/// player is ready.
#[hook]
pub fn use_after_render(container: NodeRef, drawn: Drawn) {
    let after = use_mut_ref(AfterRender::default);
    use_effect(move || after.borrow_mut().run(&container, drawn));
}

/// What [`use_after_render`] remembers from one render to the next.
#[derive(Default)]
struct AfterRender {
    /// The placement the cards last glided to, and their positions then.
    placement: Option<u64>,
    positions: flip::Positions,
    /// The message whose hand-over bar was open.
    picked: Option<String>,
    /// The question shown and its phase, when the focus last moved for it.
    question: Option<(usize, PhaseKind)>,
    /// Whether the host page was told the player is ready.
    announced: bool,
}

impl AfterRender {
    fn run(&mut self, container: &NodeRef, drawn: Drawn) {
        let Drawn {
            placement,
            picked,
            question,
            ready,
        } = drawn;
        if self.placement != Some(placement) {
            self.placement = Some(placement);
            flip::glide_under(container, &mut self.positions);
        }
        if self.picked != picked {
            // The keyboard hand-over bar takes the focus (its first button) when it opens.
            if picked.is_some() {
                focus(container, ".pick-bar button");
            }
            self.picked = picked;
        }
        if self.question != question {
            // A question that opens takes the focus (its panel: number keys pick, Tab reaches
            // the choices); at its reveal the focus goes to Continue. Not inside a host's frame,
            // where it would pull the host page's focus and scroll: the live region speaks.
            let target = match question {
                Some((_, PhaseKind::Asking)) => Some(".lesson"),
                Some((_, PhaseKind::Revealed)) => Some(".lesson .primary"),
                _ => None,
            };
            if let (Some(target), None) = (target, &ready) {
                focus(container, target);
            }
            self.question = question;
        }
        if let (Some(scenario), false) = (ready, self.announced) {
            self.announced = true;
            bridge::post(&embed::ready_message(&scenario));
        }
    }
}

/// Focuses the first element under `container` that `selector` finds, scrolling the page only
/// if the element is not in view already (the one-screen layout must not move).
fn focus(container: &NodeRef, selector: &str) {
    let found = container
        .cast::<web_sys::Element>()
        .and_then(|c| c.query_selector(selector).ok().flatten())
        .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok());
    let Some(element) = found else {
        return;
    };
    let height = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let rect = element.get_bounding_client_rect();
    let options = web_sys::FocusOptions::new();
    options.set_prevent_scroll(rect.top() >= 0.0 && rect.bottom() <= height);
    let _ = element.focus_with_options(&options);
}

/// Opens a scenario by id, a library file fetched first ([`scenarios::open_when_fetched`]); a
/// failed fetch is said by the scenario picker.
fn fetching_open(onaction: &Callback<Action>) -> Callback<String> {
    let open = onaction.reform(Action::Open);
    let failed = onaction.reform(|error| Action::Refused {
        slot: Slot::Scenario,
        error,
    });
    Callback::from(move |id| scenarios::open_when_fetched(id, open.clone(), failed.clone()))
}
