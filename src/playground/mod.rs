//! The playground: a thin view over `sqs-sim`'s World. The root component keeps one [`Session`]
//! (the World and the clock) in a reducer ([`State`]), draws the [`Stage`] built from it after
//! every change, and turns what the user does into [`Action`]s: World steps (SQS calls and
//! simulation actions) or view state (selection, drag). No SQS rule lives in a component: the
//! engine and the World decide; errors they return are shown next to the control that caused
//! them.

pub mod components;
pub mod drag;
pub mod flip;
pub mod format;
pub mod frame;
pub mod journal;
pub mod lesson;
pub mod link;
pub mod scenarios;
pub mod session;
pub mod stage;
pub mod story;

use crate::live::{self, Signal};
use crate::share::bridge;
use crate::share::embed::{self, HostCommand};
use crate::share::launch::{LaunchOptions, Theme};
use crate::share::panel::Share;
use crate::share::session::Session as SharedSession;
use crate::share::snippets::QueueSpec;
use components::chart::{Depth, DepthChart};
use components::controls::Controls;
use components::counters::{Counters, Tally};
use components::dlq::DeadLetterQueue;
use components::error;
use components::event_log::EventLog;
use components::history::History;
use components::ledger::{self, Ledger};
use components::lesson::{lesson_switch, lesson_view, LessonCallbacks};
use components::live_badge::LiveBadge;
use components::queue::{blocked_reason, Idle, Queue};
use components::queue_switch::QueueSwitch;
use components::scenario_picker::{ScenarioPicker, Story, StoryLine};
use components::send_form::Producer;
use components::settings::{Settings, Typed};
use components::tabs::{tab_panel, Tab, TabList};
use components::worker_lane::WorkerLane;
use components::worker_policy::Editing;
use drag::{Gesture, Press};
use journal::{Entry, Versioned};
use lesson::{Answer, Panel, Phase, Proof};
use link::Link;
use session::{SendForm, Session, Slot};
use sqs_engine::{Millis, Request};
use sqs_sim::command::SimAction;
use sqs_sim::{Effect, Sample, Scenario, Step, WorldEvent};
use stage::{Look, Stage};
use std::cell::RefCell;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use yew::prelude::*;

/// What the user (or a link) asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Start the clock.
    Play,
    /// Stop the clock.
    Pause,
    /// Jump to the next event.
    Step,
    /// Set the speed.
    Speed(f64),
    /// Move to a virtual instant (rewind by replay).
    Seek(Millis),
    /// Open a scenario by id.
    Open(String),
    /// SendMessage from the form.
    Send(SendForm),
    /// The send form as typed so far.
    EditSend(SendForm),
    /// What the user typed into a setting's field.
    Type(Typed),
    /// A worker's policy as edited.
    EditPolicy(Editing),
    /// SetQueueAttributes with one attribute.
    SetAttribute {
        /// Attribute name.
        name: String,
        /// Value as typed.
        value: String,
    },
    /// A simulation action on a worker.
    Worker {
        /// Which worker (errors show on its lane).
        worker: String,
        /// What.
        action: SimAction,
    },
    /// A new lane.
    AddWorker,
    /// Hand a message to a worker (drop or keyboard pick).
    Deliver {
        /// Which worker.
        worker: String,
        /// Which message.
        message_id: String,
    },
    /// An SQS call by hand; its error shows at `slot`.
    Call {
        /// Where an error shows.
        slot: Slot,
        /// The call.
        request: Request,
    },
    /// Show this queue and its lanes (when lanes consume several queues).
    ShowQueue(String),
    /// Select a message (its history opens), or none.
    Select(Option<String>),
    /// Open (or close) the keyboard hand-over bar for a waiting message.
    Pick(Option<String>),
    /// A press on a waiting message (may become a drag).
    Press(Press),
    /// The pointer moved to a point (viewport coordinates).
    PointerMove((f64, f64)),
    /// The pointer was released: a drag over a lane delivers its message there.
    PointerUp,
    /// The pointer's gesture was cancelled.
    PointerCancel,
    /// An animation frame at this wall time (milliseconds): the clock moves.
    Frame(f64),
    /// Opens a session read from a file.
    Import(SharedSession),
    /// Lesson mode on or off.
    Lesson(bool),
    /// An answer to the open question (`None`: Skip).
    Answer(Answer),
    /// Jump to the answered question's reveal.
    RevealNow,
    /// Put the shown answer away and play on.
    Continue,
    /// Live mode: what the browser heard of the server's stream.
    Live(Signal),
    /// Live mode: show a client under another name (empty: its own).
    Rename {
        /// Its own name (its access key id, or address and User-Agent).
        client: String,
        /// The name to show.
        name: String,
    },
    /// Live mode: the server refused one of the page's requests (or could not be reached).
    Refused {
        /// Where the refusal shows.
        slot: Slot,
        /// What the server said.
        error: String,
    },
}

/// View state that is not the World's.
#[derive(Clone)]
struct Ui {
    selected: Option<String>,
    pick: Option<String>,
    gesture: Gesture,
    note: Option<String>,
    /// The send form as typed (it outlives opening another scenario or session).
    send: SendForm,
    /// What the user typed into the settings' fields, until Set or another scenario.
    typed: Vec<Typed>,
    /// The policies being edited, until another scenario.
    editing: Vec<Editing>,
    /// The queue chosen on the stage's queue switch, until another scenario.
    shown_queue: Option<String>,
    /// Live mode: the names the user gave clients (their own name, the name shown); they
    /// outlive a new run of the server, whose clients are likely the same.
    names: Rc<Vec<(String, String)>>,
}

impl Default for Ui {
    fn default() -> Self {
        Ui {
            selected: None,
            pick: None,
            gesture: Gesture::Idle,
            note: None,
            typed: Vec::new(),
            editing: Vec::new(),
            shown_queue: None,
            names: Rc::default(),
            send: SendForm {
                group_id: "g1".into(),
                ..SendForm::default()
            },
        }
    }
}

impl Ui {
    /// Forgets the view state of the session that is closing, except the send form and the
    /// clients' names (drafts of settings and policies belong to the old queue and lanes).
    fn reset(&mut self) {
        *self = Ui {
            send: std::mem::take(&mut self.send),
            names: std::mem::take(&mut self.names),
            ..Ui::default()
        };
    }
}

/// While the clock runs, the event log and the depth chart redraw at most this often (wall
/// milliseconds): at high speed more lines arrive every frame than the log shows, and redrawing
/// them and the chart 60 times a second is both a blur to read and most of a frame's work. So at
/// high speed the log can trail the clock by up to this much wall time.
const SUMMARY_REFRESH_MS: f64 = 250.0;
/// New log lines drawn at once, in the frame they happen, while the clock runs: at a speed that
/// brings this few a frame the log keeps up with the clock (a handful of lines cost little);
/// more wait for [`SUMMARY_REFRESH_MS`].
const LOG_LINES_AT_ONCE: u64 = 4;

/// What the event log, the depth chart and the ledger show: the session's, brought up to date at
/// most every [`SUMMARY_REFRESH_MS`] while the clock runs.
#[derive(Clone, Default)]
struct Summaries {
    /// The event log as shown, and the wall time it was brought up to date.
    log: (f64, Versioned<Vec<Entry>>),
    /// The chart as shown: when, from which samples ([`samples_key`]), its points.
    chart: (f64, (usize, Millis), Rc<Vec<Depth>>),
    /// The ledger's latest [`ledger::SHOWN`] effects.
    effects: Rc<Vec<Effect>>,
}

impl Summaries {
    /// Whether the log or the chart shows less than the session holds.
    fn behind(&self, s: &Session) -> bool {
        self.log.1 != s.journal.log || self.chart.1 != samples_key(s)
    }

    /// Brings the log and the chart up to date: at once when the clock is stopped; while it
    /// runs, each at most every [`SUMMARY_REFRESH_MS`] and not both in one frame, which would
    /// make that frame a long one (the frame loop redraws while one is behind). The ledger is
    /// short: it follows at once.
    fn refresh(&mut self, s: &Session) {
        let wall = js_sys::Date::now();
        let playing = s.playing();
        let due = |at: f64, behind: bool| behind && (!playing || wall - at >= SUMMARY_REFRESH_MS);
        let log_behind = self.log.1 != s.journal.log;
        let few = log_behind && new_lines(&self.log.1, &s.journal.log) <= LOG_LINES_AT_ONCE;
        let log = few || due(self.log.0, log_behind);
        let chart = due(self.chart.0, self.chart.1 != samples_key(s));
        let (log, chart) = match (log, chart) {
            (true, true) if playing && !few => {
                (self.log.0 <= self.chart.0, self.chart.0 < self.log.0)
            }
            both => both,
        };
        if log {
            self.log = (wall, s.journal.log.clone());
        }
        if chart {
            let points = Depth::series(&s.world().metrics().samples);
            self.chart = (wall, samples_key(s), Rc::new(points));
        }
        if let Some(latest) = fresh_effects(&self.effects, &s.world().ledger().effects) {
            self.effects = Rc::new(latest.to_vec());
        }
    }
}

/// Properties of [`Playground`].
#[derive(Properties)]
pub struct PlaygroundProps {
    /// Whether virtual time follows wall time (off in tests that step by hand).
    #[prop_or(true)]
    pub live: bool,
    /// What to open; `None` reads the page's address.
    #[prop_or_default]
    pub link: Option<Link>,
}

/// Only `live` counts: the link is read once, when the playground mounts (a new one would change
/// nothing), and comparing links would compare whole sessions.
impl PartialEq for PlaygroundProps {
    fn eq(&self, other: &Self) -> bool {
        self.live == other.live
    }
}

impl Default for PlaygroundProps {
    fn default() -> Self {
        PlaygroundProps {
            live: true,
            link: None,
        }
    }
}

/// The playground's state: the session, the view state and what is drawn from them.
#[derive(Clone)]
pub struct State {
    /// The World and its clock. Changed in place (a World is not cheap to copy): every state
    /// shares it, and each action makes a new state for what the components are given.
    session: Rc<RefCell<Session>>,
    ui: Ui,
    /// The stage as drawn now (the next one is built from it: deleted cards fade out).
    stage: Rc<Stage>,
    summaries: Summaries,
    /// The open session's scenario, for the Share panel's scenario file.
    scenario: Rc<Scenario>,
    /// Its story's lines on the clock.
    beats: Rc<Vec<story::Beat>>,
    /// The scenario library, for the picker.
    catalogue: Rc<Vec<scenarios::Entry>>,
    /// `controls=0` is the read-only player: the embed's view, whether framed or not.
    embed: bool,
    /// `live=1`: the page follows the server that served it.
    live: bool,
    /// The panel the page's address opens on.
    tab: Option<Tab>,
    /// `src=`: the scenario file the page's address names, fetched once the page is drawn.
    src: Option<String>,
}

impl State {
    /// The state on what `link` asks for.
    fn open(link: &Link) -> State {
        let session = start_session(link);
        let (scenario, beats) = story_of(&session);
        let mut state = State {
            session: Rc::new(RefCell::new(session)),
            ui: Ui::default(),
            stage: Rc::default(),
            summaries: Summaries::default(),
            scenario,
            beats,
            catalogue: Rc::new(scenarios::catalogue()),
            embed: link.options.embed || !link.options.controls,
            live: link.options.live,
            tab: link.options.tab,
            src: link.options.src.clone(),
        };
        state.redraw();
        state
    }

    /// Builds the stage and the summaries from the session as it is now.
    fn redraw(&mut self) {
        let s = self.session.borrow();
        let shown = self.ui.shown_queue.as_deref();
        self.stage = Rc::new(Stage::showing(s.world(), &s.journal, &self.stage, shown));
        self.summaries.refresh(&s);
    }

    /// Applies an action; returns whether anything shown changed.
    fn apply(&mut self, action: Action) -> bool {
        let mut s = self.session.borrow_mut();
        let (u, stage) = (&mut self.ui, &self.stage);
        let queue = stage
            .queue
            .as_ref()
            .map(|q| q.name.clone())
            .unwrap_or_default();
        match action {
            Action::Frame(wall) => {
                let before = s.drawn();
                s.tick(wall);
                let dragging = matches!(u.gesture, Gesture::Dragging(_));
                return before != s.drawn() || dragging || self.summaries.behind(&s);
            }
            Action::Play => s.play(),
            Action::Lesson(on) => s.set_lesson(on),
            Action::Answer(answer) => s.answer(answer),
            Action::RevealNow => s.reveal_now(),
            Action::Continue => s.carry_on(),
            Action::Live(signal) => {
                s.hear(signal);
                // A new run of the server is a new recording: a new story, fresh view state.
                if self.scenario.seed != s.scenario().seed {
                    u.reset();
                    (self.scenario, self.beats) = story_of(&s);
                }
            }
            Action::Refused { slot, error } => s.refused(slot, error),
            Action::Rename { client, name } => {
                let names = Rc::make_mut(&mut u.names);
                names.retain(|(own, _)| *own != client);
                let name = name.trim();
                if !name.is_empty() && name != client {
                    names.push((client, name.to_string()));
                }
            }
            Action::Pause => s.pause(),
            Action::Step => s.step(),
            Action::Speed(v) => s.set_speed(v),
            Action::Seek(t) => s.seek(t),
            Action::Open(id) => match scenarios::find(&id) {
                Some(scenario) => {
                    s.switch(scenario);
                    u.reset();
                    (self.scenario, self.beats) = story_of(&s);
                    remember_in_url(&id);
                }
                None => return false,
            },
            Action::Import(shared) => match Session::restore(&shared) {
                Ok(fresh) => {
                    *s = fresh;
                    u.reset();
                    (self.scenario, self.beats) = story_of(&s);
                }
                Err(e) => s.report(
                    Slot::Scenario,
                    format!("This session cannot be opened: {e}"),
                ),
            },
            Action::Send(form) => {
                s.send(&queue, &form);
                u.send.body.clear();
            }
            Action::EditSend(form) => u.send = form,
            Action::Type(typed) => {
                u.typed.retain(|t| t.id != typed.id);
                u.typed.push(typed);
            }
            Action::EditPolicy(editing) => {
                u.editing.retain(|e| e.worker != editing.worker);
                u.editing.push(editing);
            }
            Action::SetAttribute { name, value } => {
                // Accepted, the drafts are done with (a later return of the queue to the value they
                // were typed over must not revive them); refused, the field keeps what was typed.
                if s.set_attribute(&queue, &name, value) {
                    u.typed.clear();
                }
            }
            Action::Worker { worker, action } => {
                s.worker_action(&worker, action);
            }
            Action::AddWorker => {
                let workers = s.world().workers();
                let name = next_worker_name(workers.iter().map(|w| w.name.as_str()));
                let policy = workers
                    .iter()
                    .find(|w| w.policy.queue == queue)
                    .or(workers.first())
                    .map(|w| w.policy.clone())
                    .unwrap_or_else(|| scenarios::manual_policy(&queue));
                s.act(
                    Slot::AddWorker,
                    Step::Sim(SimAction::AddWorker { name, policy }),
                );
            }
            Action::Deliver { worker, message_id } => {
                u.pick = None;
                u.note = None;
                s.act(
                    Slot::Deliver,
                    Step::Sim(SimAction::Deliver { worker, message_id }),
                );
            }
            Action::Call { slot, request } => {
                s.call(slot, request);
            }
            Action::ShowQueue(name) => u.shown_queue = Some(name),
            Action::Select(id) => u.selected = id,
            Action::Pick(id) => {
                u.pick = id;
                u.note = None;
            }
            Action::Press(press) => match stage.find(&press.id) {
                Some(card) if card.look == Look::Blocked => u.note = Some(blocked_reason(card)),
                _ => u.gesture = Gesture::Pressed(press),
            },
            Action::PointerMove(at) => match u.gesture.moved(at) {
                Some(next) => u.gesture = next,
                None => return false,
            },
            Action::PointerUp | Action::PointerCancel if u.gesture == Gesture::Idle => {
                return false
            }
            Action::PointerUp => {
                let dropped = std::mem::take(&mut u.gesture).dropped();
                if let Some((worker, message_id)) = dropped {
                    drop(s);
                    return self.apply(Action::Deliver { worker, message_id });
                }
            }
            Action::PointerCancel => u.gesture = Gesture::Idle,
        }
        true
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        if next.apply(action) {
            next.redraw();
            Rc::new(next)
        } else {
            self
        }
    }
}

/// The root's callbacks, made once (so that the components given them see equal properties
/// from one frame to the next): each turns what the user did into an [`Action`].
struct Handlers {
    onaction: Callback<Action>,
    onselect: Callback<String>,
    onpick: Callback<Option<String>>,
    onpress: Callback<Press>,
    ondeliver: Callback<(String, String)>,
    onworker: Callback<(String, SimAction)>,
    oncall: Callback<(String, Request)>,
    oneditpolicy: Callback<Editing>,
    onset: Callback<(String, String)>,
    ontype: Callback<Typed>,
    onopen: Callback<String>,
    onshowqueue: Callback<String>,
    oneditsend: Callback<SendForm>,
    onsend: Callback<SendForm>,
    onimport: Callback<SharedSession>,
    onclosehistory: Callback<()>,
    onplay: Callback<()>,
    onpause: Callback<()>,
    onstep: Callback<()>,
    onspeed: Callback<f64>,
    onseek: Callback<Millis>,
    onlesson: Callback<bool>,
    lesson: LessonCallbacks,
    onframe: Callback<f64>,
    onpointermove: Callback<PointerEvent>,
    onpointerup: Callback<PointerEvent>,
    onpointercancel: Callback<PointerEvent>,
    onhost: Callback<HostCommand>,
    onlive: Callback<Signal>,
    onrename: Callback<(String, String)>,
    onsaverun: Callback<bool>,
    /// The Share panel asks for the session, the events and the samples only when it uses them.
    session: Callback<(), SharedSession>,
    events: Callback<(), Vec<WorldEvent>>,
    samples: Callback<(), Vec<Sample>>,
}

impl Handlers {
    fn new(dispatch: Callback<Action>, session: &Rc<RefCell<Session>>) -> Handlers {
        let on = |action: Action| dispatch.reform(move |()| action.clone());
        Handlers {
            session: reader(session, Session::share),
            events: reader(session, |s| s.journal.events().to_vec()),
            samples: reader(session, |s| s.world().metrics().samples.clone()),
            onselect: dispatch.reform(|id| Action::Select(Some(id))),
            onpick: dispatch.reform(Action::Pick),
            onpress: dispatch.reform(Action::Press),
            ondeliver: dispatch
                .reform(|(worker, message_id)| Action::Deliver { worker, message_id }),
            onworker: dispatch.reform(|(worker, action)| Action::Worker { worker, action }),
            oncall: dispatch.reform(|(worker, request)| Action::Call {
                slot: Slot::Worker(worker),
                request,
            }),
            oneditpolicy: dispatch.reform(Action::EditPolicy),
            onset: dispatch.reform(|(name, value)| Action::SetAttribute { name, value }),
            ontype: dispatch.reform(Action::Type),
            onopen: dispatch.reform(Action::Open),
            onshowqueue: dispatch.reform(Action::ShowQueue),
            oneditsend: dispatch.reform(Action::EditSend),
            onsend: dispatch.reform(Action::Send),
            onimport: dispatch.reform(Action::Import),
            onclosehistory: on(Action::Select(None)),
            onplay: on(Action::Play),
            onpause: on(Action::Pause),
            onstep: on(Action::Step),
            onspeed: dispatch.reform(Action::Speed),
            onseek: dispatch.reform(Action::Seek),
            onlesson: dispatch.reform(Action::Lesson),
            lesson: LessonCallbacks {
                onanswer: dispatch.reform(Action::Answer),
                onreveal: on(Action::RevealNow),
                oncontinue: on(Action::Continue),
            },
            onframe: dispatch.reform(Action::Frame),
            onpointermove: dispatch.reform(|e: PointerEvent| {
                Action::PointerMove((e.client_x() as f64, e.client_y() as f64))
            }),
            onpointerup: dispatch.reform(|_| Action::PointerUp),
            onpointercancel: dispatch.reform(|_| Action::PointerCancel),
            onhost: dispatch.reform(|command| match command {
                HostCommand::Play => Action::Play,
                HostCommand::Pause => Action::Pause,
                HostCommand::Step => Action::Step,
                HostCommand::Seek(t) => Action::Seek(t),
                HostCommand::Load(id) => Action::Open(id),
            }),
            onlive: dispatch.reform(Action::Live),
            onrename: dispatch.reform(|(client, name)| Action::Rename { client, name }),
            onsaverun: save_run(session, dispatch.clone()),
            onaction: dispatch,
        }
    }
}

/// "Save as scenario" in live mode: the run recorded (or the one before the server started
/// again) as a scenario file; a failure shows by the scenario picker.
fn save_run(session: &Rc<RefCell<Session>>, dispatch: Callback<Action>) -> Callback<bool> {
    let session = session.clone();
    Callback::from(move |previous: bool| {
        let s = session.borrow();
        let shared = match previous {
            true => s.previous_run().cloned(),
            false => Some(s.recorded()),
        };
        let Some(shared) = shared else { return };
        let saved = shared.resolve(scenarios::find).and_then(|scenario| {
            let text = crate::share::export::session_file_text(&shared, &scenario);
            crate::share::browser::download("sqs-sim-recording.json", "application/json", &text)
        });
        if let Err(error) = saved {
            dispatch.emit(Action::Refused {
                slot: Slot::Scenario,
                error,
            });
        }
    })
}

/// A callback that answers with what `read` reads from the session when it is called.
fn reader<T: 'static>(session: &Rc<RefCell<Session>>, read: fn(&Session) -> T) -> Callback<(), T> {
    let session = session.clone();
    Callback::from(move |()| read(&session.borrow()))
}

/// What the root does after a render: glide the cards that changed place, focus the hand-over
/// bar when it opens, and tell a host page, once, that the player is ready.
#[derive(Default)]
struct AfterRender {
    /// The placement ([`placement`]) the cards last glided to, and their positions then.
    placement: Option<u64>,
    positions: flip::Positions,
    /// The message whose hand-over bar was open.
    picked: Option<String>,
    /// The question shown (its number) and its phase, when the focus last moved for it.
    question: Option<(usize, &'static str)>,
    /// Whether the host page was told the player is ready.
    announced: bool,
}

impl AfterRender {
    /// After a render that drew `placement` and the hand-over bar of `picked` (if any), under
    /// `container`; `ready` names the scenario when a host page listens.
    fn run(
        &mut self,
        container: &NodeRef,
        placement: u64,
        picked: Option<String>,
        question: Option<(usize, &'static str)>,
        ready: Option<String>,
    ) {
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
                Some((_, "asking")) => Some(".lesson"),
                Some((_, "revealed")) => Some(".lesson .primary"),
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

/// The settings whose refusals show by their field.
const SETTINGS: [&str; 6] = [
    "VisibilityTimeout",
    "DelaySeconds",
    "ReceiveMessageWaitTimeSeconds",
    "MessageRetentionPeriod",
    "RedrivePolicy",
    "ContentBasedDeduplication",
];

/// The root component. See the module documentation.
#[component]
pub fn Playground(props: &PlaygroundProps) -> Html {
    let state = use_reducer({
        let link = props.link.clone();
        move || State::open(&link.unwrap_or_else(Link::of_page))
    });
    let on = use_memo((), {
        let (dispatcher, session) = (state.dispatcher(), state.session.clone());
        move |_| Handlers::new(dispatcher.to_callback(), &session)
    });
    // Inside a frame, the host page hears every event and may drive the clock.
    let host = *use_memo((), |_| bridge::framed());
    let onframe = use_memo((), {
        let (session, onframe) = (state.session.clone(), on.onframe.clone());
        // Events posted to the host page so far ([`relay`]).
        let posted = RefCell::new(0);
        move |_| {
            Callback::from(move |wall: f64| {
                if host {
                    relay(&session.borrow().journal, &mut posted.borrow_mut(), None);
                }
                onframe.emit(wall);
            })
        }
    });
    bridge::use_host_commands(on.onhost.clone());
    // `src=`: the default scenario shows while the file comes; it opens when read (as Import
    // reads a file), or the picker names what is wrong with it.
    use_effect_with(state.src.clone(), {
        let dispatch = on.onaction.clone();
        move |src| {
            if let Some(src) = src.clone() {
                wasm_bindgen_futures::spawn_local(async move {
                    let read = crate::share::browser::fetch_text(&src)
                        .await
                        .and_then(|text| {
                            crate::share::export::import(&text).map_err(|e| {
                                format!("The scenario file {src} cannot be opened: {e}")
                            })
                        });
                    dispatch.emit(match read {
                        Ok(session) => Action::Import(session),
                        Err(error) => Action::Refused {
                            slot: Slot::Scenario,
                            error,
                        },
                    });
                });
            }
        }
    });
    live::stream::use_live_stream(state.live, on.onlive.clone());
    // Live mode: the requests the last action made go to the server; a refusal comes back.
    use_effect({
        let (session, onaction) = (state.session.clone(), on.onaction.clone());
        move || {
            for outgoing in session.borrow_mut().take_outbox() {
                let onaction = onaction.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    if let Err(error) = live::stream::send(&outgoing).await {
                        let slot = outgoing.slot();
                        onaction.emit(Action::Refused { slot, error });
                    }
                });
            }
        }
    });
    frame::use_frame_loop(props.live, (*onframe).clone());
    // The panel open below the stage (view state of the page, not of the session).
    let chosen_tab = use_state(|| None::<Tab>);
    let on_tab = use_callback(chosen_tab.setter(), |tab: Tab, chosen| {
        chosen.set(Some(tab))
    });
    let container = use_node_ref();
    let after = use_mut_ref(AfterRender::default);

    let s = state.session.borrow();
    let (u, stage, embed) = (&state.ui, &*state.stage, state.embed);
    let workers: Vec<String> = stage.lanes.iter().map(|l| l.worker.name.clone()).collect();
    let pick = u
        .pick
        .as_ref()
        .and_then(|id| stage.queued.cards.iter().find(|c| &c.id == id))
        .map(|card| (card.clone(), workers));
    let panel = s.lesson_view();
    let question = match &panel {
        Some(Panel::Question(asked)) => Some((asked.number, asked.phase.key())),
        _ => None,
    };
    use_effect({
        let (after, container) = (after.clone(), container.clone());
        let (placed, picked) = (placement(stage), pick.as_ref().map(|(c, _)| c.id.clone()));
        let ready = host.then(|| s.scenario().id.clone());
        move || {
            after
                .borrow_mut()
                .run(&container, placed, picked, question, ready)
        }
    });
    // What the revealed answer points at on the stage.
    let proof = match &panel {
        Some(Panel::Question(asked)) => match &asked.phase {
            Phase::Revealed(reveal) => reveal.proof.clone(),
            _ => Proof::default(),
        },
        _ => Proof::default(),
    };
    let proves_queue = |name: Option<&str>| proof.queue.is_some() && proof.queue.as_deref() == name;

    // Pointer drags are followed on the whole playground, so a drop anywhere ends them. The
    // listeners are always there: a press and the moves after it may come in one task, before
    // the press is drawn.
    let pressed = u.gesture != Gesture::Idle;

    let queue_url = stage
        .queue
        .as_ref()
        .map(|q| s.queue_url(&q.name))
        .unwrap_or_default();
    let over = match &u.gesture {
        Gesture::Dragging(d) => d.over.as_deref(),
        _ => None,
    };
    let setting_errors: Vec<(String, String)> = SETTINGS
        .iter()
        .filter_map(|n| {
            let e = s.error(&Slot::Setting(n.to_string()))?;
            Some((n.to_string(), e.to_string()))
        })
        .collect();
    let dlq_arn = stage
        .dlq
        .as_deref()
        .and_then(|d| s.world().engine().queue_arn(d));
    let note = u
        .note
        .clone()
        .or_else(|| s.error(&Slot::Deliver).map(str::to_string));
    let scenario = s.scenario();
    let producer = html! {
        <Producer next_body={s.next_body()} fifo={stage.queue.as_ref().is_some_and(|q| q.fifo)}
            form={u.send.clone()} error={s.error(&Slot::Send).map(str::to_string)}
            onedit={on.oneditsend.clone()} onsend={on.onsend.clone()} />
    };
    // A sandbox has no script: its producer (you) stands on the stage, by the queue it sends
    // to. An embed shows the story and the stage, not the editing panels.
    let sandbox = s.end() == 0;
    let add_worker = on.onaction.reform(|_: MouseEvent| Action::AddWorker);
    let beats = state.beats.clone();
    let current = story::current(&beats, stage.now);
    let live = s.live_state();
    let idle = match (sandbox, stage.now >= s.end(), s.playing()) {
        _ if live.is_some() => Idle::Live,
        (true, _, _) => Idle::Sandbox,
        (false, true, _) => Idle::Over,
        (false, false, true) => Idle::Playing,
        (false, false, false) if stage.now == 0 => Idle::Scenario,
        (false, false, false) => Idle::Paused,
    };
    let lanes = stage.lanes.len();
    // Up to four lanes in two columns (one row for two); more in three, then four columns.
    let cols = match lanes {
        0 | 1 => 1,
        2..=4 => 2,
        5 | 6 | 9 => 3,
        _ => 4,
    };
    let rows = lanes.div_ceil(cols).max(1);
    let dlq = html! {
        <DeadLetterQueue name={stage.dlq.clone()} place={stage.dead.clone()}
            max_receives={max_receives(stage)}
            proof={proof.messages.clone()} proves={proves_queue(stage.dlq.as_deref())}
            selected={u.selected.clone()} onselect={on.onselect.clone()} />
    };

    // The panels below the stage, one open at a time. A scenario without a dead-letter queue
    // says how to give it one under Settings; a scripted scenario's producer has its own tab
    // (the sandbox's is on the stage).
    let mut panels = vec![
        (
            Tab::Log,
            html! { <EventLog log={state.summaries.log.1.clone()} names={u.names.clone()} onselect={on.onselect.clone()} /> },
        ),
        (
            Tab::Story,
            html! { <Story title={scenario.title.clone()} narrative={scenario.narrative.clone()} beats={beats.clone()} current={current.clone()} /> },
        ),
        (
            Tab::Depth,
            html! { <DepthChart points={state.summaries.chart.2.clone()} /> },
        ),
        (
            Tab::Effects,
            html! { <Ledger effects={state.summaries.effects.clone()} /> },
        ),
    ];
    if !embed {
        panels.push((
            Tab::Settings,
            html! {
                <>
                    <Settings queue={stage.queue.clone()} {dlq_arn} errors={setting_errors}
                        typed={u.typed.clone()} onset={on.onset.clone()} ontype={on.ontype.clone()}
                        onopen={on.onopen.clone()} />
                    if stage.dlq.is_none() { { dlq.clone() } }
                </>
            },
        ));
        if !sandbox {
            panels.push((Tab::Producer, producer.clone()));
        }
        panels.push((
            Tab::Share,
            html! {
                <Share
                    session={on.session.clone()}
                    scenario={state.scenario.clone()}
                    queue={queue_spec(stage)}
                    events={on.events.clone()}
                    samples={on.samples.clone()}
                    onimport={on.onimport.clone()} />
            },
        ));
    }

    // The tab picked, else the one the address named, else the first.
    let tabs: Vec<Tab> = panels.iter().map(|(t, _)| *t).collect();
    let open = [*chosen_tab, state.tab]
        .into_iter()
        .flatten()
        .find(|t| tabs.contains(t))
        .unwrap_or(Tab::Log);

    html! {
        <div class={classes!("playground", pressed.then_some("dragging"), embed.then_some("embed"))} ref={container}
            onpointermove={on.onpointermove.clone()} onpointerup={on.onpointerup.clone()}
            onpointercancel={on.onpointercancel.clone()}>
            <div class="screen">
                <header class="topbar">
                    <h1 class="brand">{ "SQS Playground" }</h1>
                    <ScenarioPicker entries={state.catalogue.clone()}
                        current={scenarios::Entry { id: scenario.id.clone(), title: scenario.title.clone() }}
                        error={s.error(&Slot::Scenario).map(str::to_string)}
                        onopen={on.onopen.clone()} />
                    if let Some(live) = live {
                        <LiveBadge address={live.address.clone()} connection={live.connection}
                            paused={live.clock.paused}
                            previous={s.previous_run().is_some()} onsave={on.onsaverun.clone()} />
                    }
                    if s.lesson().has_questions() && !embed {
                        { lesson_switch(s.lesson().on(), scenario.questions.len(), &on.onlesson) }
                    }
                    if !embed && !sandbox && sqs_sim::scenario::find(&scenario.id).is_some() {
                        <a class="button compare-open" href={crate::compare::href(&scenario.id, [&Default::default(); 2], None)}>
                            { "Compare" }
                        </a>
                    }
                    <Controls now={stage.now} horizon={s.horizon()} playing={s.playing()} speed={s.speed()}
                        held={s.lesson().open().is_some()}
                        error={s.error(&Slot::Clock).map(str::to_string)}
                        beats={beats.clone()} current={current.clone()}
                        onplay={on.onplay.clone()} onpause={on.onpause.clone()} onstep={on.onstep.clone()}
                        onspeed={on.onspeed.clone()} onseek={on.onseek.clone()} />
                </header>
                // A question (or the lesson's score) takes the story line's place while it shows.
                if let Some(panel) = &panel {
                    { lesson_view(panel, &on.lesson) }
                } else {
                    <StoryLine title={scenario.title.clone()} beats={beats.clone()} current={current.clone()} />
                }
                <main class={classes!("stage", stage.dlq.is_some().then_some("with-dlq"))}>
                    <div class="stage-queue">
                        if !embed && sandbox { { producer } }
                        if let Some(shown) = stage.queue.as_ref().filter(|_| !stage.queues.is_empty()) {
                            <QueueSwitch queues={stage.queues.clone()} shown={shown.name.clone()}
                                onshow={on.onshowqueue.clone()} />
                        }
                        <Queue queue={stage.queue.clone()} place={stage.queued.clone()} crowd={stage.crowd}
                            proof={proof.messages.clone()} proves={proves_queue(stage.queue.as_ref().map(|q| q.name.as_str()))}
                            leaving={stage.leaving.clone()} unheld={stage.unheld.clone()} {idle}
                            selected={u.selected.clone()} {pick} {note}
                            editable={!embed && live.is_none()} onselect={on.onselect.clone()} onpick={on.onpick.clone()}
                            onpress={on.onpress.clone()} ondeliver={on.ondeliver.clone()} />
                    </div>
                    <section class={classes!("panel", "workers", stage.crowd.is_some().then_some("crowded"))}
                        aria-label="Workers">
                        <header class="panel-head">
                            <h2>{ "Workers" }</h2>
                            if !embed && live.is_none() {
                                <button onclick={add_worker}>{ "Add worker" }</button>
                            }
                        </header>
                        { error(s.error(&Slot::AddWorker)) }
                        if live.is_some() && stage.lanes.is_empty() {
                            <p class="empty">{ "No consumer yet: a client gets a lane here with its first ReceiveMessage." }</p>
                        }
                        <div class={classes!("lanes", (rows > 1 && cols > 2).then_some("dense"))}
                            style={format!("--cols: {cols}; --rows: {rows}")}>
                            for lane in &stage.lanes {
                                <WorkerLane
                                    key={lane.worker.name.clone()}
                                    lane={lane.clone()}
                                    queue_url={queue_url.clone()}
                                    over={over == Some(lane.worker.name.as_str())}
                                    proof={proof.messages.clone()}
                                    proves={proof.worker.as_ref() == Some(&lane.worker.name)}
                                    selected={u.selected.clone()}
                                    error={s.error(&Slot::Worker(lane.worker.name.clone())).map(str::to_string)}
                                    editing={u.editing.iter().find(|e| e.worker == lane.worker.name).cloned()}
                                    editable={!embed}
                                    shown_name={u.names.iter().find(|(own, _)| *own == lane.worker.name).map(|(_, n)| n.clone())}
                                    onrename={on.onrename.clone()}
                                    onselect={on.onselect.clone()}
                                    onworker={on.onworker.clone()}
                                    oncall={on.oncall.clone()}
                                    oneditpolicy={on.oneditpolicy.clone()}
                                />
                            }
                        </div>
                    </section>
                    if stage.dlq.is_some() { { dlq.clone() } }
                </main>
                <Counters tally={tally(&s)} />
            </div>
            if let Some(id) = &u.selected {
                <History
                    title={stage.find(id).map_or_else(|| id.clone(), |c| c.body.clone())}
                    entries={s.journal.history(id).to_vec()}
                    onclose={on.onclosehistory.clone()} />
            }
            <div class="tabs">
                <TabList tabs={tabs} {open} onselect={on_tab} />
                for (tab, content) in panels {
                    { tab_panel(tab, open, content) }
                }
            </div>
            <div class="visually-hidden" role="status" aria-live="polite">
                { s.journal.announcement() }
            </div>
            if let Gesture::Dragging(d) = &u.gesture {
                // The card being dragged, following the pointer.
                <div class="drag-ghost" aria-hidden="true"
                    style={format!("transform: translate({}px, {}px)", d.at.0 as i32 + 8, d.at.1 as i32 + 8)}>
                    { &d.body }
                </div>
            }
        </div>
    }
}

/// "Worker N" with N one more than the highest number in use.
fn next_worker_name<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let highest = names
        .filter_map(|n| n.strip_prefix("Worker ")?.parse::<u32>().ok())
        .max()
        .unwrap_or(0);
    format!("Worker {}", highest + 1)
}

/// A fingerprint of which message is in which place: when it changes, cards glide.
fn placement(stage: &Stage) -> u64 {
    let mut h = DefaultHasher::new();
    let places = [&stage.queued, &stage.unheld, &stage.dead];
    for (i, place) in places
        .into_iter()
        .chain(stage.lanes.iter().map(|l| &l.place))
        .enumerate()
    {
        for card in &place.cards {
            (i, &card.id, card.look == Look::Stale).hash(&mut h);
        }
    }
    h.finish()
}

/// How many lines `log` has that `drawn` has not (0 after a rewind, which restarts the count).
fn new_lines(drawn: &Versioned<Vec<Entry>>, log: &Versioned<Vec<Entry>>) -> u64 {
    let last = |l: &Versioned<Vec<Entry>>| l.data.last().map_or(0, |e| e.seq);
    last(log).saturating_sub(last(drawn))
}

/// Which samples the World holds: how many, and the latest's time (they are folded, so the
/// count alone can repeat).
fn samples_key(s: &Session) -> (usize, Millis) {
    let samples = &s.world().metrics().samples;
    (samples.len(), samples.last().map_or(0, |x| x.at))
}

/// The ledger's latest [`ledger::SHOWN`] effects, if they are not the ones `drawn`.
fn fresh_effects<'a>(drawn: &[Effect], ledger: &'a [Effect]) -> Option<&'a [Effect]> {
    let latest = &ledger[ledger.len().saturating_sub(ledger::SHOWN)..];
    (drawn != latest).then_some(latest)
}

fn tally(s: &Session) -> Tally {
    let m = s.world().metrics();
    Tally {
        deliveries: m.deliveries,
        redeliveries: m.redeliveries,
        duplicates: m.duplicate_effects,
        prevented: m.prevented_effects,
        dead_lettered: m.dead_lettered,
        api_calls: m.api_calls_total(),
        cost_usd: m.cost_usd(),
        by_action: m
            .api_calls()
            .iter()
            .map(|(a, n)| format!("{a} {n}"))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// The queue as the Share panel's code snippets create it: its settable attributes and its
/// dead-letter queue.
fn queue_spec(stage: &Stage) -> Option<QueueSpec> {
    const SETTABLE: [&str; 9] = [
        "VisibilityTimeout",
        "DelaySeconds",
        "ReceiveMessageWaitTimeSeconds",
        "MessageRetentionPeriod",
        "MaximumMessageSize",
        "FifoQueue",
        "ContentBasedDeduplication",
        "DeduplicationScope",
        "FifoThroughputLimit",
    ];
    let queue = stage.queue.as_ref()?;
    let attributes = SETTABLE
        .iter()
        .filter_map(|n| Some((n.to_string(), queue.attribute(n)?.to_string())))
        .collect();
    let dead_letter = stage.dlq.clone().zip(max_receives(stage));
    Some(QueueSpec {
        name: queue.name.clone(),
        attributes,
        dead_letter,
    })
}

/// The session's scenario, and its story's lines on the clock.
fn story_of(s: &Session) -> (Rc<Scenario>, Rc<Vec<story::Beat>>) {
    let scenario = s.scenario().clone();
    let beats = story::beats(&scenario.watch, s.end());
    (Rc::new(scenario), Rc::new(beats))
}

/// The queue's RedrivePolicy maxReceiveCount, as set.
pub fn max_receives(stage: &Stage) -> Option<u32> {
    let policy = stage.queue.as_ref()?.attribute("RedrivePolicy")?;
    let policy = serde_json::from_str::<serde_json::Value>(policy).ok()?;
    let v = policy.get("maxReceiveCount")?;
    let n = v.as_u64().or_else(|| v.as_str()?.parse().ok())?;
    u32::try_from(n).ok()
}

/// Posts to the host page every event recorded since the last post (a rewind starts a new
/// timeline: its count restarts), as comparison copy `copy`'s if named.
pub(crate) fn relay(journal: &journal::Journal, posted: &mut u64, copy: Option<&str>) {
    let fresh = journal.seen().saturating_sub(*posted) as usize;
    let events = journal.events();
    for event in &events[events.len().saturating_sub(fresh)..] {
        bridge::post(&embed::event_message(event, copy));
    }
    *posted = journal.seen();
}

/// The session a link asks for: a permalink's session, else its scenario (the sandbox if none
/// or unknown) at its speed and start time, playing if asked. What cannot be honoured is said
/// by the scenario picker.
fn start_session(link: &Link) -> Session {
    apply_theme(link.options.theme);
    let o = &link.options;
    let sandbox = || {
        Session::open(scenarios::sandbox(false))
            .unwrap_or_else(|e| panic!("the sandbox does not load: {e}"))
    };
    let mut problems = link.warnings.clone();
    let mut session = match &link.session {
        _ if o.live => Session::live(&page_host()),
        Some(Ok(shared)) => Session::restore(shared).unwrap_or_else(|e| {
            problems.push(format!("This link cannot be opened: {e}"));
            sandbox()
        }),
        Some(Err(e)) => {
            problems.push(format!("This link cannot be opened: {e}"));
            sandbox()
        }
        None => {
            let wanted = o.scenario.as_deref().unwrap_or(scenarios::SANDBOX);
            let found = scenarios::find(wanted).and_then(|s| Session::open(s).ok());
            found.unwrap_or_else(|| {
                problems.push(format!(
                    "There is no scenario \"{wanted}\": this is the sandbox."
                ));
                sandbox()
            })
        }
    };
    if let Some(speed) = o.speed {
        session.set_speed(speed);
    }
    if let Some(t) = o.start_at {
        session.seek(t);
    }
    // After the seek: `t=` opens at its moment, the questions before it not asked.
    if let Some(lesson) = o.lesson {
        session.set_lesson(lesson);
    }
    if o.autoplay {
        session.play();
    }
    if !problems.is_empty() {
        session.report(Slot::Scenario, problems.join(" "));
    }
    session
}

/// The page's host and port (`127.0.0.1:9324`): the server a live page follows.
fn page_host() -> String {
    web_sys::window()
        .and_then(|w| w.location().host().ok())
        .unwrap_or_default()
}

/// `theme=light|dark` forces a theme; otherwise the system's preference rules.
pub fn apply_theme(theme: Option<Theme>) {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element());
    if let (Some(root), Some(theme)) = (root, theme) {
        let name = match theme {
            Theme::Light => "light",
            Theme::Dark => "dark",
        };
        let _ = root.set_attribute("data-theme", name);
    }
}

/// Puts the open scenario in the address bar, so the page can be shared or reloaded (with the
/// open panel's tab, if the address names one).
fn remember_in_url(id: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let tab = window
        .location()
        .search()
        .ok()
        .and_then(|q| LaunchOptions::parse(&q).0.tab)
        .map(|t| format!("&tab={}", t.key()))
        .unwrap_or_default();
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("?scenario={id}{tab}")),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn effect(n: u32) -> Effect {
        Effect {
            at: u64::from(n),
            worker: "Worker 1".into(),
            name: "charge".into(),
            message_id: format!("m{n}").as_str().into(),
            body: format!("order-{n}").as_str().into(),
            attempt: 1,
            prevented: false,
            duplicate: false,
        }
    }

    #[test]
    fn the_ledger_panel_sees_a_change_that_keeps_the_count() {
        let ledger: Vec<Effect> = (0..100).map(effect).collect();
        let drawn = fresh_effects(&[], &ledger).expect("new effects").to_vec();
        assert_eq!(drawn.len(), ledger::SHOWN);
        assert_eq!(drawn.last(), ledger.last());
        assert_eq!(fresh_effects(&drawn, &ledger), None);
        // As many effects as before (the ledger folded its oldest, or a rewind replayed another
        // past), but the latest is another one.
        let mut folded = ledger.clone();
        folded.remove(0);
        folded.push(effect(100));
        assert_eq!(folded.len(), ledger.len());
        assert_eq!(
            fresh_effects(&drawn, &folded).and_then(<[_]>::last),
            folded.last()
        );
    }

    #[test]
    fn new_lines_count_from_the_last_drawn() {
        let mut journal = journal::Journal::default();
        let drawn = journal.log.clone();
        let event = |at| sqs_sim::WorldEvent {
            at,
            actor: sqs_sim::Actor::Sqs,
            action: None,
            message_id: None,
            engine: None,
            text: "tick".into(),
        };
        journal.record((0..3).map(event).collect(), 0.0, false);
        assert_eq!(new_lines(&drawn, &journal.log), 3);
        assert_eq!(new_lines(&journal.log, &journal.log), 0);
        // After a rewind the journal starts again: nothing counts as new.
        assert_eq!(new_lines(&journal.log, &journal::Journal::default().log), 0);
    }

    #[test]
    fn worker_names_count_up() {
        assert_eq!(
            next_worker_name(["Worker 1", "Worker 2"].into_iter()),
            "Worker 3"
        );
        assert_eq!(next_worker_name(["Worker A"].into_iter()), "Worker 1");
        assert_eq!(
            next_worker_name(["Worker 7", "Worker 3"].into_iter()),
            "Worker 8"
        );
    }
}
