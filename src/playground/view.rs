//! The root's parts, drawn from the [`State`]: the top bar, the question or the story line, the
//! stage, the panels below it, a message's history and the card being dragged. Plain functions
//! over one [`View`] (each component type would bring its own copy of Yew's lifecycle code);
//! every part reports what the user does through the root's one `Callback<Action>`.

use super::action::Action;
use super::components::chart::DepthChart;
use super::components::controls::{Clock, Controls};
use super::components::counters::Tally;
use super::components::dlq::DeadLetterQueue;
use super::components::error;
use super::components::event_log::EventLog;
use super::components::history::History;
use super::components::ledger::Ledger;
use super::components::lesson::{lesson_switch, lesson_view};
#[cfg(feature = "live")]
use super::components::live_badge::LiveBadge;
use super::components::queue::{Idle, Queue};
use super::components::queue_switch::QueueSwitch;
use super::components::scenario_picker::{ScenarioPicker, Story, StoryLine};
use super::components::send_form::Producer;
use super::components::settings::Settings;
use super::components::tabs::{tab_panel, Tab, TabList};
use super::components::worker_lane::WorkerLane;
use super::drag::Gesture;
use super::effects::Drawn;
use super::lesson::{Panel, Phase, Proof};
use super::scenarios;
use super::session::{Session, Slot};
use super::stage::{max_receives, Stage};
use super::state::State;
use super::story;
use crate::share::panel::Share;
use crate::share::session::Session as SharedSession;
use crate::share::snippets::QueueSpec;
use sqs_sim::{Sample, WorldEvent};
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;
use yew::prelude::*;

/// The settings whose refusals show by their field.
const SETTINGS: [&str; 6] = [
    "VisibilityTimeout",
    "DelaySeconds",
    "ReceiveMessageWaitTimeSeconds",
    "MessageRetentionPeriod",
    "RedrivePolicy",
    "ContentBasedDeduplication",
];

/// The callbacks of the two parts that are not the playground's own: the clock's controls
/// (shared with the comparison page) and the Share panel (which reads the session, its events
/// and its samples only when it uses them). Made once from the one `Callback<Action>`, so that
/// those parts are not drawn again with every frame.
pub struct Adapters {
    onclock: Callback<Clock>,
    session: Callback<(), SharedSession>,
    events: Callback<(), Vec<WorldEvent>>,
    samples: Callback<(), Vec<Sample>>,
    onimport: Callback<SharedSession>,
}

impl Adapters {
    /// Reading `session`; what the parts ask for goes to `onaction`.
    pub fn new(session: &Rc<RefCell<Session>>, onaction: &Callback<Action>) -> Adapters {
        Adapters {
            onclock: onaction.reform(Action::Clock),
            session: reader(session, Session::share),
            events: reader(session, |s| s.journal.events().to_vec()),
            samples: reader(session, |s| s.world().metrics().samples.clone()),
            onimport: onaction.reform(Action::Import),
        }
    }
}

/// A callback that answers with what `read` reads from the session when it is called.
fn reader<T: 'static>(session: &Rc<RefCell<Session>>, read: fn(&Session) -> T) -> Callback<(), T> {
    let session = session.clone();
    Callback::from(move |()| read(&session.borrow()))
}

/// One render's view of the state: see the module documentation.
pub struct View<'a> {
    state: &'a State,
    s: &'a Session,
    onaction: &'a Callback<Action>,
    adapters: &'a Adapters,
    /// The question (or the score) shown in the story line's place.
    panel: Option<Panel>,
    /// What the revealed answer points at on the stage.
    proof: Proof,
    /// A sandbox has no script: its producer (you) stands on the stage, by the queue it sends to.
    sandbox: bool,
    /// The story's lines whose time has come.
    current: Option<Range<usize>>,
}

impl<'a> View<'a> {
    /// The view of `state`, whose session is `s`.
    pub fn new(
        state: &'a State,
        s: &'a Session,
        onaction: &'a Callback<Action>,
        adapters: &'a Adapters,
    ) -> View<'a> {
        let panel = s.lesson_view();
        let proof = match &panel {
            Some(Panel::Question(asked)) => match &asked.phase {
                Phase::Revealed(reveal) => reveal.proof.clone(),
                _ => Proof::default(),
            },
            _ => Proof::default(),
        };
        View {
            state,
            s,
            onaction,
            adapters,
            panel,
            proof,
            sandbox: s.end() == 0,
            current: story::current(&state.beats, state.stage.now),
        }
    }

    fn stage(&self) -> &Stage {
        &self.state.stage
    }

    /// An embed shows the story and the stage, not the editing panels.
    fn embed(&self) -> bool {
        self.state.embed
    }

    /// What the root reacts to once this render is in the document; `framed`: a host page
    /// listens.
    pub fn drawn(&self, framed: bool) -> Drawn {
        Drawn {
            placement: self.stage().placement(),
            picked: self.picked().map(|(card, _)| card.id),
            question: Drawn::question(self.panel.as_ref()),
            ready: framed.then(|| self.s.scenario().id.clone()),
        }
    }

    fn picked(&self) -> Option<(super::stage::Card, Vec<String>)> {
        self.stage().picked(self.state.ui.pick.as_deref())
    }

    /// The root element's classes: a drag under way, the read-only player.
    pub fn classes(&self) -> Classes {
        let pressed = self.state.ui.gesture != Gesture::Idle;
        classes!(
            "playground",
            pressed.then_some("dragging"),
            self.embed().then_some("embed")
        )
    }

    /// The brand, the scenario picker, the live badge, the lesson switch, Compare and the
    /// clock's controls.
    pub fn topbar(&self) -> Html {
        let (s, state, on) = (self.s, self.state, self.onaction);
        let scenario = s.scenario();
        let embed = self.embed();
        html! {
            <header class="topbar">
                <h1 class="brand">{ "SQS Playground" }</h1>
                <ScenarioPicker entries={state.catalogue.clone()}
                    current={scenarios::Entry { id: scenario.id.clone(), title: scenario.title.clone() }}
                    error={s.error(&Slot::Scenario).map(str::to_string)}
                    picked={state.ui.picked.clone()} onaction={on.clone()} />
                { self.live_badge() }
                if s.lesson().has_questions() && !embed {
                    { lesson_switch(s.lesson().on(), scenario.questions.len(), on) }
                }
                if !embed && !self.sandbox && scenarios::in_library(&scenario.id) {
                    <a class="button compare-open" href={crate::compare::href(&scenario.id, [&Default::default(); 2], None)}>
                        { "Compare" }
                    </a>
                }
                <Controls now={self.stage().now} horizon={s.horizon()} playing={s.playing()} speed={s.speed()}
                    held={s.lesson().open().is_some()}
                    error={s.error(&Slot::Clock).map(str::to_string)}
                    beats={state.beats.clone()} current={self.current.clone()}
                    onclock={self.adapters.onclock.clone()} />
            </header>
        }
    }

    /// In live mode, the server's badge and "Save as scenario".
    #[cfg(feature = "live")]
    fn live_badge(&self) -> Html {
        let (s, on) = (self.s, self.onaction);
        let Some(live) = s.live_state() else {
            return Html::default();
        };
        html! {
            <LiveBadge address={live.address.clone()} connection={live.connection}
                paused={live.clock.paused} home={live.home.clone()}
                elsewhere={live.elsewhere(s.world().focus())}
                previous={s.previous_run().is_some()} onaction={on.clone()} />
        }
    }

    /// The player has no live mode.
    #[cfg(not(feature = "live"))]
    fn live_badge(&self) -> Html {
        Html::default()
    }

    /// A question (or the lesson's score) in the story line's place while it shows.
    pub fn question_or_story(&self) -> Html {
        match &self.panel {
            Some(panel) => lesson_view(panel, self.onaction),
            None => html! {
                <StoryLine title={self.s.scenario().title.clone()} beats={self.state.beats.clone()}
                    current={self.current.clone()} />
            },
        }
    }

    /// The queue (with the sandbox's producer), the worker lanes and the dead-letter queue.
    pub fn stage_main(&self) -> Html {
        let (s, u, stage, on) = (self.s, &self.state.ui, self.stage(), self.onaction);
        let (embed, live) = (self.embed(), s.is_live());
        let proof = &self.proof;
        let proves_queue =
            |name: Option<&str>| proof.queue.is_some() && proof.queue.as_deref() == name;
        let queue_url = stage
            .queue
            .as_ref()
            .map(|q| s.queue_url(&q.name))
            .unwrap_or_default();
        let over = match &u.gesture {
            Gesture::Dragging(d) => d.over.as_deref(),
            _ => None,
        };
        let note = u
            .note
            .clone()
            .or_else(|| s.error(&Slot::Deliver).map(str::to_string));
        let (cols, rows) = stage.lane_grid();
        let add_worker = on.reform(|_: MouseEvent| Action::AddWorker);
        html! {
            <main class={classes!("stage", stage.dlq.is_some().then_some("with-dlq"))}>
                <div class="stage-queue">
                    if !embed && self.sandbox { { self.producer() } }
                    if let Some(shown) = stage.queue.as_ref().filter(|_| !stage.queues.is_empty()) {
                        <QueueSwitch queues={stage.queues.clone()} shown={shown.name.clone()} onaction={on.clone()} />
                    }
                    <Queue queue={stage.queue.clone()} place={stage.queued.clone()} crowd={stage.crowd}
                        proof={proof.messages.clone()} proves={proves_queue(stage.queue.as_ref().map(|q| q.name.as_str()))}
                        leaving={stage.leaving.clone()} unheld={stage.unheld.clone()} idle={self.idle()}
                        selected={u.selected.clone()} pick={self.picked()} {note}
                        editable={!embed && !live} onaction={on.clone()} />
                </div>
                <section class={classes!("panel", "workers", stage.crowd.is_some().then_some("crowded"))}
                    aria-label="Workers">
                    <header class="panel-head">
                        <h2>{ "Workers" }</h2>
                        if !embed && !live {
                            <button onclick={add_worker}>{ "Add worker" }</button>
                        }
                    </header>
                    { error(s.error(&Slot::AddWorker)) }
                    if live && stage.lanes.is_empty() {
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
                                onaction={on.clone()}
                            />
                        }
                    </div>
                </section>
                if stage.dlq.is_some() { { self.dlq() } }
            </main>
        }
    }

    /// What the queue's empty text speaks to.
    fn idle(&self) -> Idle {
        let (s, now) = (self.s, self.stage().now);
        match (self.sandbox, now >= s.end(), s.playing()) {
            #[cfg(feature = "live")]
            _ if s.is_live() => Idle::Live,
            (true, _, _) => Idle::Sandbox,
            (false, true, _) => Idle::Over,
            (false, false, true) => Idle::Playing,
            (false, false, false) if now == 0 => Idle::Scenario,
            (false, false, false) => Idle::Paused,
        }
    }

    fn producer(&self) -> Html {
        let (s, stage) = (self.s, self.stage());
        html! {
            <Producer next_body={s.next_body()} fifo={stage.queue.as_ref().is_some_and(|q| q.fifo)}
                form={self.state.ui.send.clone()} error={s.error(&Slot::Send).map(str::to_string)}
                onaction={self.onaction.clone()} />
        }
    }

    fn dlq(&self) -> Html {
        let (stage, proof) = (self.stage(), &self.proof);
        let proves = proof.queue.is_some() && proof.queue == stage.dlq;
        html! {
            <DeadLetterQueue name={stage.dlq.clone()} place={stage.dead.clone()}
                max_receives={max_receives(stage)}
                proof={proof.messages.clone()} {proves}
                selected={self.state.ui.selected.clone()} onaction={self.onaction.clone()} />
        }
    }

    /// The counters under the stage.
    pub fn tally(&self) -> Tally {
        let m = self.s.world().metrics();
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

    /// The selected message's history.
    pub fn history(&self) -> Html {
        let Some(id) = &self.state.ui.selected else {
            return Html::default();
        };
        html! {
            <History
                title={self.stage().find(id).map_or_else(|| id.clone(), |c| c.body.clone())}
                entries={self.s.journal.history(id).to_vec()}
                onaction={self.onaction.clone()} />
        }
    }

    /// The panels below the stage, one open at a time: the one picked, else the one the
    /// address named, else the first. A scenario without a dead-letter queue says how to give
    /// it one under Settings; a scripted scenario's producer has its own tab (the sandbox's is
    /// on the stage).
    pub fn panels(&self) -> Html {
        let (state, u, stage, on) = (self.state, &self.state.ui, self.stage(), self.onaction);
        let share = self.adapters;
        let scenario = self.s.scenario();
        let mut panels = vec![
            (
                Tab::Log,
                html! { <EventLog log={state.summaries.log().clone()} names={u.names.clone()} onaction={on.clone()} /> },
            ),
            (
                Tab::Story,
                html! { <Story title={scenario.title.clone()} narrative={scenario.narrative.clone()} beats={state.beats.clone()} current={self.current.clone()} /> },
            ),
            (
                Tab::Depth,
                html! { <DepthChart points={state.summaries.chart().clone()} /> },
            ),
            (
                Tab::Effects,
                html! { <Ledger effects={state.summaries.effects().clone()} /> },
            ),
        ];
        if !self.embed() {
            panels.push((Tab::Settings, self.settings()));
            if !self.sandbox {
                panels.push((Tab::Producer, self.producer()));
            }
            panels.push((
                Tab::Share,
                html! {
                    <Share
                        session={share.session.clone()}
                        scenario={state.scenario.clone()}
                        queue={queue_spec(stage)}
                        events={share.events.clone()}
                        samples={share.samples.clone()}
                        onimport={share.onimport.clone()} />
                },
            ));
        }
        let tabs: Vec<Tab> = panels.iter().map(|(t, _)| *t).collect();
        let open = [u.tab, state.tab]
            .into_iter()
            .flatten()
            .find(|t| tabs.contains(t))
            .unwrap_or(Tab::Log);
        html! {
            <div class="tabs">
                <TabList {tabs} {open} onaction={on.clone()} />
                for (tab, content) in panels {
                    { tab_panel(tab, open, content) }
                }
            </div>
        }
    }

    fn settings(&self) -> Html {
        let (s, stage) = (self.s, self.stage());
        let errors: Vec<(String, String)> = SETTINGS
            .iter()
            .filter_map(|n| {
                let e = s.error(&Slot::Setting(n.to_string()))?;
                Some((n.to_string(), e.to_string()))
            })
            .collect();
        let dlq_arn = stage.dlq.as_deref().map(|d| s.world().focus().queue_arn(d));
        html! {
            <>
                <Settings queue={stage.queue.clone()} {dlq_arn} {errors}
                    typed={self.state.ui.typed.clone()} onaction={self.onaction.clone()} />
                if stage.dlq.is_none() { { self.dlq() } }
            </>
        }
    }

    /// The card being dragged, following the pointer.
    pub fn drag_ghost(&self) -> Html {
        let Gesture::Dragging(d) = &self.state.ui.gesture else {
            return Html::default();
        };
        html! {
            <div class="drag-ghost" aria-hidden="true"
                style={format!("transform: translate({}px, {}px)", d.at.0 as i32 + 8, d.at.1 as i32 + 8)}>
                { &d.body }
            </div>
        }
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
