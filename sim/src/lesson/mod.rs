//! Lessons that ask before they show: a scenario's questions, each asked at a virtual instant
//! and answered by what the world does by a later one.
//!
//! The player stops the clock at a question's `at` (the world advanced to it: everything due by
//! then has happened), asks the prompt and offers the choices; once the learner picks, the clock
//! plays on to `reveal_at`, the moment that answers it, and the player shows the correct choice,
//! `why`, and highlights `points_at` on the stage. Every choice carries a [`Claim`]: a fact about
//! the world that [`Claim::holds`] checks. At `reveal_at` the correct choice's claim holds and
//! every other choice's does not (the library's tests assert it for every question), so a
//! question can never teach something the engine contradicts.
//!
//! # Format
//!
//! A scenario file's `questions` member, in time order (each asked no earlier than the one
//! before it is revealed); times are seconds from the start, as `advance` counts them (the page
//! shows 60 as 12:01:00):
//!
//! ```json
//! {"at": 55, "reveal_at": 60,
//!  "prompt": "At 12:01:00 the visibility timeout runs out while Worker 1 is still working. What does Worker 2's long poll get?",
//!  "choices": [
//!    {"text": "Nothing: Worker 1 still has it",
//!     "claim": {"kind": "Message", "message": "R-022", "state": "InFlight", "holder": "Worker 1"}},
//!    {"text": "R-022, with ApproximateReceiveCount 2",
//!     "claim": {"kind": "Message", "message": "R-022", "state": "InFlight", "holder": "Worker 2", "receive_count": 2}}
//!  ],
//!  "correct": 1,
//!  "why": "The visibility timeout is a lease, not a lock: ...",
//!  "points_at": {"message": "R-022", "worker": "Worker 2"}}
//! ```
//!
//! * `at`, `reveal_at`: seconds, `at` < `reveal_at` <= the scenario's duration;
//! * `prompt`, `why`: non-empty text; `choices`: 2 to 4, each `{"text", "claim"}`;
//! * `correct`: the index of the correct choice, from 0;
//! * `points_at`: what on the stage proves the answer, any of `message` (a body), `worker` (a
//!   lane) and `queue` (e.g. the dead-letter queue), at least one.
//!
//! Claims, by `kind` (the members a question, choice or claim does not list are refused, so a
//! misspelt one is an error, not a weaker claim):
//! * `{"kind": "Message", "message": BODY, "queue"?, "state"?, "holder"?, "receive_count"?,
//!   "until"?}`: some message with that body (in `queue`, if given) has all the given facts.
//!   `state`: `Delayed`, `Visible`, `InFlight` (in a queue that is not a dead-letter queue),
//!   `DeadLettered` (stored in a dead-letter queue, in any state) or `Deleted` (no message with
//!   that body is stored, in `queue` if given; no other facts then). `holder`: the worker it is in flight
//!   with (`InFlight` only); `receive_count`: its ApproximateReceiveCount; `until`: when its
//!   delay or visibility timeout ends, in seconds (`Delayed` or `InFlight` only).
//! * `{"kind": "Performed", "effect": NAME, "times": N}`: the ledger performed that effect N times
//!   (prevented repeats not counted).
//! * `{"kind": "Counter", "counter": NAME, "value": N}`: a whole-number field of the run's
//!   [`Summary`] (`deliveries`, `duplicate_effects`, `prevented_effects`, ...).
//! * `{"kind": "Worker", "worker": NAME, "status"?, "deliveries"?, "holding"?, "api_calls"?,
//!   "empty_receives"?}`: the lane's [`WorkerView`](crate::WorkerView) has those values
//!   (`status`: `Idle`, `Polling`, `Processing`, `Dead`, `Hung`; `holding`: how many messages
//!   it holds); at least one.
//! * `{"kind": "Queue", "queue": NAME, "visible"?, "in_flight"?, "delayed"?}`: the queue's
//!   messages per state, as GetQueueAttributes counts them; at least one.
//! * `{"kind": "All", "claims": [CLAIM, ...]}`: every one of them.
//!
//! [`Questions::check`] (run by [`Scenario::parse`](crate::Scenario::parse)) refuses a bad question with an error that
//! names it ("question 2 (at 60 s): `correct` is 4 but there are 3 choices"), including a claim
//! or pointer naming a worker, queue, effect or message the scenario never has.
//!
//! # Playing them
//!
//! * `scenario.questions` lists them in time order. The frame loop never advances past the next
//!   unasked question: `advance_to(target.min(question.at))`; when the clock is at `at`, pause
//!   and ask.
//! * After the pick, play on to `reveal_at` (at the chosen speed or at once), then show
//!   `choices[correct]`, `why`, and highlight `points_at`: the worker lane and queue by name,
//!   the message through [`PointsAt::message_ids`] (empty when it is gone, e.g. deleted: then
//!   the lane or the ledger shows it). The score is the number of picks equal to `correct`.
//! * [`Question::truths`] says which choices' claims hold now. For library questions at
//!   `reveal_at` it is exactly the correct one, unless the learner changed the world in between
//!   (killed a worker, say); an imported file's questions are not tested, so the player may use
//!   it to say what the world actually did.

use crate::narrate::secs;
use crate::producer::Template;
use crate::{Summary, WorkerStatus};
use serde::de::Error as _;
use serde_json::Value;
use sqs_engine::api::{FromJson, Input, Output, ToJson};
use sqs_engine::script::seconds;
use sqs_engine::Millis;
use std::ops::Deref;

mod truths;

/// A scenario's questions, in time order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Questions(Vec<Question>);

/// One question: asked at `at`, answered by the world at `reveal_at`.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    /// When the player stops the clock and asks.
    pub at: Millis,
    /// When the world has answered it: the player plays on to here before revealing.
    pub reveal_at: Millis,
    /// The question.
    pub prompt: String,
    /// Two to four answers to pick from.
    pub choices: Vec<Choice>,
    /// The index of the correct choice.
    pub correct: usize,
    /// Why the correct choice is correct, in SQS's words.
    pub why: String,
    /// What on the stage proves it.
    pub points_at: PointsAt,
}

/// One answer: its text and what the world shows at the reveal if it is the right one.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// What the learner reads.
    pub text: String,
    /// The fact it claims.
    pub claim: Claim,
}

/// What on the stage proves an answer (at least one is given).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PointsAt {
    /// A message, by body ([`PointsAt::message_ids`] finds it).
    pub message: Option<String>,
    /// A worker lane, by name.
    pub worker: Option<String>,
    /// A queue, by name (e.g. the dead-letter queue).
    pub queue: Option<String>,
}

/// A fact about the world that [`Claim::holds`] checks (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub enum Claim {
    /// A message has all the given facts.
    Message(MessageFacts),
    /// The ledger performed an effect this many times.
    Performed {
        /// The effect's name.
        effect: String,
        /// How many times.
        times: u64,
    },
    /// A whole-number field of the [`Summary`] has this value.
    Counter {
        /// The field's name.
        counter: String,
        /// Its value.
        value: u64,
    },
    /// A worker lane's view has the given values.
    Worker(WorkerFacts),
    /// A queue's messages per state.
    Queue(QueueFacts),
    /// Every one of these.
    All(Vec<Claim>),
}

/// A [`Claim::Message`]: some message with this body (in `queue`, if given) has every fact
/// given (`None`: not claimed).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MessageFacts {
    /// Its body.
    pub message: String,
    /// The queue it is stored in.
    pub queue: Option<String>,
    /// Where it is in its lifecycle.
    pub state: Option<MessageStatus>,
    /// The worker it is in flight with.
    pub holder: Option<String>,
    /// Its ApproximateReceiveCount.
    pub receive_count: Option<u32>,
    /// When its delay or visibility timeout ends.
    pub until: Option<Millis>,
}

/// A [`Claim::Worker`]: the lane's view has every value given (`None`: not claimed).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkerFacts {
    /// The lane's name.
    pub worker: String,
    /// What it is doing.
    pub status: Option<WorkerStatus>,
    /// Messages it received.
    pub deliveries: Option<u64>,
    /// How many messages it holds.
    pub holding: Option<u64>,
    /// SQS requests it made.
    pub api_calls: Option<u64>,
    /// Its ReceiveMessage calls that returned nothing.
    pub empty_receives: Option<u64>,
}

/// A [`Claim::Queue`]: the queue has every count given (`None`: not claimed).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QueueFacts {
    /// The queue's name.
    pub queue: String,
    /// ApproximateNumberOfMessages.
    pub visible: Option<u64>,
    /// ApproximateNumberOfMessagesNotVisible.
    pub in_flight: Option<u64>,
    /// ApproximateNumberOfMessagesDelayed.
    pub delayed: Option<u64>,
}

/// Where a message is, as a [`Claim::Message`] names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageStatus {
    /// Hidden by a delay (in a queue that is not a dead-letter queue, as the next two).
    Delayed,
    /// Receivable.
    Visible,
    /// Received and hidden by its visibility timeout.
    InFlight,
    /// Stored in a dead-letter queue.
    DeadLettered,
    /// Not stored any more.
    Deleted,
}

/// The names of [`MessageStatus`] in JSON.
const MESSAGE_STATUSES: [(&str, MessageStatus); 5] = [
    ("Delayed", MessageStatus::Delayed),
    ("Visible", MessageStatus::Visible),
    ("InFlight", MessageStatus::InFlight),
    ("DeadLettered", MessageStatus::DeadLettered),
    ("Deleted", MessageStatus::Deleted),
];

/// The names of [`WorkerStatus`] in JSON (as it serializes).
const WORKER_STATUSES: [(&str, WorkerStatus); 5] = [
    ("Idle", WorkerStatus::Idle),
    ("Polling", WorkerStatus::Polling),
    ("Processing", WorkerStatus::Processing),
    ("Dead", WorkerStatus::Dead),
    ("Hung", WorkerStatus::Hung),
];

const CLAIM_KINDS: &str = "Message, Performed, Counter, Worker, Queue or All";

impl Deref for Questions {
    type Target = [Question];

    fn deref(&self) -> &[Question] {
        &self.0
    }
}

impl From<Vec<Question>> for Questions {
    fn from(questions: Vec<Question>) -> Self {
        Questions(questions)
    }
}

/// "question 2 (at 60 s)": question `index` (from 0) as errors name it, counted from 1.
fn label(index: usize, at: Option<Millis>) -> String {
    match at {
        Some(at) => format!("question {} (at {})", index + 1, secs(at)),
        None => format!("question {}", index + 1),
    }
}

impl Questions {
    /// Refuses a bad question, naming it: see the module documentation. The scenario that
    /// holds them has these `steps` (the names they introduce) and ends at `end`.
    pub fn check(&self, steps: &[Value], end: Millis) -> Result<(), String> {
        let names = Names::of(steps);
        let mut revealed: Millis = 0;
        for (index, question) in self.iter().enumerate() {
            question
                .check(end, revealed, &names)
                .map_err(|e| format!("{}: {e}", label(index, Some(question.at))))?;
            revealed = question.reveal_at;
        }
        Ok(())
    }
}

impl Question {
    /// What is wrong with this question, if anything, in a scenario that ends at `end`, after a
    /// question revealed at `revealed`.
    fn check(&self, end: Millis, revealed: Millis, names: &Names) -> Result<(), String> {
        let n = self.choices.len();
        if self.prompt.trim().is_empty() {
            return Err("the prompt is empty".into());
        }
        if self.why.trim().is_empty() {
            return Err("`why` is empty".into());
        }
        if !(2..=4).contains(&n) {
            return Err(format!("a question has 2 to 4 choices, this one {n}"));
        }
        if self.correct >= n {
            return Err(format!(
                "`correct` is {} but there are {n} choices (counted from 0)",
                self.correct
            ));
        }
        if self.at > end {
            return Err(format!(
                "it is asked after the scenario's end ({})",
                secs(end)
            ));
        }
        if self.reveal_at <= self.at {
            return Err(format!(
                "`reveal_at` ({}) must come after `at`",
                secs(self.reveal_at)
            ));
        }
        if self.reveal_at > end {
            return Err(format!(
                "`reveal_at` ({}) is after the scenario's end ({})",
                secs(self.reveal_at),
                secs(end)
            ));
        }
        if self.at < revealed {
            return Err(format!(
                "asked before the question before it is revealed (at {}): questions go in time order",
                secs(revealed)
            ));
        }
        for (i, choice) in self.choices.iter().enumerate() {
            if choice.text.trim().is_empty() {
                return Err(format!("choices[{i}] has no text"));
            }
            choice
                .claim
                .check(names)
                .map_err(|e| format!("choices[{i}]: {e}"))?;
        }
        self.points_at
            .check(names)
            .map_err(|e| format!("`points_at`: {e}"))
    }
}

impl Claim {
    /// What is wrong with this claim, if anything: a name the scenario never has, facts that
    /// cannot go together, or no fact at all.
    fn check(&self, names: &Names) -> Result<(), String> {
        match self {
            Claim::Message(facts) => facts.check(names),
            Claim::Performed { effect, .. } => names.effect(effect),
            Claim::Counter { counter, .. } => {
                let summary = serde_json::to_value(Summary::default()).unwrap_or_default();
                match summary.get(counter) {
                    Some(value) if value.is_u64() => Ok(()),
                    _ => Err(format!("no counter `{counter}` in the summary")),
                }
            }
            Claim::Worker(facts) => {
                names.worker(&facts.worker)?;
                let counts = [
                    facts.deliveries,
                    facts.holding,
                    facts.api_calls,
                    facts.empty_receives,
                ];
                if facts.status.is_none() && counts.iter().all(Option::is_none) {
                    return Err(format!(
                        "the claim on worker {} states nothing",
                        facts.worker
                    ));
                }
                Ok(())
            }
            Claim::Queue(facts) => {
                names.queue(&facts.queue)?;
                let counts = [facts.visible, facts.in_flight, facts.delayed];
                if counts.iter().all(Option::is_none) {
                    return Err(format!("the claim on queue {} states nothing", facts.queue));
                }
                Ok(())
            }
            Claim::All(claims) if claims.is_empty() => Err("`All` has no claims".into()),
            Claim::All(claims) => claims.iter().try_for_each(|c| c.check(names)),
        }
    }
}

impl MessageFacts {
    fn check(&self, names: &Names) -> Result<(), String> {
        names.message(&self.message)?;
        if let Some(queue) = &self.queue {
            names.queue(queue)?;
        }
        if let Some(holder) = &self.holder {
            names.worker(holder)?;
        }
        let is = |state| self.state == Some(state);
        let (holder, until) = (self.holder.is_some(), self.until.is_some());
        if is(MessageStatus::Deleted) && (holder || until || self.receive_count.is_some()) {
            return Err("a deleted message has no holder, receive count or `until`".into());
        }
        if holder && !is(MessageStatus::InFlight) {
            return Err("a `holder` goes with the state InFlight".into());
        }
        if until && !(is(MessageStatus::InFlight) || is(MessageStatus::Delayed)) {
            return Err("`until` goes with the state InFlight or Delayed".into());
        }
        Ok(())
    }
}

impl PointsAt {
    fn check(&self, names: &Names) -> Result<(), String> {
        if self.message.is_none() && self.worker.is_none() && self.queue.is_none() {
            return Err("it names no message, worker or queue".into());
        }
        if let Some(message) = &self.message {
            names.message(message)?;
        }
        if let Some(worker) = &self.worker {
            names.worker(worker)?;
        }
        if let Some(queue) = &self.queue {
            names.queue(queue)?;
        }
        Ok(())
    }
}

/// The names a scenario's steps introduce: its workers (AddWorker), queues (CreateQueue),
/// effects (the workers' policies) and message bodies (SendMessage, SendMessageBatch and the
/// producers' templates).
#[derive(Default)]
struct Names {
    workers: Vec<String>,
    queues: Vec<String>,
    effects: Vec<String>,
    messages: Vec<String>,
    /// Whether `messages` are all the bodies there will be: not when a body is computed
    /// (`${...}`) or a producer sends without end.
    all_messages: bool,
}

/// The most messages a producer's template is expanded to for [`Names`]: beyond, its bodies
/// are not checked.
const EXPANDED: u64 = 10_000;

impl Names {
    fn of(steps: &[Value]) -> Self {
        let mut names = Names {
            all_messages: true,
            ..Names::default()
        };
        let text = |value: &Value| value.as_str().map(str::to_string);
        for step in steps {
            let input = &step["input"];
            let action = step.get("call").or(step.get("sim")).and_then(Value::as_str);
            match action.unwrap_or_default() {
                "CreateQueue" => names.queues.extend(text(&input["QueueName"])),
                "AddWorker" | "SetPolicy" => {
                    names.workers.extend(text(&input["name"]));
                    for effect in input["policy"]["effects"].as_array().into_iter().flatten() {
                        names.effects.extend(text(&effect["name"]));
                    }
                }
                "SendMessage" => names.body(text(&input["MessageBody"])),
                "SendMessageBatch" => {
                    for entry in input["Entries"].as_array().into_iter().flatten() {
                        names.body(text(&entry["MessageBody"]));
                    }
                }
                "AddProducer" => match (text(&input["body"]), input["count"].as_u64()) {
                    (Some(body), Some(count)) if count <= EXPANDED => {
                        let template = Template::parse(&body);
                        for n in 1..=count {
                            names.messages.push(template.render(n));
                        }
                    }
                    _ => names.all_messages = false,
                },
                _ => {}
            }
        }
        names
    }

    /// Notes a body sent (None, or one computed when the step runs: not known here).
    fn body(&mut self, body: Option<String>) {
        match body {
            Some(body) if !body.contains("${") => self.messages.push(body),
            _ => self.all_messages = false,
        }
    }

    fn worker(&self, name: &str) -> Result<(), String> {
        known(&self.workers, name, "worker")
    }

    fn queue(&self, name: &str) -> Result<(), String> {
        known(&self.queues, name, "queue")
    }

    fn effect(&self, name: &str) -> Result<(), String> {
        known(&self.effects, name, "effect")
    }

    fn message(&self, body: &str) -> Result<(), String> {
        if !self.all_messages {
            return Ok(());
        }
        known(&self.messages, body, "message")
    }
}

/// Whether `name` is among the `kind`s the scenario has, as an error naming it.
fn known(names: &[String], name: &str, kind: &str) -> Result<(), String> {
    if names.iter().any(|n| n == name) {
        Ok(())
    } else {
        Err(format!("the scenario has no {kind} \"{name}\""))
    }
}

// Reading and writing, by hand (see `sqs_engine::api::Input`): times in seconds, and the
// members a question or claim does not list refused.

/// Seconds (a number >= 0) as milliseconds, rounded as `advance` steps are.
fn millis(seconds: f64) -> Option<Millis> {
    (seconds.is_finite() && seconds >= 0.0).then(|| (seconds * 1000.0).round() as Millis)
}

/// The member `name`, in seconds (None when it is missing and not `required`).
fn time(
    input: &mut Input,
    name: &'static str,
    required: bool,
) -> Result<Option<Millis>, serde_json::Error> {
    let value: Option<f64> = if required {
        Some(input.field(name)?)
    } else {
        input.field_or_default(name)?
    };
    value
        .map(|s| millis(s).ok_or_else(|| custom(format!("`{name}` must be seconds >= 0"))))
        .transpose()
}

/// The member `name`, one of `table`'s names (None when it is missing).
fn named<T: Clone>(
    input: &mut Input,
    name: &'static str,
    table: &[(&str, T)],
) -> Result<Option<T>, serde_json::Error> {
    let Some(text) = input.field_or_default::<Option<String>>(name)? else {
        return Ok(None);
    };
    match table.iter().find(|(known, _)| *known == text) {
        Some((_, value)) => Ok(Some(value.clone())),
        None => {
            let mut known = String::new();
            for (i, (option, _)) in table.iter().enumerate() {
                known += if i == 0 { "" } else { ", " };
                known += option;
            }
            Err(custom(format!(
                "unknown {name} `{text}` (expected {known})"
            )))
        }
    }
}

/// The name of `value` in `table`.
fn name_of<T: PartialEq>(table: &[(&'static str, T)], value: &T) -> &'static str {
    table
        .iter()
        .find(|(_, known)| known == value)
        .map_or("", |(name, _)| name)
}

/// Reads `input` with `read`, then refuses the members it left.
fn strictly<T>(
    mut input: Input,
    read: impl FnOnce(&mut Input) -> Result<T, serde_json::Error>,
) -> Result<T, serde_json::Error> {
    let value = read(&mut input)?;
    match input.0.as_object().and_then(|rest| rest.keys().next()) {
        Some(name) => Err(custom(format!("unknown member `{name}`"))),
        None => Ok(value),
    }
}

fn custom(message: String) -> serde_json::Error {
    serde_json::Error::custom(message)
}

impl Questions {
    fn read(input: Input) -> Result<Self, serde_json::Error> {
        let Value::Array(items) = input.0 else {
            return Err(custom("`questions` must be a list".into()));
        };
        let mut questions = Vec::with_capacity(items.len());
        for (index, item) in items.into_iter().enumerate() {
            let at = item.get("at").and_then(Value::as_f64).and_then(millis);
            let question = Question::from_json(item)
                .map_err(|e| custom(format!("{}: {e}", label(index, at))))?;
            questions.push(question);
        }
        Ok(Questions(questions))
    }
}

impl Question {
    fn read(input: Input) -> Result<Self, serde_json::Error> {
        strictly(input, |input| {
            let at = time(input, "at", true)?.unwrap_or_default();
            let reveal_at = time(input, "reveal_at", true)?.unwrap_or_default();
            let prompt = input.field("prompt")?;
            let mut choices = Vec::new();
            for (i, choice) in input
                .field::<Vec<Value>>("choices")?
                .into_iter()
                .enumerate()
            {
                let choice =
                    Choice::from_json(choice).map_err(|e| custom(format!("choices[{i}]: {e}")))?;
                choices.push(choice);
            }
            let correct: u64 = input.field("correct")?;
            Ok(Question {
                at,
                reveal_at,
                prompt,
                choices,
                correct: usize::try_from(correct).unwrap_or(usize::MAX),
                why: input.field("why")?,
                points_at: input.field("points_at")?,
            })
        })
    }
}

impl Choice {
    fn read(input: Input) -> Result<Self, serde_json::Error> {
        strictly(input, |input| {
            Ok(Choice {
                text: input.field("text")?,
                claim: input.field("claim")?,
            })
        })
    }
}

sqs_engine::members! {
    PointsAt {
        message: optional("message"),
        worker: optional("worker"),
        queue: optional("queue"),
    }
}

impl Claim {
    fn read(input: Input) -> Result<Self, serde_json::Error> {
        strictly(input, Claim::read_members)
    }

    fn read_members(input: &mut Input) -> Result<Self, serde_json::Error> {
        let kind: String = input.field("kind")?;
        Ok(match kind.as_str() {
            "Message" => Claim::Message(MessageFacts {
                message: input.field("message")?,
                queue: input.field_or_default("queue")?,
                state: named(input, "state", &MESSAGE_STATUSES)?,
                holder: input.field_or_default("holder")?,
                receive_count: input.field_or_default("receive_count")?,
                until: time(input, "until", false)?,
            }),
            "Performed" => Claim::Performed {
                effect: input.field("effect")?,
                times: input.field("times")?,
            },
            "Counter" => Claim::Counter {
                counter: input.field("counter")?,
                value: input.field("value")?,
            },
            "Worker" => Claim::Worker(WorkerFacts {
                worker: input.field("worker")?,
                status: named(input, "status", &WORKER_STATUSES)?,
                deliveries: input.field_or_default("deliveries")?,
                holding: input.field_or_default("holding")?,
                api_calls: input.field_or_default("api_calls")?,
                empty_receives: input.field_or_default("empty_receives")?,
            }),
            "Queue" => Claim::Queue(QueueFacts {
                queue: input.field("queue")?,
                visible: input.field_or_default("visible")?,
                in_flight: input.field_or_default("in_flight")?,
                delayed: input.field_or_default("delayed")?,
            }),
            "All" => Claim::All(input.field("claims")?),
            _ => {
                return Err(custom(format!(
                    "unknown claim kind `{kind}` (expected {CLAIM_KINDS})"
                )))
            }
        })
    }
}

sqs_engine::read_by_hand!(Questions, Question, Choice, Claim);
sqs_engine::write_by_hand!(Questions, Question, Claim);

/// Writes `value` as the member `name` when it is `Some`.
fn put<T: ToJson>(out: &mut Output, name: &'static str, value: &Option<T>) {
    if let Some(value) = value {
        out.field(name, value);
    }
}

impl ToJson for Questions {
    fn to_json(&self) -> Value {
        self.0.to_json()
    }
}

impl ToJson for Question {
    fn to_json(&self) -> Value {
        let mut out = Output::default();
        out.value("at", seconds(self.at));
        out.value("reveal_at", seconds(self.reveal_at));
        out.field("prompt", &self.prompt);
        out.field("choices", &self.choices);
        out.field("correct", &self.correct);
        out.field("why", &self.why);
        out.field("points_at", &self.points_at);
        out.into()
    }
}

sqs_engine::writers! {
    Choice { text: field("text"), claim: field("claim") }
}

impl ToJson for Claim {
    fn to_json(&self) -> Value {
        let mut out = Output::default();
        let kind = match self {
            Claim::Message(facts) => {
                out.field("message", &facts.message);
                put(&mut out, "queue", &facts.queue);
                if let Some(state) = &facts.state {
                    out.field("state", name_of(&MESSAGE_STATUSES, state));
                }
                put(&mut out, "holder", &facts.holder);
                put(&mut out, "receive_count", &facts.receive_count);
                if let Some(until) = facts.until {
                    out.value("until", seconds(until));
                }
                "Message"
            }
            Claim::Performed { effect, times } => {
                out.field("effect", effect);
                out.field("times", times);
                "Performed"
            }
            Claim::Counter { counter, value } => {
                out.field("counter", counter);
                out.field("value", value);
                "Counter"
            }
            Claim::Worker(facts) => {
                out.field("worker", &facts.worker);
                if let Some(status) = &facts.status {
                    out.field("status", name_of(&WORKER_STATUSES, status));
                }
                put(&mut out, "deliveries", &facts.deliveries);
                put(&mut out, "holding", &facts.holding);
                put(&mut out, "api_calls", &facts.api_calls);
                put(&mut out, "empty_receives", &facts.empty_receives);
                "Worker"
            }
            Claim::Queue(facts) => {
                out.field("queue", &facts.queue);
                put(&mut out, "visible", &facts.visible);
                put(&mut out, "in_flight", &facts.in_flight);
                put(&mut out, "delayed", &facts.delayed);
                "Queue"
            }
            Claim::All(claims) => {
                out.field("claims", claims);
                "All"
            }
        };
        out.field("kind", kind);
        out.into()
    }
}
