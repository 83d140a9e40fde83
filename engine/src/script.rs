//! Scenario scripts: the `sqs-sim run` file format (calls, clock advances, awaited long polls).
//!
//! # File format
//!
//! A script is one JSON object:
//!
//! ```json
//! { "seed": 7,
//!   "steps": [
//!     {"call": "CreateQueue", "input": {"QueueName": "q"}, "as": "Q"},
//!     {"call": "SendMessage", "input": {"QueueUrl": "${Q.QueueUrl}", "MessageBody": "a"}},
//!     {"call": "ReceiveMessage", "input": {"QueueUrl": "${Q.QueueUrl}"}, "as": "R1"},
//!     {"advance": 30},
//!     {"call": "ReceiveMessage", "input": {"QueueUrl": "${Q.QueueUrl}", "WaitTimeSeconds": 20},
//!      "as": "P1", "async": true},
//!     {"call": "SendMessage", "input": {"QueueUrl": "${Q.QueueUrl}", "MessageBody": "b"}},
//!     {"await": "P1"},
//!     {"call": "DeleteMessage",
//!      "input": {"QueueUrl": "${Q.QueueUrl}", "ReceiptHandle": "${R1.Messages.0.ReceiptHandle}"}}
//!   ] }
//! ```
//!
//! * `seed` (optional, default 0) seeds the engine. Every other top-level key (`title`, `rule`,
//!   `narrative`, `expect`, ...) is metadata: kept in [`ScriptFile::meta`], ignored by the runner.
//! * Every step may carry a free-text `"note"`. The step kinds:
//!   * **call** `{"call": Action, "input": {...}, "as"?: NAME, "async"?: bool}` runs one SQS action
//!     ([`Request`], AWS's JSON member names; `input` defaults to `{}`) at the current virtual
//!     time. A member the action does not have is an error (`input: unknown field "X"`). A call
//!     that is left pending (a long poll) blocks the script, and the clock advances to the
//!     engine's deadlines until it is answered, unless the step says `"async": true`: then the
//!     script goes on and the call prints its line when it is answered.
//!   * **advance** `{"advance": SECONDS}` moves the clock forward (fractions allowed, rounded to
//!     the millisecond), stopping at every deadline on the way so that work happens in time order.
//!   * **await** `{"await": NAME}` advances the clock, deadline by deadline, until the async call
//!     named NAME is answered (at once if it already is). It is an error if nothing is scheduled
//!     any more while the call is still pending.
//!   * **repeat** `{"repeat": N, "steps": [...]}` runs its steps N times over (1 to 1,000,000), as
//!     if they were written out N times: for limits that take thousands of calls to reach. Its
//!     steps may not be async calls or repeats; an `as` inside names the latest iteration's result.
//!   * any other object is offered to [`Driver::run_extra`] (the simulation adds its own kinds).
//! * `"as": NAME` names a step's result: a call's AWS response (`{"error": {...}}` for an error),
//!   an extra step's result. Names are unique and may not contain `.`, `{`, `}` or `$`.
//! * Any string in a later step may contain `${NAME.path.to.field}` (array indexes are numbers,
//!   `${R1.Messages.0.ReceiptHandle}`). A string that is exactly one `${...}` becomes the JSON
//!   value found there (number, object, ...); inside a longer string the value is stringified
//!   (strings as they are, other values as JSON). `$${` writes a literal `${`.
//!
//! # Output
//!
//! One JSON object per line ([`Line`]), in the order the steps finish, keys `step` (0-based
//! index) and `t` (virtual seconds since the start when the step finished: `30`, `1.5`) first,
//! then the others sorted:
//!
//! * call, answered: `{"step":2,"t":0,"call":"ReceiveMessage","output":{...}}` (`output` is AWS's
//!   response body, `{}` when AWS answers without members);
//! * call, failed: `{"step":2,"t":0,"call":"DeleteMessage","error":{"code":
//!   "ReceiptHandleIsInvalid","message":"...","status":400,"type":"com.amazonaws.sqs#ReceiptHandleIsInvalid"}}`
//!   (`code` is the query code SDKs show, `type` the JSON `__type`, `status` the HTTP status);
//! * advance: `{"step":3,"t":30,"advance":30}`; await: `{"step":6,"t":1.5,"await":"P1"}`;
//! * repeat: one line when it ends, whatever N: `{"step":1,"t":0,"calls":12000,"errors":
//!   {"OverLimit":2},"first_error":{...},"last":{...},"repeat":12000}`: `calls` counts the calls
//!   its steps made, `errors` the failed ones by error code (absent when none), `first_error` is
//!   the first failed call's line and `last` the last line of the last iteration, each with its
//!   `iteration` (0-based) and `step` (its index in the repeat's `steps`). An async call of an
//!   earlier step answered meanwhile prints its own line as usual;
//! * an extra step: `step`, `t` and the members of the object [`Driver::run_extra`] returned
//!   (a result that is not an object comes as `"result"`);
//! * finally, if [`Driver::summary`] has one, `{"t":...,"summary":{...}}` (no `step`).
//!
//! A step's own line comes before the lines of the async calls it answered (a send answering a
//! long poll). An async call still pending when the script ends prints nothing.
//!
//! A malformed script is a [`ScriptError`] naming the step (`step 4: unknown field "inptu"`,
//! `step 2: ${R9.Messages.0.ReceiptHandle}: no earlier step is named R9`; inside a repeat
//! `step 3: steps.1: ...`, and `step 3: iteration 7, steps.1: ...` for what is found running). The structure of every
//! step and every `${...}` name is checked before the first step runs; a path that does not
//! exist in a result is found when the step runs. An SQS error is not a script error.
//!
//! # Running a script
//!
//! [`run`] (all lines at the end) and [`run_streaming`] (each line as soon as it is known) take
//! any [`Driver`]: the bare [`Engine`] implements it; the simulation's world implements it too,
//! owning the clock (its workers move with it) and adding step kinds. [`Bindings`] and
//! [`parse_request`] are public so that a driver's own steps can use the same `${...}` and call
//! syntax.
//!
//! ```
//! use sqs_engine::script::{run, ScriptFile};
//!
//! let script = ScriptFile::parse(r#"{"title": "an empty long poll", "steps": [
//!     {"call": "CreateQueue", "input": {"QueueName": "q"}, "as": "Q"},
//!     {"advance": 1.5},
//!     {"call": "ReceiveMessage", "input": {"QueueUrl": "${Q.QueueUrl}", "WaitTimeSeconds": 2}}
//! ]}"#)?;
//! let mut engine = sqs_engine::Engine::new(script.seed);
//! let lines: Vec<String> = run(&mut engine, &script)?.iter().map(|l| l.to_string()).collect();
//! assert_eq!(lines[1], r#"{"step":1,"t":1.5,"advance":1.5}"#);
//! // The long poll blocks the script until its wait ends, 2 s later.
//! assert_eq!(lines[2], r#"{"step":2,"t":3.5,"call":"ReceiveMessage","output":{}}"#);
//! # Ok::<(), sqs_engine::script::ScriptError>(())
//! ```
//!
//! Error messages quote names and text as they are (`"\"{key}\""`), without escaping quotes,
//! backslashes or control characters.

use crate::api::{ReceiveMessageOutput, Request, ToJson};
use crate::engine::Engine;
use crate::error::SqsError;
use crate::reply::{PollId, Reply};
use crate::Millis;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// What a script runs against: the bare [`Engine`], or a simulation around it that owns the
/// clock (it advances its workers too) and adds step kinds of its own.
pub trait Driver {
    /// The engine the calls go to.
    fn engine(&mut self) -> &mut Engine;
    /// The current virtual time.
    fn now(&self) -> Millis;
    /// Moves the clock to `t` (never backwards), doing all work due by then.
    fn advance_to(&mut self, t: Millis);
    /// The earliest instant at which [`Driver::advance_to`] has work to do.
    fn next_deadline(&self) -> Option<Millis>;
    /// Runs one SQS action for the script at the current time.
    fn call(&mut self, request: Request) -> Reply {
        self.engine().call(request)
    }
    /// The script's long polls answered since the last call of it, in answer order. A driver
    /// whose own actors also long-poll keeps their answers and returns only the others.
    fn take_completed_polls(&mut self) -> Vec<(PollId, ReceiveMessageOutput)> {
        self.engine().take_completed_polls()
    }
    /// Runs a step that is not a call, advance or await (after `${...}` substitution).
    /// `None`: not a step kind of this driver. `Some(Ok(result))`: done; an object's members go
    /// into the step's line. `Some(Err(message))`: the step is malformed.
    fn run_extra(&mut self, _step: &Value) -> Option<Result<Value, String>> {
        None
    }
    /// A final summary line, if the driver has one.
    fn summary(&self) -> Option<Value> {
        None
    }
}

impl Driver for Engine {
    fn engine(&mut self) -> &mut Engine {
        self
    }
    fn now(&self) -> Millis {
        Engine::now(self)
    }
    fn advance_to(&mut self, t: Millis) {
        Engine::advance_to(self, t)
    }
    fn next_deadline(&self) -> Option<Millis> {
        Engine::next_deadline(self)
    }
}

/// A malformed script: which step (if any) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    /// The 0-based index of the offending step; `None` for the file as a whole.
    pub step: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl ScriptError {
    fn file(message: impl Into<String>) -> Self {
        ScriptError {
            step: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.step {
            Some(step) => write!(f, "step {step}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ScriptError {}

/// A parsed script file: the seed, the steps (still JSON: their kinds may belong to a
/// [`Driver`]) and the metadata keys.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScriptFile {
    /// The engine seed (0 when the file has none).
    pub seed: u64,
    /// The steps, in order.
    pub steps: Vec<Value>,
    /// Every other top-level key (`title`, `rule`, `narrative`, ...).
    pub meta: Map<String, Value>,
}

impl ScriptFile {
    /// Parses a script file's text.
    pub fn parse(text: &str) -> Result<Self, ScriptError> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| ScriptError::file(format!("not JSON: {e}")))?;
        Self::from_value(value)
    }

    /// Reads a script from a JSON value.
    pub fn from_value(value: Value) -> Result<Self, ScriptError> {
        let Value::Object(mut meta) = value else {
            return Err(ScriptError::file("a script is a JSON object"));
        };
        let seed = match meta.remove("seed") {
            None => 0,
            Some(seed) => seed
                .as_u64()
                .ok_or_else(|| ScriptError::file("\"seed\" must be a non-negative integer"))?,
        };
        let steps = match meta.remove("steps") {
            Some(Value::Array(steps)) => steps,
            Some(_) => return Err(ScriptError::file("\"steps\" must be an array")),
            None => return Err(ScriptError::file("missing \"steps\"")),
        };
        Ok(ScriptFile { seed, steps, meta })
    }
}

/// One output line: the step it reports, when it finished, and what it reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The 0-based step index (`None` for the summary line).
    pub step: Option<usize>,
    /// When the step finished.
    pub t: Millis,
    /// The other members (`call` + `output`/`error`, `advance`, `await`, ...).
    pub fields: Map<String, Value>,
}

impl Line {
    /// The line as one JSON object.
    pub fn to_value(&self) -> Value {
        let mut object = self.fields.clone();
        if let Some(step) = self.step {
            object.insert("step".into(), step.into());
        }
        object.insert("t".into(), seconds(self.t));
        Value::Object(object)
    }
}

impl fmt::Display for Line {
    /// Compact JSON, `step` and `t` first, every other object key sorted, so that output is
    /// byte-for-byte stable. serde_json's `Map` is sorted by key (its `preserve_order` feature is
    /// off; `lines_print_step_and_t_first_then_sorted_keys` fails if it comes on), so no sort
    /// here.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        if let Some(step) = self.step {
            write!(f, "\"step\":{step},")?;
        }
        write!(f, "\"t\":{}", seconds(self.t))?;
        for (key, value) in &self.fields {
            write!(f, ",{}:", Value::from(key.as_str()))?;
            write_canonical(f, value)?;
        }
        f.write_str("}")
    }
}

/// Writes JSON with object keys sorted (as `Map` holds them).
fn write_canonical(f: &mut fmt::Formatter<'_>, value: &Value) -> fmt::Result {
    match value {
        Value::Object(map) => {
            f.write_str("{")?;
            for (i, (key, value)) in map.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{}:", Value::from(key.as_str()))?;
                write_canonical(f, value)?;
            }
            f.write_str("}")
        }
        Value::Array(items) => {
            f.write_str("[")?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write_canonical(f, item)?;
            }
            f.write_str("]")
        }
        scalar => write!(f, "{scalar}"),
    }
}

/// Virtual milliseconds as a JSON number of seconds (`30`, `1.5`).
pub fn seconds(t: Millis) -> Value {
    if t % 1000 == 0 {
        Value::from(t / 1000)
    } else {
        Value::from(t as f64 / 1000.0)
    }
}

/// Named step results and the `${NAME.path}` substitution over them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bindings {
    values: BTreeMap<String, Value>,
}

impl Bindings {
    /// Names a result.
    pub fn insert(&mut self, name: impl Into<String>, value: Value) {
        self.values.insert(name.into(), value);
    }

    /// The result named `name`, if it is there yet.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values.get(name)
    }

    /// The value a reference such as `R1.Messages.0.ReceiptHandle` points at.
    pub fn resolve(&self, reference: &str) -> Result<&Value, String> {
        let mut segments = reference.split('.');
        let name = segments.next().unwrap_or_default();
        let mut value = self
            .values
            .get(name)
            .ok_or_else(|| format!("${{{reference}}}: {name} has no value (yet)"))?;
        // The path read so far is the reference up to `end` (no string is built for it).
        let mut end = name.len();
        for segment in segments {
            value = match value {
                Value::Object(map) => map.get(segment),
                Value::Array(items) => segment.parse::<usize>().ok().and_then(|i| items.get(i)),
                _ => None,
            }
            .ok_or_else(|| {
                let path = &reference[..end];
                format!("${{{reference}}}: {path} has no \"{segment}\"")
            })?;
            end += 1 + segment.len();
        }
        Ok(value)
    }

    /// `value` with every `${...}` in its strings replaced (see the module docs).
    pub fn substitute(&self, value: &Value) -> Result<Value, String> {
        Ok(match value {
            Value::String(text) => self.substitute_str(text)?,
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|item| self.substitute(item))
                    .collect::<Result<_, _>>()?,
            ),
            // Member by member: the members are sorted and unique already (see
            // `FromJson for BTreeMap`).
            Value::Object(map) => {
                let mut members = Map::new();
                for (key, item) in map {
                    members.insert(key.clone(), self.substitute(item)?);
                }
                Value::Object(members)
            }
            scalar => scalar.clone(),
        })
    }

    fn substitute_str(&self, text: &str) -> Result<Value, String> {
        let pieces = split_placeholders(text)?;
        if let [Piece::Text(""), Piece::Reference(reference), Piece::Text("")] = pieces.as_slice() {
            return self.resolve(reference).cloned();
        }
        let mut out = String::new();
        for piece in pieces {
            match piece {
                Piece::Text(text) => out.push_str(text),
                Piece::Reference(reference) => match self.resolve(reference)? {
                    Value::String(s) => out.push_str(s),
                    other => out.push_str(&other.to_string()),
                },
            }
        }
        Ok(Value::String(out))
    }
}

/// A part of a string: literal text or a `${...}` reference, both borrowed from the string.
enum Piece<'a> {
    Text(&'a str),
    Reference(&'a str),
}

/// Splits a string into literal text and `${...}` references (`$${` is a literal `${`). Each
/// reference comes between two texts, empty ones included: a string that is exactly one
/// reference is `[Text(""), Reference(_), Text("")]`. Texts are not joined, so that no string
/// is made.
fn split_placeholders(text: &str) -> Result<Vec<Piece<'_>>, String> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("${") {
        if rest[..at].ends_with('$') {
            // The text before the `$`, then the `${` it escapes.
            pieces.push(Piece::Text(&rest[..at - 1]));
            pieces.push(Piece::Text(&rest[at..at + 2]));
            rest = &rest[at + 2..];
            continue;
        }
        let end = rest[at..]
            .find('}')
            .ok_or_else(|| format!("unterminated \"${{\" in \"{text}\""))?;
        pieces.push(Piece::Text(&rest[..at]));
        pieces.push(Piece::Reference(&rest[at + 2..at + end]));
        rest = &rest[at + end + 1..];
    }
    pieces.push(Piece::Text(rest));
    Ok(pieces)
}

/// Every `${...}` reference in the strings of `value`.
pub fn references(value: &Value) -> Result<Vec<&str>, String> {
    let mut found = Vec::new();
    collect_references(value, &mut found)?;
    Ok(found)
}

fn collect_references<'a>(value: &'a Value, found: &mut Vec<&'a str>) -> Result<(), String> {
    match value {
        Value::String(text) => {
            for piece in split_placeholders(text)? {
                if let Piece::Reference(reference) = piece {
                    found.push(reference);
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                collect_references(item, found)?;
            }
        }
        Value::Object(map) => {
            for item in map.values() {
                collect_references(item, found)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// A step of a built-in kind, checked; `Extra` steps belong to the driver.
enum Step {
    Call {
        action: String,
        input: Value,
        is_async: bool,
    },
    Advance(Millis),
    Await(String),
    /// The steps (as written, and checked), run `times` times over.
    Repeat {
        times: u64,
        steps: Vec<(Value, Checked)>,
    },
    Extra,
}

/// A checked step: its kind and the name its result gets.
struct Checked {
    step: Step,
    name: Option<String>,
}

/// Most iterations a `repeat` step may ask for.
const MAX_REPEAT: u64 = 1_000_000;

fn check_step(value: &Value) -> Result<Checked, String> {
    let Value::Object(map) = value else {
        return Err("a step is a JSON object".into());
    };
    let (allowed, step): (&[&str], Step) = if let Some(action) = map.get("call") {
        let action = action.as_str().ok_or("\"call\" must be an action name")?;
        let input = map
            .get("input")
            .cloned()
            .unwrap_or_else(|| Value::Object(Map::new()));
        if !input.is_object() {
            return Err("\"input\" must be an object".into());
        }
        let is_async = match map.get("async") {
            None => false,
            Some(flag) => flag.as_bool().ok_or("\"async\" must be true or false")?,
        };
        let step = Step::Call {
            action: action.to_string(),
            input,
            is_async,
        };
        (&["call", "input", "as", "async", "note"], step)
    } else if let Some(secs) = map.get("advance") {
        let secs = secs
            .as_f64()
            .filter(|s| s.is_finite() && (0.0..=1e12).contains(s))
            .ok_or("\"advance\" must be a number of seconds >= 0")?;
        (
            &["advance", "note"],
            Step::Advance((secs * 1000.0).round() as Millis),
        )
    } else if let Some(name) = map.get("await") {
        let name = name.as_str().ok_or("\"await\" must be a step name")?;
        (&["await", "note"], Step::Await(name.to_string()))
    } else {
        return Ok(Checked {
            step: Step::Extra,
            name: step_name(map)?,
        });
    };
    if let Some(key) = map.keys().find(|key| !allowed.contains(&key.as_str())) {
        return Err(format!("unknown field \"{key}\""));
    }
    Ok(Checked {
        step,
        name: step_name(map)?,
    })
}

fn step_name(map: &Map<String, Value>) -> Result<Option<String>, String> {
    match map.get("as") {
        None => Ok(None),
        Some(Value::String(name)) if !name.is_empty() && !name.contains(['.', '{', '}', '$']) => {
            Ok(Some(name.clone()))
        }
        Some(_) => Err("\"as\" must be a name without '.', '{', '}' or '$'".into()),
    }
}

/// Checks every step before any runs: kinds, fields, names, and that every `${NAME...}` and
/// `await` names an earlier step.
fn check_script(script: &ScriptFile) -> Result<Vec<Checked>, ScriptError> {
    let mut named = Names::new();
    let steps = script.steps.iter().enumerate();
    steps
        .map(|(index, value)| {
            check_in_order(value, &index.to_string(), false, &mut named).map_err(|message| {
                ScriptError {
                    step: Some(index),
                    message,
                }
            })
        })
        .collect()
}

/// The names given so far: where (`3`, or `3.steps.1` inside a repeat) and whether the step is
/// an async call.
type Names = HashMap<String, (String, bool)>;

/// Checks one step against the names the steps before it gave, then records its own name.
/// `label` says where the step is, for messages about names.
fn check_in_order(
    value: &Value,
    label: &str,
    in_repeat: bool,
    named: &mut Names,
) -> Result<Checked, String> {
    if let Some(repeat) = value.as_object().filter(|map| map.contains_key("repeat")) {
        if in_repeat {
            return Err("a repeat may not contain a repeat".into());
        }
        return check_repeat(repeat, label, named);
    }
    let step = check_step(value)?;
    if in_repeat && matches!(step.step, Step::Call { is_async: true, .. }) {
        return Err("an async call cannot be repeated (its name would wait many times)".into());
    }
    for reference in references(value)? {
        let name = reference.split('.').next().unwrap_or_default();
        if !named.contains_key(name) {
            return Err(format!("${{{reference}}}: no earlier step is named {name}"));
        }
    }
    if let Step::Await(name) = &step.step {
        match named.get(name) {
            Some((_, true)) => {}
            Some((earlier, false)) => {
                return Err(format!("await {name}: step {earlier} is not an async call"))
            }
            None => return Err(format!("await {name}: no earlier step is named {name}")),
        }
    }
    if let Some(name) = &step.name {
        let is_async = matches!(step.step, Step::Call { is_async: true, .. });
        if let Some((earlier, _)) = named.insert(name.clone(), (label.to_string(), is_async)) {
            return Err(format!("the name {name} is already used by step {earlier}"));
        }
    }
    Ok(step)
}

/// `{"repeat": N, "steps": [...]}`: N from 1 to [`MAX_REPEAT`], at least one step, each checked
/// in order (an inner step's error names it as `steps.<i>`).
fn check_repeat(
    map: &Map<String, Value>,
    label: &str,
    named: &mut Names,
) -> Result<Checked, String> {
    let times = map["repeat"]
        .as_u64()
        .filter(|n| (1..=MAX_REPEAT).contains(n))
        .ok_or_else(|| format!("\"repeat\" must be a whole number from 1 to {MAX_REPEAT}"))?;
    let steps = match map.get("steps") {
        Some(Value::Array(steps)) if !steps.is_empty() => steps,
        _ => return Err("\"steps\" must be a non-empty array of steps".into()),
    };
    if let Some(key) = map
        .keys()
        .find(|key| !["repeat", "steps", "note"].contains(&key.as_str()))
    {
        return Err(format!("unknown field \"{key}\""));
    }
    let steps = steps
        .iter()
        .enumerate()
        .map(|(i, value)| {
            check_in_order(value, &format!("{label}.steps.{i}"), true, named)
                .map(|checked| (value.clone(), checked))
                .map_err(|message| format!("steps.{i}: {message}"))
        })
        .collect::<Result<_, _>>()?;
    Ok(Checked {
        step: Step::Repeat { times, steps },
        name: None,
    })
}

/// The first member of `given` (after nulls are dropped) that the parsed request does not have:
/// serde ignores unknown members, a script must not.
fn unknown_member(given: &Value, parsed: &Value, path: &str) -> Option<String> {
    match (given, parsed) {
        (Value::Object(given), Value::Object(parsed)) => given.iter().find_map(|(key, value)| {
            let here = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            match parsed.get(key) {
                _ if value.is_null() => None,
                None => Some(here),
                Some(parsed) => unknown_member(value, parsed, &here),
            }
        }),
        (Value::Array(given), Value::Array(parsed)) => given
            .iter()
            .zip(parsed)
            .enumerate()
            .find_map(|(i, (value, parsed))| unknown_member(value, parsed, &format!("{path}.{i}"))),
        _ => None,
    }
}

/// Parses a call step's (substituted) input into a [`Request`].
pub fn parse_request(action: &str, input: Value) -> Result<Request, String> {
    let request = Request::from_input(action, input.clone()).map_err(|e| e.to_string())?;
    match unknown_member(&input, &request.to_json()["input"], "") {
        Some(member) => Err(format!("input: unknown field \"{member}\"")),
        None => Ok(request),
    }
}

/// An SQS error as a script line shows it.
pub fn error_json(error: &SqsError) -> Value {
    serde_json::json!({
        "code": error.code.query_code(),
        "type": error.code.type_name(),
        "status": error.code.status(),
        "message": error.message,
    })
}

/// A call still waiting for its answer.
struct Waiting {
    step: usize,
    action: String,
    name: Option<String>,
    /// Made by a step inside the running repeat (its line goes to the record).
    inner: bool,
}

/// What the lines of a running `repeat` add up to; its one output line.
#[derive(Default)]
struct Record {
    iteration: u64,
    calls: u64,
    /// Failed calls by error code.
    errors: BTreeMap<String, u64>,
    first_error: Option<Value>,
    /// The latest line and its iteration (made JSON only at the end).
    last: Option<(u64, Line)>,
}

/// A line inside a repeat, as its record shows it: with its iteration.
fn with_iteration(iteration: u64, line: &Line) -> Value {
    let mut value = line.to_value();
    value["iteration"] = iteration.into();
    value
}

impl Record {
    fn absorb(&mut self, line: Line) {
        self.calls += u64::from(line.fields.contains_key("call"));
        let code = line.fields.get("error").and_then(|e| e["code"].as_str());
        if let Some(code) = code {
            *self.errors.entry(code.to_string()).or_default() += 1;
            if self.first_error.is_none() {
                self.first_error = Some(with_iteration(self.iteration, &line));
            }
        }
        self.last = Some((self.iteration, line));
    }

    fn fields(self, times: u64) -> Map<String, Value> {
        let mut fields = Map::new();
        fields.insert("repeat".into(), times.into());
        fields.insert("calls".into(), self.calls.into());
        if !self.errors.is_empty() {
            fields.insert(
                "errors".into(),
                serde_json::to_value(self.errors).unwrap_or_default(),
            );
        }
        if let Some(first_error) = self.first_error {
            fields.insert("first_error".into(), first_error);
        }
        if let Some((iteration, line)) = self.last {
            fields.insert("last".into(), with_iteration(iteration, &line));
        }
        fields
    }
}

struct Runner<'a, D: ?Sized, F> {
    driver: &'a mut D,
    emit: F,
    bindings: Bindings,
    waiting: BTreeMap<PollId, Waiting>,
    /// Async calls by name, while they wait.
    awaitable: HashMap<String, PollId>,
    /// While a `repeat` runs: where its steps' lines go.
    record: Option<Record>,
}

/// How many times in a row the driver may report a deadline that is already due without the
/// clock moving, before the runner gives up (a driver bug, not a script error).
const MAX_STALLS: u32 = 100_000;

impl<D: Driver + ?Sized, F: FnMut(Line)> Runner<'_, D, F> {
    /// Prints a step's line, or adds it to the running repeat's record (`inner`).
    fn line(&mut self, step: usize, fields: Map<String, Value>, inner: bool) {
        let line = Line {
            step: Some(step),
            t: self.driver.now(),
            fields,
        };
        match self.record.as_mut().filter(|_| inner) {
            Some(record) => record.absorb(line),
            None => (self.emit)(line),
        }
    }

    fn finish_call(
        &mut self,
        step: usize,
        action: String,
        name: Option<String>,
        result: Result<Value, SqsError>,
        inner: bool,
    ) {
        let mut fields = Map::new();
        fields.insert("call".into(), action.into());
        let bound = match result {
            Ok(output) => {
                fields.insert("output".into(), output.clone());
                output
            }
            Err(error) => {
                let error = error_json(&error);
                fields.insert("error".into(), error.clone());
                serde_json::json!({ "error": error })
            }
        };
        if let Some(name) = name {
            self.awaitable.remove(&name);
            self.bindings.insert(name, bound);
        }
        self.line(step, fields, inner);
    }

    /// Prints and binds the long polls the driver answered.
    fn collect_polls(&mut self) {
        for (poll, output) in self.driver.take_completed_polls() {
            if let Some(call) = self.waiting.remove(&poll) {
                let output = serde_json::to_value(output).unwrap_or_default();
                self.finish_call(call.step, call.action, call.name, Ok(output), call.inner);
            }
        }
    }

    /// Advances to the next deadline (or `limit`, whichever comes first). `false` when there is
    /// nothing scheduled up to `limit`.
    fn step_clock(&mut self, limit: Option<Millis>, stalls: &mut u32) -> Result<bool, String> {
        let now = self.driver.now();
        let Some(deadline) = self.driver.next_deadline() else {
            return Ok(false);
        };
        if limit.is_some_and(|limit| deadline > limit) {
            return Ok(false);
        }
        if deadline <= now {
            *stalls += 1;
            if *stalls > MAX_STALLS {
                return Err(format!("the clock is stuck at t={}", seconds(now)));
            }
        } else {
            *stalls = 0;
        }
        self.driver.advance_to(deadline.max(now));
        self.collect_polls();
        Ok(true)
    }

    fn advance_to(&mut self, target: Millis) -> Result<(), String> {
        let mut stalls = 0;
        while self.step_clock(Some(target), &mut stalls)? {}
        self.driver.advance_to(target);
        self.collect_polls();
        Ok(())
    }

    fn wait_for(&mut self, poll: PollId, what: &str) -> Result<(), String> {
        let mut stalls = 0;
        while self.waiting.contains_key(&poll) {
            if !self.step_clock(None, &mut stalls)? {
                return Err(format!("{what} can never complete: nothing is scheduled"));
            }
        }
        Ok(())
    }

    fn run_step(&mut self, index: usize, value: &Value, checked: &Checked) -> Result<(), String> {
        let inner = self.record.is_some();
        let name = checked.name.clone();
        match &checked.step {
            Step::Call {
                action,
                input,
                is_async,
            } => {
                let input = self.bindings.substitute(input)?;
                let request = parse_request(action, input)?;
                match self.driver.call(request) {
                    Reply::Done(result) => {
                        let result = result.map(|r| serde_json::to_value(r).unwrap_or_default());
                        self.finish_call(index, action.clone(), name, result, inner);
                        self.collect_polls();
                    }
                    Reply::Pending(poll) => {
                        if let (true, Some(name)) = (is_async, &name) {
                            self.awaitable.insert(name.clone(), poll);
                        }
                        self.waiting.insert(
                            poll,
                            Waiting {
                                step: index,
                                action: action.clone(),
                                name,
                                inner,
                            },
                        );
                        self.collect_polls();
                        if !is_async {
                            self.wait_for(poll, "the call")?;
                        }
                    }
                }
            }
            Step::Advance(by) => {
                let target = self.driver.now() + by;
                self.advance_to(target)?;
                let mut fields = Map::new();
                fields.insert("advance".into(), seconds(*by));
                self.line(index, fields, inner);
            }
            Step::Await(name) => {
                if let Some(&poll) = self.awaitable.get(name) {
                    self.wait_for(poll, &format!("await {name}: the call"))?;
                }
                let mut fields = Map::new();
                fields.insert("await".into(), name.as_str().into());
                self.line(index, fields, inner);
            }
            Step::Repeat { times, steps } => {
                self.record = Some(Record::default());
                for iteration in 0..*times {
                    if let Some(record) = self.record.as_mut() {
                        record.iteration = iteration;
                    }
                    for (i, (value, step)) in steps.iter().enumerate() {
                        self.run_step(i, value, step).map_err(|message| {
                            format!("iteration {iteration}, steps.{i}: {message}")
                        })?;
                    }
                }
                let record = self.record.take().unwrap_or_default();
                self.line(index, record.fields(*times), false);
            }
            Step::Extra => {
                let step = self.bindings.substitute(value)?;
                let result = self.driver.run_extra(&step).unwrap_or_else(|| {
                    Err("unknown step kind (expected \"call\", \"advance\", \"await\" or \"repeat\")".into())
                })?;
                if let Some(name) = name {
                    self.bindings.insert(name, result.clone());
                }
                let fields = match result {
                    Value::Object(map) => map,
                    other => Map::from_iter([("result".to_string(), other)]),
                };
                self.line(index, fields, inner);
                self.collect_polls();
            }
        }
        Ok(())
    }
}

/// Runs a script, handing each line to `emit` as soon as it is known.
pub fn run_streaming<D: Driver + ?Sized>(
    driver: &mut D,
    script: &ScriptFile,
    emit: impl FnMut(Line),
) -> Result<(), ScriptError> {
    let checked = check_script(script)?;
    let mut runner = Runner {
        driver,
        emit,
        bindings: Bindings::default(),
        waiting: BTreeMap::new(),
        awaitable: HashMap::new(),
        record: None,
    };
    for (index, (value, step)) in script.steps.iter().zip(&checked).enumerate() {
        runner
            .run_step(index, value, step)
            .map_err(|message| ScriptError {
                step: Some(index),
                message,
            })?;
    }
    if let Some(summary) = runner.driver.summary() {
        let t = runner.driver.now();
        (runner.emit)(Line {
            step: None,
            t,
            fields: Map::from_iter([("summary".to_string(), summary)]),
        });
    }
    Ok(())
}

/// Runs a script and returns its lines.
pub fn run<D: Driver + ?Sized>(
    driver: &mut D,
    script: &ScriptFile,
) -> Result<Vec<Line>, ScriptError> {
    let mut lines = Vec::new();
    run_streaming(driver, script, |line| lines.push(line))?;
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn substitution_keeps_whole_values_and_stringifies_inside_text() {
        let mut bindings = Bindings::default();
        bindings.insert("R", json!({"Messages": [{"Id": "m1", "N": 3}]}));
        let input = json!({"a": "${R.Messages.0.N}", "b": "n=${R.Messages.0.N}/${R.Messages.0.Id}", "c": "$${x}"});
        assert_eq!(
            bindings.substitute(&input).unwrap(),
            json!({"a": 3, "b": "n=3/m1", "c": "${x}"})
        );
        assert_eq!(
            bindings
                .substitute(&json!("${R.Messages.1.Id}"))
                .unwrap_err(),
            "${R.Messages.1.Id}: R.Messages has no \"1\""
        );
    }

    #[test]
    fn malformed_steps_name_the_step() {
        let error = |text: &str| {
            let script = ScriptFile::parse(text).unwrap();
            check_script(&script).err().unwrap().to_string()
        };
        assert_eq!(
            error(r#"{"steps":[{"advance":1},{"call":"ListQueues","inptu":{}}]}"#),
            "step 1: unknown field \"inptu\""
        );
        assert_eq!(
            error(
                r#"{"steps":[{"call":"DeleteMessage","input":{"ReceiptHandle":"${R9.Messages.0.ReceiptHandle}"}}]}"#
            ),
            "step 0: ${R9.Messages.0.ReceiptHandle}: no earlier step is named R9"
        );
        assert_eq!(
            error(r#"{"steps":[{"call":"ListQueues","as":"L"},{"await":"L"}]}"#),
            "step 1: await L: step 0 is not an async call"
        );
    }

    #[test]
    fn a_repeat_prints_one_line_that_adds_up_its_steps() {
        let script = ScriptFile::parse(
            r#"{"steps": [
                {"call": "CreateQueue", "input": {"QueueName": "q"}, "as": "Q"},
                {"repeat": 3, "note": "two sends and a bad delete, three times", "steps": [
                    {"call": "SendMessage", "input": {"QueueUrl": "${Q.QueueUrl}", "MessageBody": "m"}, "as": "S"},
                    {"advance": 1},
                    {"call": "DeleteMessage", "input": {"QueueUrl": "${Q.QueueUrl}", "ReceiptHandle": "x"}}
                ]},
                {"call": "GetQueueAttributes", "input": {"QueueUrl": "${Q.QueueUrl}", "AttributeNames": ["ApproximateNumberOfMessages"]}},
                {"advance": 0.5, "note": "${S.MessageId} is the last iteration's"}
            ]}"#,
        )
        .unwrap();
        let lines = run(&mut Engine::new(1), &script).unwrap();
        let lines: Vec<Value> = lines.iter().map(Line::to_value).collect();
        assert_eq!(lines.len(), 4);
        let repeat = &lines[1];
        assert_eq!(
            (repeat["step"].clone(), repeat["t"].clone()),
            (json!(1), json!(3))
        );
        assert_eq!(
            (repeat["repeat"].clone(), repeat["calls"].clone()),
            (json!(3), json!(6))
        );
        assert_eq!(repeat["errors"], json!({"ReceiptHandleIsInvalid": 3}));
        let first_error = &repeat["first_error"];
        assert_eq!(
            (
                first_error["iteration"].clone(),
                first_error["step"].clone(),
                first_error["t"].clone()
            ),
            (json!(0), json!(2), json!(1))
        );
        assert_eq!(repeat["last"]["iteration"], json!(2));
        assert_eq!(repeat["last"]["call"], json!("DeleteMessage"));
        let count = &lines[2]["output"]["Attributes"]["ApproximateNumberOfMessages"];
        assert_eq!(count, &json!("3"));
        assert_eq!(lines[3]["t"], json!(3.5));
    }

    #[test]
    fn a_failing_step_inside_a_repeat_names_its_iteration() {
        let script = ScriptFile::parse(
            r#"{"steps": [
                {"call": "CreateQueue", "input": {"QueueName": "q"}, "as": "Q"},
                {"call": "SendMessage", "input": {"QueueUrl": "${Q.QueueUrl}", "MessageBody": "m"}},
                {"repeat": 2, "steps": [
                    {"call": "ReceiveMessage", "input": {"QueueUrl": "${Q.QueueUrl}"}, "as": "R"},
                    {"call": "DeleteMessage", "input": {"QueueUrl": "${Q.QueueUrl}", "ReceiptHandle": "${R.Messages.0.ReceiptHandle}"}}
                ]}
            ]}"#,
        )
        .unwrap();
        let error = run(&mut Engine::new(1), &script).unwrap_err().to_string();
        assert_eq!(
            error,
            "step 2: iteration 1, steps.1: ${R.Messages.0.ReceiptHandle}: R has no \"Messages\""
        );
    }

    #[test]
    fn malformed_repeats_name_the_step_and_the_inner_step() {
        let error = |steps: &str| {
            let script = ScriptFile::parse(&format!(r#"{{"steps":[{{"advance":1}},{steps}]}}"#));
            check_script(&script.unwrap()).err().unwrap().to_string()
        };
        let times = "step 1: \"repeat\" must be a whole number from 1 to 1000000";
        assert_eq!(error(r#"{"repeat":0,"steps":[{"advance":1}]}"#), times);
        assert_eq!(error(r#"{"repeat":2.5,"steps":[{"advance":1}]}"#), times);
        assert_eq!(
            error(r#"{"repeat":2}"#),
            "step 1: \"steps\" must be a non-empty array of steps"
        );
        assert_eq!(
            error(r#"{"repeat":2,"steps":[],"as":"R"}"#),
            "step 1: \"steps\" must be a non-empty array of steps"
        );
        assert_eq!(
            error(r#"{"repeat":2,"steps":[{"advance":1}],"as":"R"}"#),
            "step 1: unknown field \"as\""
        );
        assert_eq!(
            error(r#"{"repeat":2,"steps":[{"advance":1},{"call":"ListQueues","inptu":{}}]}"#),
            "step 1: steps.1: unknown field \"inptu\""
        );
        assert_eq!(
            error(r#"{"repeat":2,"steps":[{"repeat":2,"steps":[{"advance":1}]}]}"#),
            "step 1: steps.0: a repeat may not contain a repeat"
        );
        assert_eq!(
            error(r#"{"repeat":2,"steps":[{"call":"ReceiveMessage","as":"P","async":true}]}"#),
            "step 1: steps.0: an async call cannot be repeated (its name would wait many times)"
        );
        assert_eq!(
            error(
                r#"{"repeat":2,"steps":[{"call":"ListQueues","input":{"QueueNamePrefix":"${L.QueueUrls}"}},{"call":"ListQueues","as":"L"}]}"#
            ),
            "step 1: steps.0: ${L.QueueUrls}: no earlier step is named L"
        );
        assert_eq!(
            error(
                r#"{"repeat":2,"steps":[{"call":"ListQueues","as":"L"},{"call":"ListQueues","as":"L"}]}"#
            ),
            "step 1: steps.1: the name L is already used by step 1.steps.0"
        );
    }

    #[test]
    fn unknown_input_members_are_errors() {
        let error = parse_request(
            "ReceiveMessage",
            json!({"QueueUrl": "u", "MaxNumberOfMesages": 2}),
        );
        assert_eq!(
            error.unwrap_err(),
            "input: unknown field \"MaxNumberOfMesages\""
        );
        let error = parse_request(
            "DeleteMessageBatch",
            json!({"QueueUrl": "u", "Entries": [{"Id": "a", "ReceiptHandle": "h", "Bad": 1}]}),
        );
        assert_eq!(error.unwrap_err(), "input: unknown field \"Entries.0.Bad\"");
    }

    #[test]
    fn lines_print_step_and_t_first_then_sorted_keys() {
        let line = Line {
            step: Some(3),
            t: 1500,
            fields: Map::from_iter([
                ("output".to_string(), json!({"b": 1, "a": [true, null]})),
                ("call".to_string(), json!("X")),
            ]),
        };
        assert_eq!(
            line.to_string(),
            r#"{"step":3,"t":1.5,"call":"X","output":{"a":[true,null],"b":1}}"#
        );
    }
}
