//! The root's reducer: the [`State`] every render draws (the session, the view state that is
//! not the World's, and what is drawn from them) and how each [`Action`] changes it.

use super::action::Action;
use super::components::controls::Clock;
use super::components::queue::blocked_reason;
use super::components::scenario_picker::Picked;
use super::components::settings::Typed;
use super::components::tabs::Tab;
use super::components::worker_policy::Editing;
use super::drag::Gesture;
use super::link::Link;
use super::session::{SendForm, Session, Slot};
use super::stage::{Look, Stage};
use super::summaries::Summaries;
use super::{opening, page, scenarios, story};
use sqs_sim::command::SimAction;
use sqs_sim::{Scenario, Step};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// View state that is not the World's.
#[derive(Clone)]
pub struct Ui {
    /// The selected message (its history shows).
    pub selected: Option<String>,
    /// The waiting message whose keyboard hand-over bar is open.
    pub pick: Option<String>,
    /// What the pointer is doing with a message.
    pub gesture: Gesture,
    /// A word about the last hand-over (why a message cannot be taken).
    pub note: Option<String>,
    /// The send form as typed (it outlives opening another scenario or session).
    pub send: SendForm,
    /// What the user typed into the settings' fields, until Set or another scenario.
    pub typed: Vec<Typed>,
    /// The policies being edited, until another scenario.
    pub editing: Vec<Editing>,
    /// The queue chosen on the stage's queue switch, until another scenario.
    pub shown_queue: Option<String>,
    /// The panel picked below the stage (it outlives opening another scenario or session).
    pub tab: Option<Tab>,
    /// The library scenario picked whose file has not opened yet.
    pub picked: Option<Picked>,
    /// Live mode: the names the user gave clients (their own name, the name shown); they
    /// outlive a new run of the server, whose clients are likely the same.
    pub names: Rc<Vec<(String, String)>>,
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
            tab: None,
            picked: None,
            names: Rc::default(),
            send: SendForm {
                group_id: "g1".into(),
                ..SendForm::default()
            },
        }
    }
}

impl Ui {
    /// Forgets the view state of the session that is closing, except the send form, the panel
    /// and the clients' names (drafts of settings and policies belong to the old queue and
    /// lanes).
    fn reset(&mut self) {
        *self = Ui {
            send: std::mem::take(&mut self.send),
            tab: self.tab,
            names: std::mem::take(&mut self.names),
            ..Ui::default()
        };
    }
}

/// The playground's state: the session, the view state and what is drawn from them.
#[derive(Clone)]
pub struct State {
    /// The World and its clock. Changed in place (a World is not cheap to copy): every state
    /// shares it, and each action makes a new state for what the components are given.
    pub session: Rc<RefCell<Session>>,
    /// View state that is not the World's.
    pub ui: Ui,
    /// The stage as drawn now (the next one is built from it: deleted cards fade out).
    pub stage: Rc<Stage>,
    /// The event log, the depth chart and the ledger as drawn.
    pub summaries: Summaries,
    /// The open session's scenario, for the Share panel's scenario file.
    pub scenario: Rc<Scenario>,
    /// Its story's lines on the clock.
    pub beats: Rc<Vec<story::Beat>>,
    /// The scenario library, for the picker.
    pub catalogue: Rc<Vec<scenarios::Entry>>,
    /// `controls=0` is the read-only player: the embed's view, whether framed or not.
    pub embed: bool,
    /// `live=1`: the page follows the server that served it.
    pub live: bool,
    /// The panel the page's address opens on.
    pub tab: Option<Tab>,
    /// `src=`: the scenario file the page's address names, fetched once the page is drawn.
    pub src: Option<String>,
}

impl State {
    /// The state on what `link` asks for.
    pub fn open(link: &Link) -> State {
        page::apply_theme(link.options.theme);
        let session = opening::start_session(link);
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
}

impl Redrawn for State {
    type Action = Action;

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
            Action::Clock(Clock::Play) => s.play(),
            Action::Clock(Clock::Pause) => s.pause(),
            Action::Clock(Clock::Step) => s.step(),
            Action::Clock(Clock::Speed(v)) => s.set_speed(v),
            Action::Clock(Clock::Seek(t)) => s.seek(t),
            Action::Lesson(on) => s.set_lesson(on),
            Action::Answer(answer) => s.answer(answer),
            Action::RevealNow => s.reveal_now(),
            Action::Continue => s.carry_on(),
            #[cfg(feature = "live")]
            Action::Live(signal) => {
                s.hear(signal);
                // A new run of the server is a new recording: a new story, fresh view state.
                if self.scenario.seed != s.scenario().seed {
                    u.reset();
                    (self.scenario, self.beats) = story_of(&s);
                }
            }
            Action::Refused { slot, error } => s.report(slot, error),
            Action::Rename { client, name } => {
                let names = Rc::make_mut(&mut u.names);
                names.retain(|(own, _)| *own != client);
                let name = name.trim();
                if !name.is_empty() && name != client {
                    names.push((client, name.to_string()));
                }
            }
            #[cfg(feature = "live")]
            Action::SaveRun(previous) => match opening::save_run(&s, previous) {
                Ok(()) => return false,
                Err(error) => s.report(Slot::Scenario, error),
            },
            Action::Fetch(id) => u.picked = Some(Picked::Loading(id)),
            Action::FetchFailed(error) => u.picked = Some(Picked::Failed(error)),
            Action::Open(id) => {
                if !opening::open_scenario(&mut s, &id) {
                    return false;
                }
                u.reset();
                (self.scenario, self.beats) = story_of(&s);
            }
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
            Action::ShowTab(tab) => u.tab = Some(tab),
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

/// A page's state as Yew's reducer sees it: an action is applied to a copy, and only a copy
/// that changed what is shown is redrawn and replaces the state; otherwise the state keeps its
/// `Rc`, and Yew renders nothing. The playground and Compare share this shape.
pub trait Redrawn: Clone {
    /// What the page's callbacks send.
    type Action;

    /// Applies an action; returns whether anything shown changed.
    fn apply(&mut self, action: Self::Action) -> bool;

    /// Rebuilds what is drawn from the state as it is now.
    fn redraw(&mut self);

    /// [`Reducible::reduce`] for a state of this shape.
    fn reduced(self: Rc<Self>, action: Self::Action) -> Rc<Self> {
        let mut next = (*self).clone();
        if next.apply(action) {
            next.redraw();
            Rc::new(next)
        } else {
            self
        }
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        self.reduced(action)
    }
}

/// The session's scenario, and its story's lines on the clock.
fn story_of(s: &Session) -> (Rc<Scenario>, Rc<Vec<story::Beat>>) {
    let scenario = s.scenario().clone();
    let beats = story::beats(&scenario.watch, s.end());
    (Rc::new(scenario), Rc::new(beats))
}

/// "Worker N" with N one more than the highest number in use.
fn next_worker_name<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let highest = names
        .filter_map(|n| n.strip_prefix("Worker ")?.parse::<u32>().ok())
        .max()
        .unwrap_or(0);
    format!("Worker {}", highest + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

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
