//! One playground session: the World, the clock the user drives (play, pause, step, speed,
//! scrub) and the log of the user's own actions that makes rewind possible. Rewind is a
//! deterministic replay: reload the scenario (same seed) and re-run the logged actions up to
//! the chosen instant. Plain Rust, no browser: the frame loop passes wall time in. In live mode
//! (`session/live.rs`, the `live` feature) the logged actions are a server's recorded calls and
//! its stream moves the clock.

#[cfg(feature = "live")]
mod live;

use super::format::wall_clock;
use super::journal::Journal;
use super::lesson::{
    proof_words, Answer, Arrival, Asked, Lesson, Panel, Phase, Proof, Reveal, Status,
};
use super::scenarios;
#[cfg(feature = "live")]
use crate::live::{Connection, Live};
use crate::share::session::{ScenarioSource, Session as SharedSession};
#[cfg(feature = "live")]
use live::LiveClock;
use sqs_engine::api::{QueueUrl, SendMessageInput, SetQueueAttributesInput};
use sqs_engine::{Millis, Request};
use sqs_sim::checkpoints::{Checkpoints, CHECKPOINT_EVERY};
use sqs_sim::command::SimAction;
use sqs_sim::{LoggedStep, Scenario, Step, World, EVENT_BUFFER};

/// The slowest and fastest speeds offered.
pub const SPEED_RANGE: (f64, f64) = (1.0, 1000.0);
/// Wall seconds a scenario's script should take at its suggested speed: slow enough to narrate.
const SCRIPT_WALL_S: f64 = 40.0;
/// The longest wall-time gap one frame may cover (a background tab must not jump hours).
const MAX_FRAME_MS: f64 = 250.0;
/// The most virtual time a seek narrates between two drains of the World's events, so that
/// its event buffer does not fill.
const NARRATED_CHUNK: Millis = 1_000;
/// Wall milliseconds a reveal may take at most: after an answer the clock plays on to the
/// reveal at the chosen speed, or faster if that would take longer than this.
const REVEAL_WALL_MS: f64 = 5000.0;
/// What the clock says while a question waits for its answer.
const ANSWER_FIRST: &str = "Answer the question (or Skip it) to go on.";

/// Which control an error belongs to, so it is shown next to that control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Slot {
    /// The send form.
    Send,
    /// A queue setting, by attribute name.
    Setting(String),
    /// A worker's controls, by worker name.
    Worker(String),
    /// A drag or a keyboard pick onto a lane.
    Deliver,
    /// Adding a worker.
    AddWorker,
    /// Opening a scenario.
    Scenario,
    /// The clock (step with nothing scheduled, scrub failures).
    Clock,
}

/// The errors shown, at most one per slot (a handful at a time, looked up by equality).
#[derive(Default)]
struct Errors(Vec<(Slot, String)>);

impl Errors {
    fn get(&self, slot: &Slot) -> Option<&str> {
        self.0
            .iter()
            .find(|(s, _)| s == slot)
            .map(|(_, e)| e.as_str())
    }

    /// Shows `text` at `slot`, in place of what was shown there.
    fn insert(&mut self, slot: Slot, text: String) {
        self.remove(&slot);
        self.0.push((slot, text));
    }

    fn remove(&mut self, slot: &Slot) {
        self.0.retain(|(s, _)| s != slot);
    }
}

/// See the module documentation.
pub struct Session {
    scenario: Scenario,
    world: World,
    /// Derived history of the current timeline.
    pub journal: Journal,
    log: Vec<LoggedStep>,
    cursor: usize,
    /// Copies of the world as it played, so a rewind replays one interval, not the whole past.
    checkpoints: Checkpoints,
    horizon: Millis,
    playing: bool,
    speed: f64,
    carry: f64,
    wall: f64,
    last_wall: Option<f64>,
    errors: Errors,
    sent: u32,
    lesson: Lesson,
    /// In live mode: the server followed (`crate::live`).
    #[cfg(feature = "live")]
    live: Option<Live>,
    /// In live mode: the run recorded before the server started again.
    #[cfg(feature = "live")]
    previous: Option<SharedSession>,
}

impl Session {
    /// A session on `scenario`, paused at its start.
    pub fn open(scenario: Scenario) -> Result<Session, String> {
        let world = World::load(&scenario)?;
        let speed = suggested_speed(scenario.duration());
        let mut session = Session {
            scenario,
            world,
            journal: Journal::default(),
            log: Vec::new(),
            cursor: 0,
            checkpoints: page_checkpoints(),
            horizon: 0,
            playing: false,
            speed,
            carry: 0.0,
            wall: 0.0,
            last_wall: None,
            errors: Errors::default(),
            sent: 0,
            lesson: Lesson::default(),
            #[cfg(feature = "live")]
            live: None,
            #[cfg(feature = "live")]
            previous: None,
        };
        session.lesson = Lesson::new(&session.scenario.questions);
        for step in scenarios::setup(&session.scenario, &session.world) {
            session.act(Slot::Scenario, step);
        }
        session.harvest(false);
        Ok(session)
    }

    /// A session rebuilt from a shared one (a permalink or a session file): its scenario, the
    /// user's actions (replayed as they are due) and its playhead and speed.
    pub fn restore(shared: &SharedSession) -> Result<Session, String> {
        let scenario = shared.resolve(scenarios::find)?;
        let mut session = Session::open(scenario)?;
        // The shared actions already include any setup the scenario needed: the world starts
        // again from the scenario alone and replays them.
        session.world = World::load(&session.scenario)?;
        session.journal = Journal::default();
        session.log = shared.actions.clone();
        // The send form goes on naming bodies after the ones sent (order-3 after two).
        let sends = session
            .log
            .iter()
            .filter(|a| matches!(a.step, Step::Call(Request::SendMessage(_))));
        session.sent = sends.count() as u32;
        session.cursor = 0;
        session.checkpoints = page_checkpoints();
        session.jump(shared.playhead)?;
        session.set_speed(shared.speed);
        session.set_lesson(shared.lesson);
        Ok(session)
    }

    /// This session as it travels in a link or a file: the actions run so far and the playhead.
    pub fn share(&self) -> SharedSession {
        let id = &self.scenario.id;
        let scenario = match scenarios::in_library(id) {
            true => ScenarioSource::Library(id.clone()),
            false => ScenarioSource::Inline(self.scenario.clone()),
        };
        SharedSession {
            scenario,
            actions: self.log[..self.cursor].to_vec(),
            playhead: self.now(),
            speed: self.speed,
            lesson: self.lesson.on(),
        }
    }

    /// Replaces this session by one on `scenario`; on failure nothing changes and
    /// the error shows by the scenario picker.
    pub fn switch(&mut self, scenario: Scenario) {
        match Session::open(scenario) {
            Ok(mut fresh) => {
                fresh.wall = self.wall;
                fresh.last_wall = self.last_wall;
                let title = fresh.scenario.title.clone();
                fresh
                    .journal
                    .announce(format!("Opened {title}."), self.wall);
                fresh.set_lesson(self.lesson.on());
                *self = fresh;
            }
            Err(e) => {
                self.errors.insert(Slot::Scenario, e);
            }
        }
    }

    /// The world, read-only.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The scenario this session started from.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Virtual now.
    pub fn now(&self) -> Millis {
        self.world.now()
    }

    /// What a frame may have changed of what the page draws: the clock, the event log's
    /// revision, the cards leaving and the announcement. A frame that leaves it equal needs no
    /// redraw.
    pub fn drawn(&self) -> (Millis, u64, usize, usize) {
        (
            self.now(),
            self.journal.log.rev,
            self.journal.departures.len(),
            self.journal.announcement().len(),
        )
    }

    /// The latest instant this timeline has reached (the scrubber's end), at least the
    /// scenario's end.
    pub fn horizon(&self) -> Millis {
        self.horizon.max(self.now()).max(self.end())
    }

    /// Where the scenario's script ends (the sum of its `advance` steps; 0 for a sandbox).
    pub fn end(&self) -> Millis {
        self.scenario.duration()
    }

    /// Whether the clock runs (in live mode: the server's, with the stage following it).
    pub fn playing(&self) -> bool {
        #[cfg(feature = "live")]
        if let Some(live) = &self.live {
            return live.following && !live.clock.paused && live.connection != Connection::Gone;
        }
        self.playing
    }

    /// Virtual milliseconds per wall millisecond (in live mode: the server's speed).
    pub fn speed(&self) -> f64 {
        #[cfg(feature = "live")]
        if let Some(live) = &self.live {
            return live.clock.speed.clamp(SPEED_RANGE.0, SPEED_RANGE.1);
        }
        self.speed
    }

    /// Whether the session follows a server (live mode): its stream moves the clock.
    pub fn is_live(&self) -> bool {
        #[cfg(feature = "live")]
        return self.live.is_some();
        #[cfg(not(feature = "live"))]
        false
    }

    /// The error shown next to a control, if its last action failed.
    pub fn error(&self, slot: &Slot) -> Option<&str> {
        self.errors.get(slot)
    }

    /// Shows `text` next to a control (a problem found outside an action, like a bad link).
    pub fn report(&mut self, slot: Slot, text: String) {
        self.errors.insert(slot, text);
    }

    /// Starts the clock, unless a question waits for its answer (the clock says so).
    pub fn play(&mut self) {
        #[cfg(feature = "live")]
        if self.live_clock(LiveClock::Play) {
            return;
        }
        if self.holding() {
            return;
        }
        self.lesson.dismiss();
        self.playing = true;
        self.errors.remove(&Slot::Clock);
    }

    /// Whether an open question holds the clock; if so, the clock says why.
    fn holding(&mut self) -> bool {
        let open = self.lesson.open().is_some();
        if open {
            self.playing = false;
            self.errors.insert(Slot::Clock, ANSWER_FIRST.into());
        }
        open
    }

    /// Stops the clock.
    pub fn pause(&mut self) {
        #[cfg(feature = "live")]
        if self.live_clock(LiveClock::Pause) {
            return;
        }
        self.playing = false;
    }

    /// Sets the speed, kept within [`SPEED_RANGE`].
    pub fn set_speed(&mut self, speed: f64) {
        #[cfg(feature = "live")]
        if speed.is_finite() && self.live_clock(LiveClock::Speed(speed)) {
            return;
        }
        if speed.is_finite() {
            self.speed = speed.clamp(SPEED_RANGE.0, SPEED_RANGE.1);
        }
    }

    /// One animation frame at wall time `wall` (milliseconds): moves virtual time by the wall
    /// time since the last frame times the speed, when playing.
    pub fn tick(&mut self, wall: f64) {
        let dt = self
            .last_wall
            .map_or(0.0, |last| (wall - last).clamp(0.0, MAX_FRAME_MS));
        self.last_wall = Some(wall);
        self.wall = wall;
        // In live mode the server's stream moves the clock.
        if self.playing && !self.is_live() {
            let ahead = dt * self.pace() + self.carry;
            self.carry = ahead.fract();
            let (now, end) = (self.now(), self.end());
            let target = now + ahead as Millis;
            // The scenario's last step, so that its final state can be discussed, and the
            // lesson's next question or reveal: the clock stops exactly there.
            let stop = [(now < end).then_some(end), self.lesson.stop()]
                .into_iter()
                .flatten()
                .min();
            match stop {
                Some(stop) if target >= stop => {
                    self.run_to(stop, true);
                    self.playing = false;
                    if stop == end {
                        let mut text = String::from("End of the scenario. Press Play to go on.");
                        if self.lesson.finished() {
                            text += &format!(" Lesson score: {}.", self.lesson.score().words());
                        }
                        self.journal.announce(text, wall);
                    }
                }
                _ => self.run_to(target, true),
            }
            self.arrived(false);
        }
        self.journal.settle(wall);
    }

    /// The speed the clock runs at: the chosen one, or faster while an answer plays on to its
    /// reveal, so that it takes at most [`REVEAL_WALL_MS`].
    fn pace(&self) -> f64 {
        let reveal = self
            .lesson
            .reveal_span()
            .map_or(0.0, |span| span as f64 / REVEAL_WALL_MS);
        self.speed.max(reveal).min(SPEED_RANGE.1)
    }

    /// Runs to virtual instant `t`, if later than now, narrating, at wall time `wall` (the
    /// session's own clock stays paused): how one clock drives the two copies of a comparison.
    pub fn follow(&mut self, t: Millis, wall: f64) {
        self.wall = wall;
        if t > self.now() {
            self.run_to(t, true);
        }
        self.journal.settle(wall);
    }

    /// Pauses and jumps to the next instant at which something happens.
    pub fn step(&mut self) {
        self.playing = false;
        #[cfg(feature = "live")]
        if self.live_clock(LiveClock::Step) {
            return;
        }
        if self.holding() {
            return;
        }
        self.lesson.dismiss();
        let next_logged = self.log.get(self.cursor).map(|s| s.at);
        let next = match (self.world.next_deadline(), next_logged) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let stop = self.lesson.stop();
        let next = match (next.map(|t| t.max(self.now() + 1)), stop) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        match next {
            Some(t) => {
                self.errors.remove(&Slot::Clock);
                self.run_to(t, true);
                self.arrived(false);
            }
            None => {
                self.errors
                    .insert(Slot::Clock, "Nothing is scheduled: send a message.".into());
            }
        }
        self.journal.settle(self.wall);
    }

    /// Moves to virtual instant `t`, earlier (rewind by replay) or later (replaying the
    /// actions logged on this timeline).
    /// A question ahead that is still to ask (or an answer still to reveal) stops the move
    /// there; moving back before a question asks it again.
    pub fn seek(&mut self, t: Millis) {
        #[cfg(feature = "live")]
        if self.live_clock(LiveClock::Seek(t)) {
            return;
        }
        let back = t < self.now();
        if t > self.now() && self.holding() {
            return;
        }
        if !back {
            self.lesson.dismiss();
        }
        let t = match self.lesson.stop() {
            Some(stop) if !back && t > stop => stop,
            _ => t,
        };
        match self.jump(t) {
            Ok(()) => {
                let text = format!("Moved to {}.", wall_clock(self.now()));
                self.journal.announce(text, self.wall);
                self.arrived(back);
            }
            Err(e) => {
                self.errors.insert(Slot::Clock, e);
            }
        }
    }

    /// Turns lesson mode on or off. On, the questions ahead are asked (one due now at once).
    pub fn set_lesson(&mut self, on: bool) {
        let arrival = self.lesson.set_on(on, self.now());
        if !on {
            self.errors.remove(&Slot::Clock);
        }
        self.announce(arrival);
    }

    /// The lesson's progress.
    pub fn lesson(&self) -> &Lesson {
        &self.lesson
    }

    /// Answers the open question (`None`: Skip) and plays on to the moment that answers it.
    /// A choice the question does not have changes nothing.
    pub fn answer(&mut self, answer: Answer) {
        let Some(i) = self.lesson.open() else {
            return;
        };
        let question = &self.scenario.questions[i];
        if answer.is_some_and(|c| c >= question.choices.len()) {
            return;
        }
        let reveal = wall_clock(question.reveal_at);
        self.lesson.answer(answer);
        self.errors.remove(&Slot::Clock);
        let text = match answer {
            Some(c) => format!(
                "Your answer: {}. Playing on to {reveal}.",
                question.choices[c].text
            ),
            None => format!("Skipped. Playing on to {reveal}."),
        };
        self.journal.announce(text, self.wall);
        self.playing = true;
    }

    /// Jumps to the reveal of the answered question at once.
    pub fn reveal_now(&mut self) {
        if let Some(reveal_at) = self.lesson.reveal_at() {
            self.playing = false;
            self.seek(reveal_at);
        }
    }

    /// Puts the shown answer away and plays on (up to the scenario's end, where the score shows).
    pub fn carry_on(&mut self) {
        self.lesson.dismiss();
        // A question asked at this very instant opens now.
        self.arrived(false);
        if self.lesson.current().is_some() {
            return;
        }
        if self.now() < self.end() {
            self.play();
        } else if self.lesson.finished() {
            let score = self.lesson.score().words();
            self.journal
                .announce(format!("Lesson score: {score}."), self.wall);
        }
    }

    /// What the question panel shows now: the question asked, answered or revealed, or the
    /// score at the scenario's end (`None`: nothing).
    pub fn lesson_view(&self) -> Option<Panel> {
        let Some(i) = self.lesson.current() else {
            let over = self.lesson.finished() && self.now() >= self.end();
            return over.then(|| Panel::Score(self.lesson.score()));
        };
        let q = &self.scenario.questions[i];
        let phase = match self.lesson.status(i) {
            Status::Waiting(answer) => Phase::Waiting(answer),
            Status::Shown(answer) => Phase::Revealed(Reveal {
                answer,
                correct: q.correct,
                why: q.why.clone(),
                proof: Proof::of(&q.points_at, &self.world),
            }),
            _ => Phase::Asking,
        };
        Some(Panel::Question(Box::new(Asked {
            number: i + 1,
            total: self.scenario.questions.len(),
            prompt: q.prompt.clone(),
            choices: q.choices.iter().map(|c| c.text.clone()).collect(),
            reveal_at: q.reveal_at,
            phase,
        })))
    }

    /// Tells the lesson the clock moved (`back`: rewound) and announces what that made happen.
    fn arrived(&mut self, back: bool) {
        let now = self.now();
        let arrival = if back {
            self.lesson.rewind(now)
        } else {
            self.lesson.arrive(now)
        };
        if self.lesson.open().is_none() {
            self.errors.remove(&Slot::Clock);
        }
        self.announce(arrival);
    }

    /// Stops the clock at a question or a reveal and says it in the live region.
    fn announce(&mut self, arrival: Option<Arrival>) {
        let Some(arrival) = arrival else {
            return;
        };
        self.playing = false;
        let total = self.scenario.questions.len();
        let text = match arrival {
            Arrival::Asked(i) => {
                let q = &self.scenario.questions[i];
                let mut text = format!("Question {} of {total}: {} Answers:", i + 1, q.prompt);
                for (n, choice) in q.choices.iter().enumerate() {
                    text += &format!(" {}, {}.", n + 1, choice.text);
                }
                text
            }
            Arrival::Revealed(i) => {
                let q = &self.scenario.questions[i];
                let verdict = match self.lesson.status(i) {
                    Status::Shown(Some(c)) if c == q.correct => "Right",
                    Status::Shown(None) => "Skipped",
                    _ => "Not quite",
                };
                format!(
                    "{verdict}. The answer: {}. {} Look at {}.",
                    q.choices[q.correct].text,
                    q.why,
                    proof_words(&q.points_at)
                )
            }
        };
        self.journal.announce(text, self.wall);
    }

    /// Rebuilds the world at `t`, and the journal as a session that played there would show it.
    /// A rewind, or a jump past a checkpoint, starts from the latest checkpoint at or before `t`
    /// (or the start). The world runs to `t` without narrating (narrating a busy hour costs more
    /// than simulating it), one checkpoint interval at a time, leaving checkpoints behind for the
    /// next seek; then it runs again, from the checkpoint before [`World::narration_start`],
    /// narrating from there: the event log shows the same lines as if it had played to `t`.
    fn jump(&mut self, t: Millis) -> Result<(), String> {
        let start = self.checkpoints.latest_at_or_before(t);
        if t < self.now() || start > self.now() {
            self.restore_checkpoint(start)?;
        }
        self.run_quietly(t);
        match self.world.narration_start() {
            Some(from) => {
                self.restore_checkpoint(self.checkpoints.latest_at_or_before(from))?;
                self.run_quietly(from);
            }
            None => {
                self.world = World::load(&self.scenario)?;
                self.cursor = 0;
            }
        }
        self.journal = Journal::default();
        // What the quiet run left out is told in one line, which the narrated tail pushes out of
        // the event log (the exported events keep it).
        self.harvest(false);
        self.world.set_event_buffer(EVENT_BUFFER);
        loop {
            self.run_to((self.now() + NARRATED_CHUNK).min(t), false);
            if self.now() >= t {
                return Ok(());
            }
        }
    }

    /// The world of the latest checkpoint at or before `t` (the timeline's start when none), and
    /// as many of the logged actions as it has run.
    fn restore_checkpoint(&mut self, t: Millis) -> Result<(), String> {
        self.world = self.checkpoints.seek(&self.scenario, &self.log, t)?;
        self.cursor = self.log.iter().take_while(|a| a.at <= t).count();
        Ok(())
    }

    /// Runs to `t` without narrating, one checkpoint interval at a time, offering a checkpoint
    /// after each; the logged actions due at `t` run too. The World counts what it leaves out,
    /// for the next drain.
    fn run_quietly(&mut self, t: Millis) {
        self.world.set_event_buffer(0);
        // Told or not, what came before is not the journal's: it is built again after.
        self.world.drain_events();
        loop {
            let at = (self.now() + self.checkpoints.every()).min(t);
            self.play_to(at);
            self.checkpoints.offer(&self.world, self.cursor);
            if self.now() >= t {
                return;
            }
        }
    }

    /// Runs the logged actions due by `t` at their instants, then advances to `t`; journals
    /// what happened and offers a checkpoint.
    fn run_to(&mut self, t: Millis, narrate: bool) {
        self.play_to(t);
        // Drained first: a checkpoint need not copy events already told.
        self.harvest(narrate);
        self.checkpoints.offer(&self.world, self.cursor);
    }

    /// Runs the logged actions due by `t` at their instants, then advances to `t`.
    fn play_to(&mut self, t: Millis) {
        while let Some(logged) = self.log.get(self.cursor).filter(|s| s.at <= t) {
            let (at, step) = (logged.at, logged.step.clone());
            self.world.advance_to(at);
            // The same seed and the same actions at the same instants: it succeeds again.
            let _ = self.world.apply(step);
            self.cursor += 1;
        }
        self.world.advance_to(t);
        self.horizon = self.horizon.max(t);
    }

    /// Runs one user action now. On success it is logged (and a timeline that was rewound
    /// forgets its old future); on failure the error is kept for `slot` and nothing changes.
    pub fn act(&mut self, slot: Slot, step: Step) -> bool {
        #[cfg(feature = "live")]
        if let Some(sent) = self.live_act(slot.clone(), step.clone()) {
            return sent;
        }
        match self.world.apply(step.clone()) {
            Ok(_) => {
                self.log.truncate(self.cursor);
                let at = self.now();
                self.checkpoints.truncate_after(at);
                self.log.push(LoggedStep { at, step });
                self.cursor = self.log.len();
                self.horizon = at;
                self.errors.remove(&slot);
                self.harvest(true);
                true
            }
            Err(e) => {
                self.errors.insert(slot, e);
                false
            }
        }
    }

    /// A simulation action on a worker; errors show on that worker's lane.
    pub fn worker_action(&mut self, worker: &str, action: SimAction) -> bool {
        self.act(Slot::Worker(worker.to_string()), Step::Sim(action))
    }

    /// SendMessage to `queue`. Empty optional fields are left out of the request.
    pub fn send(&mut self, queue: &str, form: &SendForm) -> bool {
        let delay_seconds = match form.delay.trim() {
            "" => None,
            text => match text.parse::<i64>() {
                Ok(n) => Some(n),
                Err(_) => {
                    self.errors
                        .insert(Slot::Send, format!("\"{text}\" is not a whole number."));
                    return false;
                }
            },
        };
        let optional = |s: &str| Some(s.trim().to_string()).filter(|s| !s.is_empty());
        let request = Request::SendMessage(SendMessageInput {
            queue_url: self.queue_url(queue),
            message_body: form.body.as_str().into(),
            delay_seconds,
            message_group_id: optional(&form.group_id),
            message_deduplication_id: optional(&form.deduplication_id),
            ..Default::default()
        });
        let ok = self.act(Slot::Send, Step::Call(request));
        if ok {
            self.sent += 1;
        }
        ok
    }

    /// The body the send form proposes next: `order-1`, `order-2`, ...
    pub fn next_body(&self) -> String {
        format!("order-{}", self.sent + 1)
    }

    /// SetQueueAttributes with one attribute; SQS's error shows next to that setting.
    pub fn set_attribute(&mut self, queue: &str, name: &str, value: String) -> bool {
        let request = Request::SetQueueAttributes(SetQueueAttributesInput {
            queue_url: self.queue_url(queue),
            attributes: [(name.to_string(), value)].into(),
        });
        self.act(Slot::Setting(name.to_string()), Step::Call(request))
    }

    /// Any SQS call made by hand (DeleteMessage, ChangeMessageVisibility on a manual lane).
    pub fn call(&mut self, slot: Slot, request: Request) -> bool {
        self.act(slot, Step::Call(request))
    }

    /// The URL of a queue, by name, in the namespace the world shows (the name itself if the
    /// engine does not know it, so that SQS answers with its own error).
    pub fn queue_url(&self, queue: &str) -> QueueUrl {
        self.world
            .engine()
            .queue_url_in(self.world.focus(), queue)
            .unwrap_or_else(|| queue.into())
    }

    fn harvest(&mut self, narrate: bool) {
        let events = self.world.drain_events();
        self.journal.record(events, self.wall, narrate);
    }
}

/// The page keeps 16 copies of the world (a copy of a busy world is megabytes), spread over
/// the whole session by the doubling interval: memory stays bounded, a rewind replays at most
/// one interval.
fn page_checkpoints() -> Checkpoints {
    Checkpoints::with_limit(CHECKPOINT_EVERY, 16)
}

/// A pace at which a scenario's script plays in about `SCRIPT_WALL_S` seconds (a sandbox,
/// with no script, plays at 5×).
pub fn suggested_speed(duration: Millis) -> f64 {
    if duration == 0 {
        return 5.0;
    }
    (duration as f64 / 1000.0 / SCRIPT_WALL_S)
        .round()
        .clamp(SPEED_RANGE.0, SPEED_RANGE.1)
}

/// What the send form holds (strings as typed; SQS judges them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SendForm {
    /// MessageBody.
    pub body: String,
    /// DelaySeconds (a message timer); empty = none.
    pub delay: String,
    /// MessageGroupId; empty = none.
    pub group_id: String,
    /// MessageDeduplicationId; empty = none.
    pub deduplication_id: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playground::stage::{Look, Stage};

    fn sandbox() -> Session {
        Session::open(scenarios::sandbox(false)).expect("the sandbox opens")
    }

    fn stage(s: &Session) -> Stage {
        Stage::build(s.world(), &s.journal, &Stage::default())
    }

    fn send(s: &mut Session, body: &str) -> String {
        let form = SendForm {
            body: body.into(),
            ..SendForm::default()
        };
        assert!(s.send("orders", &form), "{:?}", s.error(&Slot::Send));
        let stage = stage(s);
        let card = stage
            .queued
            .cards
            .iter()
            .find(|c| c.body == body)
            .expect("sent");
        card.id.clone()
    }

    fn deliver(s: &mut Session, worker: &str, id: &str) {
        let step = Step::Sim(SimAction::Deliver {
            worker: worker.into(),
            message_id: id.into(),
        });
        assert!(s.act(Slot::Deliver, step), "{:?}", s.error(&Slot::Deliver));
    }

    #[test]
    fn a_killed_workers_message_comes_back_after_its_timeout() {
        let mut s = sandbox();
        let id = send(&mut s, "order-1");
        deliver(&mut s, "Worker 1", &id);
        let lane = &stage(&s).lanes[0];
        assert_eq!(
            lane.place.cards[0].accessible_name(),
            "order-1, in flight, 30 s left, receive count 1"
        );
        assert!(s.worker_action(
            "Worker 1",
            SimAction::Kill {
                worker: "Worker 1".into()
            }
        ));
        s.seek(29_000);
        assert_eq!(stage(&s).lanes[0].place.cards[0].look, Look::InFlight);
        s.seek(30_000);
        let back = stage(&s);
        assert_eq!(
            back.queued.cards[0].accessible_name(),
            "order-1, visible, receive count 1"
        );
        assert!(back.lanes[0].place.cards.is_empty());
        deliver(&mut s, "Worker 2", &id);
        let again = stage(&s);
        assert!(again.lanes[1].place.cards[0]
            .accessible_name()
            .ends_with("receive count 2"));
    }

    #[test]
    fn an_out_of_range_setting_is_refused_and_changes_nothing() {
        let mut s = sandbox();
        assert!(!s.set_attribute("orders", "VisibilityTimeout", "50000".into()));
        let error = s
            .error(&Slot::Setting("VisibilityTimeout".into()))
            .expect("refused");
        assert!(
            error.contains("VisibilityTimeout") || error.contains("Invalid"),
            "{error}"
        );
        let queue = stage(&s).queue.expect("queue");
        assert_eq!(queue.attribute("VisibilityTimeout"), Some("30"));
        assert!(s.set_attribute("orders", "VisibilityTimeout", "45".into()));
        assert_eq!(s.error(&Slot::Setting("VisibilityTimeout".into())), None);
    }

    #[test]
    fn rewind_replays_the_same_timeline_and_forward_replays_its_future() {
        let mut s = sandbox();
        let id = send(&mut s, "order-1");
        s.seek(5_000);
        deliver(&mut s, "Worker 1", &id);
        s.seek(40_000);
        let later = stage(&s);
        s.seek(1_000);
        assert_eq!(stage(&s).queued.cards[0].look, Look::Visible);
        s.seek(40_000);
        assert_eq!(stage(&s), later);
        assert_eq!(s.horizon(), 40_000);
    }

    /// Plays as the page does, in frames of 16 ms of wall time, pressing Play again at the
    /// scenario's end, until the clock passes `until`; then pauses.
    fn play_until(s: &mut Session, until: Millis) {
        let mut wall = s.wall;
        while s.now() < until {
            if !s.playing() {
                s.play();
            }
            wall += 16.0;
            s.tick(wall);
        }
        s.pause();
    }

    /// The event log's lines (without their sequence numbers, a key that counts differently
    /// after a seek), the stage and the metrics (the counters and the chart).
    fn shown(s: &Session) -> (Vec<String>, Stage, sqs_sim::Metrics) {
        let lines = s.journal.log.data.iter().map(|e| {
            let action = e.action.as_deref().unwrap_or("-");
            format!("{} {} {action} {}", e.at, e.actor, e.text)
        });
        (lines.collect(), stage(s), s.world().metrics().clone())
    }

    /// Asserts that `s` shows what `expected` shows, naming the first line that differs.
    fn assert_shows(s: &Session, expected: &Session, when: &str) {
        let (got, want) = (shown(s), shown(expected));
        let first = got.0.iter().zip(&want.0).position(|(a, b)| a != b);
        let line = |lines: &[String], i: usize| lines.get(i).cloned().unwrap_or_default();
        if let Some(i) = first.or((got.0.len() != want.0.len()).then_some(0)) {
            panic!(
                "{when}: {} lines for {}; line {i} is\n  {}\nnot\n  {}",
                got.0.len(),
                want.0.len(),
                line(&got.0, i),
                line(&want.0, i)
            );
        }
        assert!(got.1 == want.1, "{when}: not the same stage");
        assert!(got.2 == want.2, "{when}: not the same metrics");
    }

    /// A session that played to `until` (or the first frame after it), shown as a session
    /// restored from its link, and after seeks ahead and back to it; and a session rewound to
    /// the middle of it as one that played there.
    fn seeks_show_what_playing_showed(played: impl Fn(Millis) -> Session, until: Millis) {
        let mut s = played(until);
        let at = s.now();
        let restored = Session::restore(&s.share()).expect("restores");
        assert_shows(&restored, &played(until), &format!("restored at {at}"));
        s.seek(at + 90_000);
        s.seek(at);
        assert_shows(&s, &played(until), &format!("back at {at}"));
        let middle = played(until / 2);
        s.seek(middle.now());
        assert_shows(&s, &middle, &format!("back at {}", middle.now()));
    }

    /// Something the user does, and the virtual time after which they do it.
    type Act = (Millis, fn(&mut Session));

    /// Opens `scenario` and plays it to `until` (or the first frame after it), running each of
    /// `acts` at the first frame after its time.
    fn played(scenario: Scenario, acts: &[Act], until: Millis) -> Session {
        let mut s = Session::open(scenario).expect("opens");
        s.set_speed(100.0);
        for (at, act) in acts.iter().filter(|(at, _)| *at < until) {
            play_until(&mut s, *at);
            act(&mut s);
        }
        play_until(&mut s, until);
        s
    }

    fn kill(s: &mut Session, worker: &str) {
        let action = SimAction::Kill {
            worker: worker.into(),
        };
        assert!(
            s.worker_action(worker, action),
            "{:?}",
            s.error(&Slot::Worker(worker.into()))
        );
    }

    #[test]
    fn a_seek_shows_what_playing_there_showed() {
        let heartbeat = |until| {
            let send = |s: &mut Session| {
                let form = SendForm {
                    body: "order-1".into(),
                    ..SendForm::default()
                };
                assert!(s.send("reports", &form));
            };
            let scenario = scenarios::find("heartbeat").unwrap();
            played(scenario, &[(30_000, send)], until)
        };
        seeks_show_what_playing_showed(heartbeat, 76_000);
        let killed = |until| {
            let scenario = scenarios::find("crash-before-delete").unwrap();
            played(scenario, &[(8_000, |s| kill(s, "Worker B"))], until)
        };
        seeks_show_what_playing_showed(killed, 50_000);
        let handed_over = |until| {
            let hand_over = |s: &mut Session| {
                let id = send(s, "order-1");
                deliver(s, "Worker 1", &id);
            };
            played(scenarios::sandbox(false), &[(3_000, hand_over)], until)
        };
        seeks_show_what_playing_showed(handed_over, 20_000);
    }

    #[test]
    fn a_seek_in_a_busy_world_narrates_the_event_logs_lines_and_counts_the_rest() {
        // Ten messages a second, twenty workers: thousands of events a minute. The message of a
        // worker killed ten seconds before the moment, hundreds of events ago, stays in flight
        // on the stage, saying why.
        let busy = |until| {
            let acts: [Act; 2] = [
                (40_000, |s| {
                    assert!(s.set_attribute("orders", "VisibilityTimeout", "60".into()));
                }),
                (90_000, |s| kill(s, "Worker 3")),
            ];
            played(sqs_sim::bench::day_scenario(7), &acts, until)
        };
        let s = busy(100_000);
        assert_eq!(s.journal.log.data.len(), sqs_sim::NARRATED_TAIL);
        let unheld = &stage(&s).unheld.cards;
        assert!(unheld.iter().any(|c| c.why.is_some()), "{unheld:?}");
        let restored = Session::restore(&s.share()).expect("restores");
        let skipped = restored
            .journal
            .events()
            .iter()
            .find(|e| e.text.starts_with("Fast-forward:"));
        assert!(
            skipped.is_some(),
            "the exported events say what was left out"
        );
        seeks_show_what_playing_showed(busy, 100_000);
    }

    #[test]
    fn a_worker_that_lost_its_lease_keeps_a_stale_copy_on_its_lane() {
        let slow = scenarios::find("slow-worker").expect("in the library");
        let mut s = Session::open(slow).expect("opens");
        s.seek(35_000);
        let at_35 = stage(&s);
        let lane = |st: &Stage, name: &str| {
            let lane = st
                .lanes
                .iter()
                .find(|l| l.worker.name == name)
                .expect("lane");
            lane.place
                .cards
                .iter()
                .map(|c| c.accessible_name())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            lane(&at_35, "Worker A"),
            ["M, lease lost, worker still on it, receive count 2"]
        );
        assert!(lane(&at_35, "Worker B")[0].starts_with("M, in flight"));
        // At 12:00:45 Worker A deletes M under Worker B, which keeps working on it.
        s.seek(44_900);
        let before = stage(&s);
        s.seek(46_000);
        let after = Stage::build(s.world(), &s.journal, &before);
        assert_eq!(
            lane(&after, "Worker B"),
            ["M, lease lost, worker still on it, receive count 2"]
        );
        assert!(after.queued.cards.is_empty());
    }

    #[test]
    fn thousands_of_messages_are_drawn_as_counts() {
        let mut s = sandbox();
        for n in 0..3_000 {
            let form = SendForm {
                body: format!("bulk-{n}"),
                delay: if n % 3 == 0 {
                    "60".into()
                } else {
                    String::new()
                },
                ..SendForm::default()
            };
            assert!(s.send("orders", &form));
        }
        let started = std::time::Instant::now();
        let stage = stage(&s);
        let took = started.elapsed();
        assert!(stage.queued.aggregated());
        assert_eq!(stage.queued.total, 3_000);
        assert_eq!(
            stage.queued.counts,
            vec![(Look::Delayed, 1_000), (Look::Visible, 2_000)]
        );
        println!("Stage::build with 3,000 messages: {took:?}");
    }

    #[test]
    fn a_shared_session_rebuilds_the_same_moment() {
        let mut s = sandbox();
        let id = send(&mut s, "order-1");
        s.seek(2_000);
        deliver(&mut s, "Worker 1", &id);
        s.seek(12_345);
        let shared = s.share();
        assert!(matches!(shared.scenario, ScenarioSource::Inline(_)));
        let restored = Session::restore(&shared).expect("restores");
        assert_eq!(restored.now(), 12_345);
        assert_eq!(stage(&restored), stage(&s));
        assert_eq!(restored.next_body(), "order-2");
    }

    #[test]
    fn the_clock_follows_wall_time_times_speed_and_steps_to_events() {
        let mut s = sandbox();
        s.set_speed(10.0);
        s.play();
        s.tick(1000.0);
        s.tick(1100.0);
        assert_eq!(s.now(), 1000);
        s.set_speed(5000.0);
        assert_eq!(s.speed(), SPEED_RANGE.1);
        let id = send(&mut s, "order-1");
        deliver(&mut s, "Worker 1", &id);
        s.step();
        assert!(!s.playing());
        assert!(s.now() > 1000);
    }

    /// crash-before-delete in lesson mode: asks at 12:00:11 (reveal 12:00:20) and 12:00:25
    /// (reveal 12:00:30), the first choice correct both times.
    fn lesson() -> Session {
        let scenario = scenarios::find("crash-before-delete").expect("in the library");
        let mut s = Session::open(scenario).expect("opens");
        s.set_lesson(true);
        s
    }

    /// Plays frames of 100 ms wall time until the clock stops (at most a minute of frames).
    fn play_until_stopped(s: &mut Session) {
        let mut wall = s.wall;
        s.tick(wall);
        for _ in 0..600 {
            if !s.playing() {
                return;
            }
            wall += 100.0;
            s.tick(wall);
        }
        panic!("the clock did not stop (at {})", s.now());
    }

    fn phase(s: &Session) -> Option<Phase> {
        match s.lesson_view() {
            Some(Panel::Question(asked)) => Some(asked.phase),
            _ => None,
        }
    }

    #[test]
    fn a_lesson_stops_at_its_question_refuses_to_go_on_and_reveals_after_the_answer() {
        let mut s = lesson();
        s.set_speed(1000.0);
        s.play();
        play_until_stopped(&mut s);
        assert_eq!(s.now(), 11_000, "exactly at the question, even at 1000x");
        assert_eq!(phase(&s), Some(Phase::Asking));
        assert!(s
            .journal
            .announcement()
            .starts_with("Question 1 of 2: Worker A crashed"));
        // Play, Step and a seek ahead refuse, and say why.
        s.play();
        assert!(!s.playing());
        assert_eq!(s.error(&Slot::Clock), Some(ANSWER_FIRST));
        s.step();
        s.seek(40_000);
        assert_eq!(s.now(), 11_000);
        // A choice the question does not have changes nothing.
        s.answer(Some(7));
        assert_eq!(phase(&s), Some(Phase::Asking));
        s.answer(Some(0));
        assert_eq!(s.error(&Slot::Clock), None);
        assert!(s.playing(), "the clock plays on to the reveal");
        assert_eq!(phase(&s), Some(Phase::Waiting(Some(0))));
        play_until_stopped(&mut s);
        assert_eq!(s.now(), 20_000);
        let Some(Phase::Revealed(reveal)) = phase(&s) else {
            panic!("not revealed: {:?}", phase(&s));
        };
        assert_eq!(reveal.proof.worker.as_deref(), Some("Worker A"));
        assert_eq!(reveal.proof.messages.len(), 1, "M is highlighted");
        assert_eq!(reveal.proof.words, "message M, Worker A");
        assert!(s
            .journal
            .announcement()
            .starts_with("Right. The answer: Nothing"));
        s.carry_on();
        assert!(s.playing());
        play_until_stopped(&mut s);
        assert_eq!((s.now(), phase(&s)), (25_000, Some(Phase::Asking)));
        s.answer(None);
        play_until_stopped(&mut s);
        assert_eq!(s.now(), 30_000);
        s.carry_on();
        play_until_stopped(&mut s);
        assert_eq!(s.now(), s.end());
        assert_eq!(s.lesson_view(), Some(Panel::Score(s.lesson().score())));
        assert_eq!(s.lesson().score().words(), "1 of 2 right, 1 skipped");
        assert!(s
            .journal
            .announcement()
            .ends_with("Lesson score: 1 of 2 right, 1 skipped."));
    }

    #[test]
    fn stepping_or_seeking_past_a_question_stops_at_it_and_rewinding_asks_it_again() {
        let mut s = lesson();
        s.seek(28_000);
        assert_eq!((s.now(), phase(&s)), (11_000, Some(Phase::Asking)));
        s.answer(Some(2));
        s.reveal_now();
        assert_eq!(s.now(), 20_000);
        assert!(matches!(phase(&s), Some(Phase::Revealed(_))));
        for _ in 0..50 {
            s.step();
        }
        assert_eq!((s.now(), phase(&s)), (25_000, Some(Phase::Asking)));
        // Back before the first question: it is asked again; the score keeps the first answer.
        s.seek(5_000);
        assert_eq!(phase(&s), None);
        assert_eq!(s.error(&Slot::Clock), None);
        s.seek(60_000);
        assert_eq!((s.now(), phase(&s)), (11_000, Some(Phase::Asking)));
        s.answer(Some(0));
        assert_eq!(s.lesson().score().wrong, 1);
        assert_eq!(s.lesson().score().right, 0);
    }

    #[test]
    fn continue_asks_at_once_a_question_due_at_the_reveal_of_the_one_before() {
        let scenario = scenarios::find("short-vs-long-polling").expect("in the library");
        let mut s = Session::open(scenario).expect("opens");
        s.set_lesson(true);
        s.seek(10_000);
        assert_eq!(phase(&s), Some(Phase::Asking));
        s.answer(Some(0));
        s.reveal_now();
        assert_eq!(s.now(), 29_000);
        assert!(matches!(phase(&s), Some(Phase::Revealed(_))));
        s.carry_on();
        assert!(!s.playing());
        match s.lesson_view() {
            Some(Panel::Question(asked)) => {
                assert_eq!((asked.number, asked.phase), (2, Phase::Asking));
            }
            other => panic!("not asked: {other:?}"),
        }
    }

    #[test]
    fn without_lesson_mode_the_clock_plays_through_and_the_mode_travels_in_links() {
        let scenario = scenarios::find("crash-before-delete").expect("in the library");
        let mut s = Session::open(scenario).expect("opens");
        s.set_speed(1000.0);
        s.play();
        play_until_stopped(&mut s);
        assert_eq!((s.now(), s.lesson_view()), (s.end(), None));
        assert!(!s.share().lesson);

        let mut s = lesson();
        s.seek(11_000);
        let shared = s.share();
        assert!(shared.lesson);
        let restored = Session::restore(&shared).expect("restores");
        assert_eq!(
            (restored.now(), phase(&restored)),
            (11_000, Some(Phase::Asking))
        );
        // Opening another scenario keeps the mode.
        s.switch(scenarios::find("heartbeat").expect("in the library"));
        assert!(s.lesson().on());
        s.set_lesson(false);
        s.seek(200_000);
        assert_eq!(s.now(), 200_000);
    }

    #[test]
    fn every_scenario_opens_and_plays_to_its_end() {
        for entry in scenarios::catalogue() {
            let scenario = scenarios::find(&entry.id).expect("listed scenarios are found");
            let mut s = Session::open(scenario).unwrap_or_else(|e| panic!("{}: {e}", entry.id));
            assert!(!entry.title.is_empty(), "{} has a title", entry.id);
            let end = s.end().max(60_000);
            s.seek(end);
            let stage = stage(&s);
            assert!(stage.queue.is_some(), "{} shows a queue", entry.id);
            assert!(!s.journal.log.data.is_empty(), "{} has events", entry.id);
        }
    }

    #[test]
    fn two_queues_side_by_side_the_stage_shows_one_and_every_lane_what_it_holds() {
        let scenario = scenarios::find("fifo-single-group").expect("in the library");
        let mut s = Session::open(scenario).expect("opens");
        s.seek(10_000);
        let held = |stage: &Stage, suffix: &str| -> usize {
            stage
                .lanes
                .iter()
                .filter(|l| l.worker.name.ends_with(suffix))
                .map(|l| l.place.count(Look::InFlight))
                .sum()
        };
        let one = stage(&s);
        let queues = ["repairs-one-group.fifo", "repairs-per-workshop.fifo"];
        assert_eq!(one.queues, queues);
        assert_eq!(one.queue.as_ref().map(|q| q.name.as_str()), Some(queues[0]));
        assert_eq!(one.lanes.len(), 6);
        // One group: one ticket in flight at a time; one per workshop: three at once, each on
        // the lane that holds it although its queue is not the one drawn.
        assert_eq!(held(&one, "(one group)"), 1);
        assert_eq!(held(&one, "(per workshop)"), 3, "{:?}", one.lanes);
        assert_eq!(one.unheld.total, 0);

        let per = Stage::showing(s.world(), &s.journal, &one, Some(queues[1]));
        assert_eq!(per.queue.as_ref().map(|q| q.name.as_str()), Some(queues[1]));
        assert_eq!(held(&per, "(one group)"), 1);
        assert_eq!(held(&per, "(per workshop)"), 3);
        assert_eq!(per.unheld.total, 0);
        assert_eq!(
            per.queued.total, 0,
            "the per-workshop queue is empty at 12:00:10"
        );
        assert_eq!(one.queued.total, 4, "the one-group queue still holds four");

        // A queue no lane consumes is not offered: the first lane's queue is shown.
        let unknown = Stage::showing(s.world(), &s.journal, &one, Some("nope"));
        assert_eq!(unknown.queue, one.queue);
        // One queue: no switch.
        assert!(stage(&sandbox()).queues.is_empty());
    }
}
