//! The playground: a thin view over `sqs-sim`'s World. The root component owns one [`Session`]
//! (the World and the clock), draws a [`Stage`] built from it on every animation frame, and
//! turns what the user does into [`Action`]s: World steps (SQS calls and simulation actions) or
//! view state (selection, drag). No SQS rule lives in a component: the engine and the World
//! decide; errors they return are shown next to the control that caused them.

pub mod components;
pub mod drag;
pub mod flip;
pub mod format;
pub mod frame;
pub mod journal;
pub mod link;
pub mod scenarios;
pub mod session;
pub mod stage;

use crate::share::bridge;
use crate::share::embed::{self, HostCommand};
use crate::share::launch::Theme;
use crate::share::panel::{share_panel, ShareChange, SharePanelProps, ShareState};
use crate::share::session::Session as SharedSession;
use crate::share::snippets::QueueSpec;
use components::chart::{depth_chart, Depth};
use components::controls::{controls, ControlsProps};
use components::counters::{counters, Tally};
use components::dlq::{dead_letter_panel, DlqProps};
use components::el::{el, Attr};
use components::event_log::event_log;
use components::history::{history, HistoryProps};
use components::ledger::{self, ledger_panel};
use components::queue::{blocked_reason, queue_panel, QueueProps};
use components::scenario_picker::{scenario_picker, story, PickerProps};
use components::send_form::{send_panel, SendProps};
use components::settings::{settings, SettingsProps, Typed};
use components::worker_lane::WorkerLane;
use components::worker_policy::Editing;
use drag::{Gesture, Press};
use journal::{Entry, Versioned};
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
    /// The Share panel's link, status or language.
    Share(ShareChange),
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
    /// Select a message (its history opens), or none.
    Select(Option<String>),
    /// Open (or close) the keyboard hand-over bar for a waiting message.
    Pick(Option<String>),
    /// A press on a waiting message (may become a drag).
    Press(Press, Look),
}

/// View state that is not the World's.
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
    /// The Share panel's link, status and language (they outlive an import, which it reports).
    share: ShareState,
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
            share: ShareState::default(),
            send: SendForm {
                group_id: "g1".into(),
                ..SendForm::default()
            },
        }
    }
}

impl Ui {
    /// Forgets the view state of the session that is closing, except the send form and the
    /// Share panel's state (drafts of settings and policies belong to the old queue and lanes).
    fn reset(&mut self) {
        use std::mem::take;
        *self = Ui {
            send: take(&mut self.send),
            share: take(&mut self.share),
            ..Ui::default()
        };
    }
}

/// What a pointer event does to the gesture; a drop returns the (worker, message) to deliver.
type PointerStep = fn(&mut Ui, (f64, f64)) -> Option<(String, String)>;

/// While the clock runs, the event log and the depth chart redraw at most this often (wall
/// milliseconds): at high speed more lines arrive every frame than the log shows, and redrawing
/// them and the chart 60 times a second is both a blur to read and most of a frame's work. So at
/// high speed the log can trail the clock by up to this much wall time.
const SUMMARY_REFRESH_MS: f64 = 250.0;
/// New log lines drawn at once, in the frame they happen, while the clock runs: at a speed that
/// brings this few a frame the log keeps up with the clock (a handful of lines cost little);
/// more wait for [`SUMMARY_REFRESH_MS`].
const LOG_LINES_AT_ONCE: u64 = 4;

/// Last frame's derived data, kept so that unchanged lists are not rebuilt or re-diffed.
#[derive(Default)]
struct Cache {
    stage: Stage,
    /// The event log as drawn, and the wall time it was brought up to date.
    log: (f64, Versioned<Vec<Entry>>),
    /// The chart as drawn: when, from which samples ([`samples_key`]), its points.
    chart: (f64, (usize, Millis), Versioned<Vec<Depth>>),
    /// The scenario, shared with the Share panel: copied once per opened session (opening a
    /// scenario or importing a session forgets it).
    scenario: Option<Rc<Scenario>>,
    /// The ledger's effects as drawn: the latest [`ledger::SHOWN`].
    effects: Versioned<Vec<Effect>>,
    /// The event log, the chart and the ledger panels as drawn, and from what.
    log_panel: Drawn<Versioned<Vec<Entry>>>,
    chart_panel: Drawn<Versioned<Vec<Depth>>>,
    ledger_panel: Drawn<Versioned<Vec<Effect>>>,
}

/// A panel as drawn and what it was drawn from: drawn again only when that changes (the panels
/// are functions, not components, which the bundle pays for one by one).
type Drawn<K> = Option<(K, Html)>;

/// `slot`'s panel if it was drawn from `from`, else `draw`n from it (and kept).
fn drawn<K: PartialEq>(slot: &mut Drawn<K>, from: K, draw: impl FnOnce(&K) -> Html) -> Html {
    match slot {
        Some((was, html)) if *was == from => html.clone(),
        _ => {
            let html = draw(&from);
            slot.insert((from, html)).1.clone()
        }
    }
}

impl Cache {
    /// Whether the log or the chart shows less than the session holds.
    fn behind(&self, s: &Session) -> bool {
        self.log.1 != s.journal.log || self.chart.1 != samples_key(s)
    }

    /// Brings the log and the chart up to date: at once when the clock is stopped; while it
    /// runs, each at most every [`SUMMARY_REFRESH_MS`] and not both in one frame, which would
    /// make that frame a long one (the frame loop redraws while one is behind).
    fn refresh_summaries(&mut self, s: &Session) {
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
            let samples = &s.world().metrics().samples;
            self.chart.0 = wall;
            self.chart.1 = samples_key(s);
            self.chart.2.update(|v| *v = Depth::series(samples));
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

/// What the playground holds from mount to unmount, made once by one hook (each hook type is
/// its own code in the bundle).
struct Held {
    session: Rc<RefCell<Session>>,
    ui: Rc<RefCell<Ui>>,
    cache: Rc<RefCell<Cache>>,
    /// `controls=0` is the read-only player: the embed's view, whether framed or not.
    embed: bool,
    /// Inside a frame, the host page hears every event and may drive the clock.
    host: bool,
    /// The scenario library, for the picker.
    catalogue: Vec<scenarios::Entry>,
    /// What is done after each render.
    after: Rc<RefCell<AfterRender>>,
    /// Applies an [`Action`] and draws again if anything changed.
    dispatch: Callback<Action>,
    /// Moves the clock to an animation frame's wall time.
    on_frame: Callback<f64>,
    /// The Share panel asks for the session, the events and the samples only when it uses them.
    shared: Callback<(), SharedSession>,
    events: Callback<(), Vec<WorldEvent>>,
    all_samples: Callback<(), Vec<Sample>>,
    /// Opens an imported session.
    on_import: Callback<SharedSession>,
}

impl Held {
    /// Opens what `link` asks for; `redraw` draws the playground again.
    fn open(link: &Link, redraw: UseForceUpdateHandle) -> Held {
        let session = Rc::new(RefCell::new(start_session(link)));
        let (ui, cache) = (
            Rc::<RefCell<Ui>>::default(),
            Rc::<RefCell<Cache>>::default(),
        );
        // Events posted to the host page so far ([`relay`]).
        let posted = Rc::new(RefCell::new(0));
        let host = bridge::framed();
        let dispatch = Callback::from({
            let (session, ui, cache, redraw) =
                (session.clone(), ui.clone(), cache.clone(), redraw.clone());
            move |action: Action| {
                let opens = matches!(action, Action::Open(_));
                let changed = {
                    let mut s = session.borrow_mut();
                    let mut u = ui.borrow_mut();
                    handle(&mut s, &mut u, &cache.borrow().stage, action)
                };
                if opens {
                    cache.borrow_mut().scenario = None;
                }
                if changed {
                    redraw.force_update();
                }
            }
        });

        let on_frame = Callback::from({
            let (session, ui, cache, redraw) =
                (session.clone(), ui.clone(), cache.clone(), redraw.clone());
            let posted = posted.clone();
            move |wall: f64| {
                if host {
                    relay(&session.borrow().journal, &mut posted.borrow_mut());
                }
                let mut s = session.borrow_mut();
                let before = (
                    s.now(),
                    s.journal.log.rev,
                    s.journal.departures.len(),
                    s.journal.announcement().len(),
                );
                s.tick(wall);
                let after = (
                    s.now(),
                    s.journal.log.rev,
                    s.journal.departures.len(),
                    s.journal.announcement().len(),
                );
                let dragging = matches!(ui.borrow().gesture, Gesture::Dragging(_));
                let behind = cache.borrow().behind(&s);
                drop(s);
                if before != after || dragging || behind {
                    redraw.force_update();
                }
            }
        });
        // The Share panel asks for the session, the events and the samples only when it uses them.
        let shared = Callback::from({
            let session = session.clone();
            move |()| session.borrow().share()
        });
        let events = Callback::from({
            let session = session.clone();
            move |()| session.borrow().journal.events().to_vec()
        });
        let all_samples = Callback::from({
            let session = session.clone();
            move |()| session.borrow().world().metrics().samples.clone()
        });
        let on_import = Callback::from({
            let (session, ui, cache, redraw) =
                (session.clone(), ui.clone(), cache.clone(), redraw.clone());
            move |shared: SharedSession| {
                let restored = Session::restore(&shared);
                let mut s = session.borrow_mut();
                match restored {
                    Ok(fresh) => {
                        *s = fresh;
                        ui.borrow_mut().reset();
                        cache.borrow_mut().scenario = None;
                    }
                    Err(e) => s.report(
                        Slot::Scenario,
                        format!("This session cannot be opened: {e}"),
                    ),
                }
                drop(s);
                redraw.force_update();
            }
        });

        Held {
            session,
            ui,
            cache,
            embed: link.options.embed || !link.options.controls,
            host,
            catalogue: scenarios::catalogue(),
            after: Rc::default(),
            dispatch,
            on_frame,
            shared,
            events,
            all_samples,
            on_import,
        }
    }
}

/// What the root does after a render, in one effect (each effect is its own code in the bundle):
/// glide the cards that changed place, focus the hand-over bar when it opens, and tell a host
/// page, once, that the player is ready.
#[derive(Default)]
struct AfterRender {
    /// The placement ([`placement`]) the cards last glided to, and their positions then.
    placement: Option<u64>,
    positions: flip::Positions,
    /// The message whose hand-over bar was open.
    picked: Option<String>,
    /// Whether the host page was told the player is ready.
    announced: bool,
}

impl AfterRender {
    /// After a render that drew `placement` and the hand-over bar of `picked` (if any), under
    /// `container`; `host` is the session when a host page listens.
    fn run(
        &mut self,
        container: &NodeRef,
        placement: u64,
        picked: Option<String>,
        host: Option<&Rc<RefCell<Session>>>,
    ) {
        if self.placement != Some(placement) {
            self.placement = Some(placement);
            flip::glide_under(container, &mut self.positions);
        }
        if self.picked != picked {
            // The keyboard hand-over bar takes the focus (its first button) when it opens.
            let first = container
                .cast::<web_sys::Element>()
                .and_then(|c| c.query_selector(".pick-bar button").ok().flatten())
                .and_then(|b| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(b).ok());
            if let (Some(_), Some(button)) = (&picked, first) {
                let _ = button.focus();
            }
            self.picked = picked;
        }
        if let (Some(session), false) = (host, self.announced) {
            self.announced = true;
            bridge::post(&embed::ready_message(&session.borrow().scenario().id));
        }
    }
}

/// The root component. See the module documentation.
#[component]
pub fn Playground(props: &PlaygroundProps) -> Html {
    let redraw = use_force_update();
    let held = use_memo((), {
        let (link, redraw) = (props.link.clone(), redraw.clone());
        move |_| Held::open(&link.unwrap_or_else(Link::of_page), redraw)
    });
    let Held {
        session,
        ui,
        cache,
        embed,
        host,
        catalogue,
        dispatch,
        ..
    } = &*held;
    let (embed, host) = (*embed, *host);
    let container = use_node_ref();

    bridge::use_host_commands(dispatch.reform(|command| match command {
        HostCommand::Play => Action::Play,
        HostCommand::Pause => Action::Pause,
        HostCommand::Step => Action::Step,
        HostCommand::Seek(t) => Action::Seek(t),
        HostCommand::Load(id) => Action::Open(id),
    }));

    frame::use_frame_loop(props.live, held.on_frame.clone());

    // Pointer drags are followed on the whole playground, so a drop anywhere ends them.
    let pointer = |kind: PointerStep| {
        let (ui, dispatch, redraw) = (ui.clone(), dispatch.clone(), redraw.clone());
        Callback::from(move |e: PointerEvent| {
            if ui.borrow().gesture == Gesture::Idle {
                return;
            }
            let delivery = kind(
                &mut ui.borrow_mut(),
                (e.client_x() as f64, e.client_y() as f64),
            );
            if let Some((worker, message_id)) = delivery {
                dispatch.emit(Action::Deliver { worker, message_id });
            }
            redraw.force_update();
        })
    };
    let onpointermove = pointer(|u, at| {
        if let Some(next) = u.gesture.moved(at) {
            u.gesture = next;
        }
        None
    });
    let onpointerup = pointer(|u, _| std::mem::take(&mut u.gesture).dropped());
    let onpointercancel = pointer(|u, _| {
        u.gesture = Gesture::Idle;
        None
    });

    let s = session.borrow();
    let u = ui.borrow();
    let mut c = cache.borrow_mut();
    c.stage = Stage::build(s.world(), &s.journal, &c.stage);
    c.refresh_summaries(&s);
    let effects = refresh_effects(&mut c, &s);
    let kept = &mut *c;
    let log = drawn(&mut kept.log_panel, kept.log.1.clone(), |l| {
        event_log(&l.data, dispatch)
    });
    let chart = drawn(&mut kept.chart_panel, kept.chart.2.clone(), |d| {
        depth_chart(&d.data)
    });
    let ledger = drawn(&mut kept.ledger_panel, effects, |e| ledger_panel(&e.data));
    let tally = tally(&s);
    let scenario_rc = c
        .scenario
        .get_or_insert_with(|| Rc::new(s.scenario().clone()))
        .clone();
    drop(c);
    // The actions and callbacks above only read the cache while this render holds it.
    let c = cache.borrow();
    let stage = &c.stage;

    let queue_name = stage.queue.as_ref().map(|q| q.name.clone());
    let queue_url = queue_name
        .as_deref()
        .map(|q| s.queue_url(q))
        .unwrap_or_default();
    let workers: Vec<String> = stage.lanes.iter().map(|l| l.worker.name.clone()).collect();
    let pick = u
        .pick
        .as_ref()
        .and_then(|id| stage.queued.cards.iter().find(|c| &c.id == id))
        .map(|card| (card.clone(), workers.clone()));
    use_effect({
        let (after, container, session) = (held.after.clone(), container.clone(), session.clone());
        let (placed, picked) = (placement(stage), pick.as_ref().map(|(c, _)| c.id.clone()));
        move || {
            after
                .borrow_mut()
                .run(&container, placed, picked, host.then_some(&session));
        }
    });
    let over = match &u.gesture {
        Gesture::Dragging(d) => d.over.clone(),
        _ => None,
    };
    let setting_errors: Vec<(String, String)> = [
        "VisibilityTimeout",
        "DelaySeconds",
        "ReceiveMessageWaitTimeSeconds",
        "MessageRetentionPeriod",
        "RedrivePolicy",
        "ContentBasedDeduplication",
    ]
    .iter()
    .filter_map(|n| {
        s.error(&Slot::Setting(n.to_string()))
            .map(|e| (n.to_string(), e.to_string()))
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
    let history = u.selected.as_ref().map(|id| {
        let title = stage
            .find(id)
            .map_or_else(|| id.clone(), |c| c.body.clone());
        history(&HistoryProps {
            title,
            entries: s.journal.history(id).to_vec(),
            dispatch: dispatch.clone(),
        })
    });
    let scenario = s.scenario();
    let add_worker = components::on_click(dispatch, Action::AddWorker);
    let send_panel = send_panel(&SendProps {
        next_body: s.next_body(),
        fifo: stage.queue.as_ref().is_some_and(|q| q.fifo),
        form: &u.send,
        error: s.error(&Slot::Send),
        dispatch,
    });
    let ghost = match &u.gesture {
        // Written as markup (`components::markup_built`): it only follows the pointer.
        Gesture::Dragging(d) => components::markup_built(format!(
            r#"<div class="drag-ghost" aria-hidden="true" style="transform: translate({}px, {}px)">{}</div>"#,
            d.at.0 as i32 + 8,
            d.at.1 as i32 + 8,
            components::Escaped(&d.body)
        )),
        _ => Html::default(),
    };

    let lanes = stage.lanes.iter().map(|lane| {
        html! {
            <WorkerLane
                key={lane.worker.name.clone()}
                lane={lane.clone()}
                queue_url={queue_url.clone()}
                over={over.as_deref() == Some(lane.worker.name.as_str())}
                selected={u.selected.clone()}
                error={s.error(&Slot::Worker(lane.worker.name.clone())).map(str::to_string)}
                editing={u.editing.iter().find(|e| e.worker == lane.worker.name).cloned()}
                editable={!embed}
                dispatch={dispatch.clone()}
            />
        }
    });
    let unheld = (stage.unheld.total > 0).then(|| {
        components::markup_built(format!(r#"<p class="note">{} in flight with no worker lane holding them (their lane was removed, or a receive by hand); they reappear when their timeout runs out.</p>"#, stage.unheld.total))
    });
    let workers = el("section")
        .class(components::class(
            "panel workers",
            &[(stage.crowd.is_some(), "crowded")],
        ))
        .attr(Attr::AriaLabel, "Workers")
        .child(
            el("header")
                .class("panel-head")
                .child(components::markup(r#"<h2>Workers</h2>"#))
                .children((!embed).then(|| el("button").on_click(add_worker).text("Add worker"))),
        )
        .child(components::error(s.error(&Slot::AddWorker)))
        .child(el("div").class("lanes").children(lanes))
        .children(unheld);
    // A sandbox has no script: its producer (you) comes first. An embed shows the story and the
    // stage, not the editing panels.
    let (send_first, send_last) = match (embed, s.end() == 0) {
        (true, _) => (None, None),
        (false, true) => (Some(send_panel), None),
        (false, false) => (None, Some(send_panel)),
    };
    let left = el("div")
        .class("col col-left")
        .children(send_first)
        .child(story(scenario))
        .children(send_last)
        .children((!embed).then(|| {
            settings(&SettingsProps {
                queue: stage.queue.clone(),
                dlq_arn,
                errors: setting_errors,
                typed: &u.typed,
                dispatch: dispatch.clone(),
            })
        }));
    let middle = el("div")
        .class("col col-stage")
        .child(queue_panel(&QueueProps {
            queue: stage.queue.clone(),
            place: stage.queued.clone(),
            crowd: stage.crowd,
            leaving: stage.leaving.clone(),
            selected: u.selected.clone(),
            pick,
            note,
            editable: !embed,
            dispatch: dispatch.clone(),
        }))
        .child(workers)
        .child(dead_letter_panel(&DlqProps {
            name: stage.dlq.clone(),
            place: stage.dead.clone(),
            selected: u.selected.clone(),
            dispatch: dispatch.clone(),
        }));
    let side = el("div")
        .class("col col-side")
        .child(counters(&tally))
        .children(history)
        .child(log)
        .child(chart)
        .child(ledger)
        .children((!embed).then(|| {
            share_panel(&SharePanelProps {
                session: held.shared.clone(),
                scenario: scenario_rc,
                queue: queue_spec(stage),
                events: held.events.clone(),
                samples: held.all_samples.clone(),
                on_import: held.on_import.clone(),
                state: &u.share,
                change: dispatch.reform(Action::Share),
            })
        }));
    let top = el("header")
        .class("topbar")
        .child(components::markup(
            r#"<h1 class="brand">SQS Playground</h1>"#,
        ))
        .child(scenario_picker(&PickerProps {
            entries: catalogue,
            current: scenarios::Entry {
                id: scenario.id.clone(),
                title: scenario.title.clone(),
            },
            error: s.error(&Slot::Scenario).map(str::to_string),
            dispatch: dispatch.clone(),
        }))
        .child(controls(&ControlsProps {
            now: stage.now,
            horizon: s.horizon(),
            playing: s.playing(),
            speed: s.speed(),
            error: s.error(&Slot::Clock).map(str::to_string),
            dispatch: dispatch.clone(),
        }));
    el("div")
        .class(components::class(
            "playground",
            &[(u.gesture != Gesture::Idle, "dragging")],
        ))
        .node_ref(container)
        .on_pointermove(onpointermove)
        .on_pointerup(onpointerup)
        .on_pointercancel(onpointercancel)
        .child(top)
        .child(
            el("main")
                .class("layout")
                .child(left)
                .child(middle)
                .child(side),
        )
        .child(
            el("div")
                .class("visually-hidden")
                .attr(Attr::Role, "status")
                .attr(Attr::AriaLive, "polite")
                .text(s.journal.announcement()),
        )
        .child(ghost)
        .into()
}

/// Applies an action; returns whether anything changed.
fn handle(s: &mut Session, u: &mut Ui, stage: &Stage, action: Action) -> bool {
    let queue = stage
        .queue
        .as_ref()
        .map(|q| q.name.clone())
        .unwrap_or_default();
    match action {
        Action::Play => s.play(),
        Action::Pause => s.pause(),
        Action::Step => s.step(),
        Action::Speed(v) => s.set_speed(v),
        Action::Seek(t) => s.seek(t),
        Action::Open(id) => match scenarios::find(&id) {
            Some(scenario) => {
                s.switch(scenario);
                u.reset();
                remember_in_url(&id);
            }
            None => return false,
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
        Action::Share(change) => u.share.apply(change),
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
                .first()
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
        Action::Select(id) => u.selected = id,
        Action::Pick(id) => {
            u.pick = id;
            u.note = None;
        }
        Action::Press(press, look) => {
            if look == Look::Blocked {
                u.note = stage.find(&press.id).map(blocked_reason);
            } else {
                u.gesture = Gesture::Pressed(press);
            }
        }
    }
    true
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

/// The ledger's latest effects, copied only when they differ from those drawn: compared by
/// content (at most [`ledger::SHOWN`] of them), since a count can repeat when the ledger folds
/// its oldest entries or a rewind replays a different past.
fn refresh_effects(c: &mut Cache, s: &Session) -> Versioned<Vec<Effect>> {
    if let Some(latest) = fresh_effects(&c.effects.data, &s.world().ledger().effects) {
        c.effects.update(|v| *v = latest.to_vec());
    }
    c.effects.clone()
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
    let max_receives = queue
        .attribute("RedrivePolicy")
        .and_then(|p| serde_json::from_str::<serde_json::Value>(p).ok())
        .and_then(|p| {
            let v = p.get("maxReceiveCount")?;
            v.as_u64().or_else(|| v.as_str()?.parse().ok())
        });
    let dead_letter = stage
        .dlq
        .clone()
        .zip(max_receives.and_then(|n| u32::try_from(n).ok()));
    Some(QueueSpec {
        name: queue.name.clone(),
        attributes,
        dead_letter,
    })
}

/// The session a link asks for: a permalink's session, else its scenario (the sandbox if none
/// or unknown) at its speed and start time, playing if asked. What cannot be honoured is said
/// by the scenario picker.
/// Posts to the host page every event recorded since the last post (a rewind starts a new
/// timeline: its count restarts).
fn relay(journal: &journal::Journal, posted: &mut u64) {
    let fresh = journal.seen().saturating_sub(*posted) as usize;
    let events = journal.events();
    for event in &events[events.len().saturating_sub(fresh)..] {
        bridge::post(&embed::event_message(event));
    }
    *posted = journal.seen();
}

fn start_session(link: &Link) -> Session {
    apply_theme(link.options.theme);
    let o = &link.options;
    let sandbox = || {
        Session::open(scenarios::sandbox(false))
            .unwrap_or_else(|e| panic!("the sandbox does not load: {e}"))
    };
    let mut problems = link.warnings.clone();
    let mut session = match &link.session {
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
    if o.autoplay {
        session.play();
    }
    if !problems.is_empty() {
        session.report(Slot::Scenario, problems.join(" "));
    }
    session
}

/// `theme=light|dark` forces a theme; otherwise the system's preference rules.
fn apply_theme(theme: Option<Theme>) {
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

/// Puts the open scenario in the address bar, so the page can be shared or reloaded.
fn remember_in_url(id: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("?scenario={id}")),
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
