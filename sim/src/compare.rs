//! Comparing two settings on one scenario and seed: each copy of the scenario is the scenario with
//! a [`Variant`] applied (queue attributes, worker policies, producer rates), run from 12:00:00;
//! [`Figures`] are what a copy's world measured and [`rows`] set two copies' figures side by side
//! with their difference.
//!
//! A variant's text form, as a link carries it: settings separated by `;`, each `name:value`.
//! A name that starts with a capital letter is a queue attribute as SQS spells it
//! (`VisibilityTimeout:120`), sent with SetQueueAttributes at 12:00:00 right after the queue is
//! created, so SQS judges it (and refuses it with its own message). The others are the
//! simulation's, as scenario files name them: `processing:90` or `processing:40-70` (a job's
//! seconds, fixed or uniform), `heartbeat:20` (ChangeMessageVisibility every 20 s extending by
//! 3 × 20 s; `heartbeat:20/45` extends by 45 s; `heartbeat:none`), `idempotent:1` or `0` (the
//! ledger check before every side effect) for every worker, and `every:2` (seconds between
//! sends) for every producer. [`pair`] reads two variants separated by `,`.

use crate::command::{SimAction, Step};
use crate::scenario::{self, Scenario, StepKind};
use crate::worker::{Heartbeat, ProcessingTime, WorkerPolicy};
use crate::world::World;
use serde_json::Value;
use sqs_engine::api::{SetQueueAttributesInput, ToJson};
use sqs_engine::{Millis, Request};
use std::fmt;

/// One setting of a copy.
#[derive(Clone, Debug, PartialEq)]
pub enum Setting {
    /// A queue attribute of the consumed queue, by SQS's name, and its value as typed.
    Attribute {
        /// E.g. `VisibilityTimeout`.
        name: String,
        /// E.g. `120`.
        value: String,
    },
    /// Every worker's processing time.
    Processing(ProcessingTime),
    /// Every worker's heartbeat (None: none).
    Heartbeat(Option<Heartbeat>),
    /// Whether every worker's side effects check the idempotency ledger.
    Idempotent(bool),
    /// Seconds between a producer's sends, for every producer.
    Every(f64),
}

/// The simulation's setting names (queue attributes are SQS's).
pub const SIM_SETTINGS: [&str; 4] = ["processing", "heartbeat", "idempotent", "every"];

impl Setting {
    /// Its name: the queue attribute's, or one of [`SIM_SETTINGS`].
    pub fn name(&self) -> &str {
        match self {
            Setting::Attribute { name, .. } => name,
            Setting::Processing(_) => "processing",
            Setting::Heartbeat(_) => "heartbeat",
            Setting::Idempotent(_) => "idempotent",
            Setting::Every(_) => "every",
        }
    }

    /// Reads `value` as the setting `name`. The error names what is wrong.
    pub fn parse(name: &str, value: &str) -> Result<Setting, String> {
        let value = value.trim();
        let seconds = |text: &str| {
            text.trim()
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| format!("{name}: \"{text}\" is not a number of seconds."))
        };
        match name {
            _ if name.starts_with(|c: char| c.is_ascii_uppercase())
                && name.chars().all(|c| c.is_ascii_alphanumeric()) =>
            {
                Ok(Setting::Attribute {
                    name: name.to_string(),
                    value: value.to_string(),
                })
            }
            "processing" => Ok(Setting::Processing(match value.split_once('-') {
                Some((min, max)) => {
                    let (min, max) = (seconds(min)?, seconds(max)?);
                    if min > max {
                        return Err(format!("processing: {min}-{max} runs backwards."));
                    }
                    ProcessingTime::Uniform { min, max }
                }
                None => ProcessingTime::Fixed {
                    seconds: seconds(value)?,
                },
            })),
            "heartbeat" if value == "none" => Ok(Setting::Heartbeat(None)),
            "heartbeat" => {
                let (every, extend_by) = value.split_once('/').unwrap_or((value, ""));
                let every = seconds(every)?;
                let extend_by = match extend_by {
                    "" => (every * 3.0).ceil() as u32,
                    text => text.trim().parse::<u32>().map_err(|_| {
                        format!("heartbeat: \"{text}\" is not a whole number of seconds.")
                    })?,
                };
                Ok(Setting::Heartbeat(Some(Heartbeat {
                    every,
                    extend_by,
                    max_extensions: None,
                    max_total: None,
                })))
            }
            "idempotent" => match value {
                "1" => Ok(Setting::Idempotent(true)),
                "0" => Ok(Setting::Idempotent(false)),
                _ => Err(format!("idempotent: \"{value}\" is neither 1 nor 0.")),
            },
            "every" => Ok(Setting::Every(seconds(value)?)),
            _ => Err(format!(
                "\"{name}\" is not a setting: use a queue attribute as SQS names it \
                 (VisibilityTimeout) or one of {}.",
                SIM_SETTINGS.join(", ")
            )),
        }
    }

    /// The value in the text form (`120`, `40-70`, `20/60`, `none`, `1`).
    pub fn value(&self) -> String {
        match self {
            Setting::Attribute { value, .. } => value.clone(),
            Setting::Processing(p) => processing_text(p).unwrap_or_default(),
            Setting::Heartbeat(None) => "none".into(),
            Setting::Heartbeat(Some(h)) => format!("{}/{}", h.every, h.extend_by),
            Setting::Idempotent(on) => u8::from(*on).to_string(),
            Setting::Every(s) => s.to_string(),
        }
    }
}

/// A processing time in the text form: `90` or `40-70` (a long tail has none).
pub fn processing_text(p: &ProcessingTime) -> Option<String> {
    match p {
        ProcessingTime::Fixed { seconds } => Some(seconds.to_string()),
        ProcessingTime::Uniform { min, max } => Some(format!("{min}-{max}")),
        ProcessingTime::LongTail { .. } => None,
    }
}

/// A setting SQS or the simulation refused: which one, and the refusal's words.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// The setting's name.
    pub setting: String,
    /// Why (SQS's own message for a queue attribute).
    pub message: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.setting, self.message)
    }
}

/// A copy's settings, at most one per name, in the order they were given.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Variant(Vec<Setting>);

impl Variant {
    /// Reads the text form (see the module documentation); empty text is no setting.
    pub fn parse(text: &str) -> Result<Variant, String> {
        let mut variant = Variant::default();
        for part in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = part
                .split_once(':')
                .ok_or_else(|| format!("\"{part}\" is not name:value."))?;
            let setting = Setting::parse(name.trim(), value)?;
            if variant.get(setting.name()).is_some() {
                return Err(format!("{} is set twice.", setting.name()));
            }
            variant.0.push(setting);
        }
        Ok(variant)
    }

    /// The settings.
    pub fn settings(&self) -> &[Setting] {
        &self.0
    }

    /// The setting named `name`, if set.
    pub fn get(&self, name: &str) -> Option<&Setting> {
        self.0.iter().find(|s| s.name() == name)
    }

    /// Sets `setting` in place of one with its name.
    pub fn set(&mut self, setting: Setting) {
        match self.0.iter_mut().find(|s| s.name() == setting.name()) {
            Some(old) => *old = setting,
            None => self.0.push(setting),
        }
    }

    /// The scenario with these settings: queue attributes sent with SetQueueAttributes right
    /// after the consumed queue's CreateQueue, worker policies in every AddWorker and SetPolicy
    /// step, producer rates in every AddProducer step. A setting SQS or the simulation refuses,
    /// or one with nothing to apply to, is an error naming it.
    pub fn apply(&self, scenario: &Scenario) -> Result<Scenario, Refusal> {
        let mut out = scenario.clone();
        let mut policies = 0;
        let mut producers = 0;
        for step in &mut out.steps {
            match sim_step(step) {
                Some(SimAction::AddWorker { name, mut policy }) => {
                    self.apply_to_policy(&mut policy)?;
                    policies += 1;
                    replace_sim(step, SimAction::AddWorker { name, policy });
                }
                Some(SimAction::SetPolicy { worker, mut policy }) => {
                    self.apply_to_policy(&mut policy)?;
                    replace_sim(step, SimAction::SetPolicy { worker, policy });
                }
                Some(SimAction::AddProducer(mut spec)) => {
                    if let Some(Setting::Every(every)) = self.get("every") {
                        spec.every = *every;
                    }
                    producers += 1;
                    replace_sim(step, SimAction::AddProducer(spec));
                }
                _ => {}
            }
        }
        for setting in &self.0 {
            let missing = match setting {
                Setting::Attribute { .. } => None,
                Setting::Every(_) if producers == 0 => Some("producer"),
                Setting::Every(_) => None,
                _ if policies == 0 => Some("worker"),
                _ => None,
            };
            if let Some(what) = missing {
                return Err(Refusal {
                    setting: setting.name().to_string(),
                    message: format!("this scenario has no {what} to apply it to."),
                });
            }
        }
        self.apply_attributes(&mut out)?;
        // What the simulation checks as the steps run (a producer's `every`, say).
        World::load(&out).map_err(|message| Refusal {
            setting: self
                .0
                .iter()
                .map(Setting::name)
                .collect::<Vec<_>>()
                .join(", "),
            message,
        })?;
        Ok(out)
    }

    fn apply_to_policy(&self, policy: &mut WorkerPolicy) -> Result<(), Refusal> {
        for setting in &self.0 {
            match setting {
                Setting::Processing(p) => policy.processing = p.clone(),
                Setting::Heartbeat(h) => policy.heartbeat = h.clone(),
                Setting::Idempotent(on) => {
                    policy.effects.iter_mut().for_each(|e| e.idempotent = *on);
                }
                Setting::Attribute { .. } | Setting::Every(_) => continue,
            }
            policy.check().map_err(|message| Refusal {
                setting: setting.name().to_string(),
                message,
            })?;
        }
        Ok(())
    }

    /// Inserts one SetQueueAttributes step per queue attribute after the CreateQueue of the
    /// queue the first worker (or producer) consumes, each tried first on the world as it
    /// stands there, so that a refusal is SQS's answer to that call.
    fn apply_attributes(&self, scenario: &mut Scenario) -> Result<(), Refusal> {
        let attributes: Vec<(&str, &str)> = self
            .0
            .iter()
            .filter_map(|s| match s {
                Setting::Attribute { name, value } => Some((name.as_str(), value.as_str())),
                _ => None,
            })
            .collect();
        let Some(&(first, _)) = attributes.first() else {
            return Ok(());
        };
        let created = consumed_queue(scenario).and_then(|queue| {
            scenario.steps.iter().position(|step| {
                step["call"] == "CreateQueue" && step["input"]["QueueName"] == queue.as_str()
            })
        });
        let Some(at) = created else {
            return Err(Refusal {
                setting: first.to_string(),
                message: "this scenario creates no queue to set it on.".into(),
            });
        };
        let mut before = scenario.clone();
        before.steps.truncate(at + 1);
        let mut probe = World::load(&before).map_err(|message| Refusal {
            setting: first.to_string(),
            message,
        })?;
        probe.advance_to(before.duration());
        let queue = scenario.steps[at]["input"]["QueueName"]
            .as_str()
            .unwrap_or_default();
        let queue_url = probe.engine().queue_url(queue).unwrap_or_default();
        for (i, (name, value)) in attributes.into_iter().enumerate() {
            let call = Step::Call(Request::SetQueueAttributes(SetQueueAttributesInput {
                queue_url: queue_url.clone(),
                attributes: [(name.to_string(), value.to_string())].into(),
            }));
            probe.apply(call.clone()).map_err(|message| Refusal {
                setting: name.to_string(),
                message,
            })?;
            scenario.steps.insert(at + 1 + i, call.to_json());
        }
        Ok(())
    }
}

/// The text form.
impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.0.iter().enumerate() {
            let sep = if i == 0 { "" } else { ";" };
            write!(f, "{sep}{}:{}", s.name(), s.value())?;
        }
        Ok(())
    }
}

/// Reads `left,right`: two variants (either may be empty: the scenario as it is).
pub fn pair(text: &str) -> Result<(Variant, Variant), String> {
    let (left, right) = text
        .split_once(',')
        .ok_or("it holds two copies' settings separated by a comma")?;
    if right.contains(',') {
        return Err("it holds two copies' settings, not more".into());
    }
    Ok((Variant::parse(left)?, Variant::parse(right)?))
}

/// The settings a copy of `scenario` offers to change, with those `variant` sets: the
/// consumed queue's VisibilityTimeout, then (with workers) processing, heartbeat and (with
/// side effects) idempotent, then (with producers) every.
pub fn offered(scenario: &Scenario, variant: &Variant) -> Vec<String> {
    let actions: Vec<SimAction> = scenario.steps.iter().filter_map(sim_step).collect();
    let policy = actions.iter().find_map(|a| match a {
        SimAction::AddWorker { policy, .. } => Some(policy),
        _ => None,
    });
    let producer = actions
        .iter()
        .any(|a| matches!(a, SimAction::AddProducer(_)));
    let mut names = vec!["VisibilityTimeout"];
    if let Some(policy) = policy {
        names.extend(["processing", "heartbeat"]);
        if !policy.effects.is_empty() {
            names.push("idempotent");
        }
    }
    if producer {
        names.push("every");
    }
    let mut names: Vec<String> = names.into_iter().map(String::from).collect();
    for setting in variant.settings() {
        if !names.iter().any(|n| n == setting.name()) {
            names.push(setting.name().to_string());
        }
    }
    names
}

/// The value of setting `name` in a copy (`scenario` with its variant applied, `world` its
/// world now), in the text form: a queue attribute as the consumed queue has it now, a worker
/// setting as the first worker's policy has it, `every` as the first producer's.
pub fn value_in(scenario: &Scenario, world: &World, name: &str) -> Option<String> {
    let actions = || scenario.steps.iter().filter_map(sim_step);
    let policy = || {
        actions().find_map(|a| match a {
            SimAction::AddWorker { policy, .. } => Some(policy),
            _ => None,
        })
    };
    let setting = match name {
        "processing" => Setting::Processing(policy()?.processing),
        "heartbeat" => Setting::Heartbeat(policy()?.heartbeat),
        "idempotent" => Setting::Idempotent(policy()?.effects.iter().all(|e| e.idempotent)),
        "every" => Setting::Every(actions().find_map(|a| match a {
            SimAction::AddProducer(spec) => Some(spec.every),
            _ => None,
        })?),
        _ => {
            let queue = consumed_queue(scenario)?;
            return world.engine().attributes(&queue)?.get(name).cloned();
        }
    };
    Some(setting.value())
}

/// A step's simulation action, if it is a simulation step without `${...}`.
fn sim_step(step: &Value) -> Option<SimAction> {
    let plain = matches!(scenario::step_kind(step), Ok(StepKind::Sim));
    (plain && !step.to_string().contains("${"))
        .then(|| scenario::sim_action(step.clone()).ok())
        .flatten()
}

/// Writes `action` over a simulation step, keeping its `as`.
fn replace_sim(step: &mut Value, action: SimAction) {
    let name = step.get("as").cloned();
    *step = action.to_json();
    if let (Some(name), Value::Object(map)) = (name, step) {
        map.insert("as".into(), name);
    }
}

/// The queue a scenario's first worker (or producer) consumes.
fn consumed_queue(scenario: &Scenario) -> Option<String> {
    scenario
        .steps
        .iter()
        .find_map(|step| match sim_step(step)? {
            SimAction::AddWorker { policy, .. } => Some(policy.queue),
            SimAction::AddProducer(spec) => Some(spec.queue),
            _ => None,
        })
}

/// What a copy's world measured by now: the comparison table's figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Figures {
    /// Successful receives.
    pub deliveries: u64,
    /// Receives of a message received before.
    pub redeliveries: u64,
    /// Side effects done again.
    pub duplicate_effects: u64,
    /// Repeats the idempotency ledger stopped.
    pub prevented_effects: u64,
    /// Messages moved to a dead-letter queue.
    pub dead_lettered: u64,
    /// The oldest message's age at its worst ([`crate::Metrics::oldest_age`]).
    pub oldest_age: Millis,
    /// Median SendMessage-to-DeleteMessage time of the deleted messages.
    pub latency_p50: Option<Millis>,
    /// Its 95th percentile.
    pub latency_p95: Option<Millis>,
    /// SQS requests made.
    pub api_calls: u64,
    /// Their price ([`crate::metrics::USD_PER_MILLION_REQUESTS`]).
    pub cost_usd: f64,
}

impl Figures {
    /// The figures of `world` now.
    pub fn of(world: &World) -> Figures {
        let m = world.metrics();
        let ledger = world.ledger();
        Figures {
            deliveries: m.deliveries,
            redeliveries: m.redeliveries,
            duplicate_effects: ledger.duplicates(),
            prevented_effects: ledger.prevented(),
            dead_lettered: m.dead_lettered,
            oldest_age: m.oldest_age(world.now()),
            latency_p50: m.latencies.percentile(0.5),
            latency_p95: m.latencies.percentile(0.95),
            api_calls: m.api_calls_total(),
            cost_usd: m.cost_usd(),
        }
    }
}

/// One figure of a copy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Figure {
    /// A count.
    Count(u64),
    /// A duration (None: nothing measured yet).
    Duration(Option<Millis>),
    /// US dollars.
    Usd(f64),
}

/// How much more the right copy's figure is than the left's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Difference {
    /// A count's.
    Count(i64),
    /// A duration's, in milliseconds.
    Duration(i64),
    /// Dollars'.
    Usd(f64),
}

/// One line of the comparison table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// What is measured, as the counters name it.
    pub label: &'static str,
    /// The left copy's figure.
    pub left: Figure,
    /// The right copy's.
    pub right: Figure,
}

impl Row {
    /// Right minus left (None when either duration is not measured yet).
    pub fn difference(&self) -> Option<Difference> {
        let signed = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        match (self.left, self.right) {
            (Figure::Count(a), Figure::Count(b)) => Some(Difference::Count(signed(b) - signed(a))),
            (Figure::Duration(Some(a)), Figure::Duration(Some(b))) => {
                Some(Difference::Duration(signed(b) - signed(a)))
            }
            (Figure::Usd(a), Figure::Usd(b)) => {
                Some(Difference::Usd(((b - a) * 1e9).round() / 1e9))
            }
            _ => None,
        }
    }
}

/// The comparison table: the two copies' figures, line by line.
pub fn rows(left: &Figures, right: &Figures) -> Vec<Row> {
    let row = |label, of: fn(&Figures) -> Figure| Row {
        label,
        left: of(left),
        right: of(right),
    };
    vec![
        row("Deliveries", |f| Figure::Count(f.deliveries)),
        row("Redeliveries", |f| Figure::Count(f.redeliveries)),
        row("Duplicates done", |f| Figure::Count(f.duplicate_effects)),
        row("Duplicates prevented", |f| {
            Figure::Count(f.prevented_effects)
        }),
        row("Dead-lettered", |f| Figure::Count(f.dead_lettered)),
        row("Oldest message age", |f| {
            Figure::Duration(Some(f.oldest_age))
        }),
        row("Latency p50", |f| Figure::Duration(f.latency_p50)),
        row("Latency p95", |f| Figure::Duration(f.latency_p95)),
        row("API calls", |f| Figure::Count(f.api_calls)),
        row("Cost", |f| Figure::Usd(f.cost_usd)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_form_reads_back_what_it_writes() {
        let text = "VisibilityTimeout:120;processing:40-70;heartbeat:20/60;idempotent:1;every:2";
        let variant = Variant::parse(text).unwrap();
        assert_eq!(variant.settings().len(), 5);
        assert_eq!(variant.to_string(), text);
        assert_eq!(
            Variant::parse("heartbeat:20").unwrap().get("heartbeat"),
            Some(&Setting::Heartbeat(Some(Heartbeat {
                every: 20.0,
                extend_by: 60,
                max_extensions: None,
                max_total: None
            })))
        );
        assert_eq!(Variant::parse(" ").unwrap(), Variant::default());
        let (left, right) = pair(",VisibilityTimeout:90").unwrap();
        assert_eq!((left.settings().len(), right.settings().len()), (0, 1));
    }

    #[test]
    fn malformed_text_is_named() {
        let error = |text| Variant::parse(text).unwrap_err();
        assert!(error("VisibilityTimeout").contains("name:value"));
        assert!(error("speed:3").contains("\"speed\" is not a setting"));
        assert!(error("processing:fast").contains("processing: \"fast\""));
        assert!(error("processing:70-40").contains("backwards"));
        assert!(error("idempotent:yes").contains("neither 1 nor 0"));
        assert!(error("every:1;every:2").contains("every is set twice"));
        assert!(pair("VisibilityTimeout:60").unwrap_err().contains("comma"));
        assert!(pair("a:1,b:2,c:3").is_err());
    }

    fn r022() -> Scenario {
        scenario::find("r-022").expect("in the library")
    }

    #[test]
    fn r022_duplicates_its_notice_at_60_seconds_and_not_at_120() {
        let run = |text: &str| {
            let scenario = Variant::parse(text).unwrap().apply(&r022()).unwrap();
            let world = scenario.run().unwrap();
            let notices = world
                .ledger()
                .effects
                .iter()
                .filter(|e| e.duplicate && &*e.name == "send staff notice")
                .count();
            (notices, Figures::of(&world))
        };
        let (left_notices, left) = run("VisibilityTimeout:60");
        let (right_notices, right) = run("VisibilityTimeout:120");
        assert_eq!((left_notices, right_notices), (1, 0));
        assert_eq!((left.duplicate_effects, right.duplicate_effects), (2, 0));
        assert_eq!((left.redeliveries, right.redeliveries), (1, 0));
        // Sent at 12:00:00, deleted by Worker 1 at 12:01:30 either way.
        assert_eq!(left.latency_p50, Some(90_000));
        assert_eq!(right.latency_p95, Some(90_000));
        let table = rows(&left, &right);
        let duplicates = table.iter().find(|r| r.label == "Duplicates done").unwrap();
        assert_eq!(duplicates.difference(), Some(Difference::Count(-2)));
        let p50 = table.iter().find(|r| r.label == "Latency p50").unwrap();
        assert_eq!(p50.difference(), Some(Difference::Duration(0)));
    }

    #[test]
    fn a_refused_attribute_is_sqss_answer_and_names_it() {
        let refusal = Variant::parse("VisibilityTimeout:50000")
            .unwrap()
            .apply(&r022())
            .unwrap_err();
        assert_eq!(refusal.setting, "VisibilityTimeout");
        let mut world = World::load(&r022()).unwrap();
        let url = world.engine().queue_url("repair-intake").unwrap();
        let direct = world
            .apply(Step::Call(Request::SetQueueAttributes(
                SetQueueAttributesInput {
                    queue_url: url,
                    attributes: [("VisibilityTimeout".into(), "50000".into())].into(),
                },
            )))
            .unwrap_err();
        assert_eq!(refusal.message, direct);
    }

    #[test]
    fn a_copy_offers_what_its_scenario_has_and_shows_its_values() {
        let variant = Variant::parse("DelaySeconds:5;heartbeat:20").unwrap();
        let applied = variant.apply(&r022()).unwrap();
        assert_eq!(
            offered(&applied, &variant),
            [
                "VisibilityTimeout",
                "processing",
                "heartbeat",
                "idempotent",
                "DelaySeconds"
            ]
        );
        let world = World::load(&applied).unwrap();
        let value = |name| value_in(&applied, &world, name);
        assert_eq!(value("VisibilityTimeout").as_deref(), Some("60"));
        assert_eq!(value("DelaySeconds").as_deref(), Some("5"));
        assert_eq!(value("processing").as_deref(), Some("90"));
        assert_eq!(value("heartbeat").as_deref(), Some("20/60"));
        assert_eq!(value("idempotent").as_deref(), Some("0"));
        assert_eq!(value("every"), None);
    }

    #[test]
    fn worker_settings_reach_every_worker_and_need_one() {
        let text = "processing:40-70;heartbeat:20;idempotent:1";
        let scenario = Variant::parse(text).unwrap().apply(&r022()).unwrap();
        let world = World::load(&scenario).unwrap();
        for worker in world.workers() {
            let p = &worker.policy;
            assert_eq!(
                p.processing,
                ProcessingTime::Uniform {
                    min: 40.0,
                    max: 70.0
                }
            );
            assert_eq!(p.heartbeat.as_ref().map(|h| h.extend_by), Some(60));
            assert!(p.effects.iter().all(|e| e.idempotent));
        }
        let refusal = Variant::parse("every:2")
            .unwrap()
            .apply(&r022())
            .unwrap_err();
        assert_eq!(refusal.setting, "every");
        assert!(refusal.message.contains("no producer"), "{refusal}");
        let refusal = Variant::parse("heartbeat:0")
            .unwrap()
            .apply(&r022())
            .unwrap_err();
        assert_eq!(refusal.setting, "heartbeat");
    }
}
