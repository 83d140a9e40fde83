//! A session: what it takes to rebuild a playground exactly — the scenario it started from, every
//! user action with its virtual time, and where the playhead stood. The seed lives in the
//! scenario, so replay is deterministic.

use serde_json::Value;
use sqs_engine::api::{FromJson, ToJson};
use sqs_engine::Millis;
use sqs_sim::{LoggedStep, Scenario, Step, World};

/// Where the session's scenario comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum ScenarioSource {
    /// A library scenario, by id (short links).
    Library(String),
    /// A whole scenario (an imported file, or one not in this build's library).
    Inline(Scenario),
}

/// Everything a link or a session file carries. Written as JSON by [`ToJson`], read back by
/// [`Session::from_json`].
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    /// The starting point.
    pub scenario: ScenarioSource,
    /// The user's actions after the scenario loaded, in time order.
    pub actions: Vec<LoggedStep>,
    /// The virtual time shown.
    pub playhead: Millis,
    /// Playback speed (1 to 1000).
    pub speed: f64,
    /// Whether the scenario's questions are asked (lesson mode); written only when on.
    pub lesson: bool,
}

/// The id (a string), or the whole scenario.
impl ToJson for ScenarioSource {
    fn to_json(&self) -> Value {
        match self {
            ScenarioSource::Library(id) => id.to_json(),
            ScenarioSource::Inline(scenario) => scenario.to_json(),
        }
    }
}

impl ToJson for Session {
    fn to_json(&self) -> Value {
        let mut out = sqs_engine::api::Output::default();
        out.field("scenario", &self.scenario);
        out.field("actions", &self.actions);
        out.field("playhead", &self.playhead);
        out.field("speed", &self.speed);
        if self.lesson {
            out.field("lesson", &true);
        }
        out.into()
    }
}

sqs_engine::write_by_hand!(Session);

impl Session {
    /// Reads a session from its JSON; `actions`, `playhead`, `speed` and `lesson` may be left
    /// out.
    ///
    /// Read by hand rather than with a derived `Deserialize`, so that each error names the field
    /// or the action at fault (`actions[3]: ...`, `` `playhead` is not ... ``), and each step is
    /// read by the same reader the scenario runner uses.
    pub fn from_json(json: Value) -> Result<Session, String> {
        let Value::Object(mut fields) = json else {
            return Err("a session is a JSON object".into());
        };
        let scenario = match fields.remove("scenario") {
            Some(Value::String(id)) => ScenarioSource::Library(id),
            Some(inline) => ScenarioSource::Inline(
                Scenario::from_json(inline).map_err(|e| format!("scenario: {e}"))?,
            ),
            None => return Err("missing field `scenario`".into()),
        };
        let actions = match fields.remove("actions") {
            None => Vec::new(),
            Some(Value::Array(actions)) => actions
                .into_iter()
                .enumerate()
                .map(|(i, a)| logged_step(a).map_err(|e| format!("actions[{i}]: {e}")))
                .collect::<Result<_, _>>()?,
            Some(_) => return Err("`actions` is not a list".into()),
        };
        let playhead = match fields.remove("playhead") {
            None => 0,
            Some(v) => v
                .as_u64()
                .ok_or("`playhead` is not a whole number of milliseconds")?,
        };
        let speed = match fields.remove("speed") {
            None => 1.0,
            Some(v) => v.as_f64().ok_or("`speed` is not a number")?,
        };
        let lesson = match fields.remove("lesson") {
            None => false,
            Some(v) => v.as_bool().ok_or("`lesson` is not true or false")?,
        };
        Ok(Session {
            scenario,
            actions,
            playhead,
            speed,
            lesson,
        })
    }

    /// The scenario itself, looking library ids up with `library`.
    pub fn resolve(&self, library: impl Fn(&str) -> Option<Scenario>) -> Result<Scenario, String> {
        match &self.scenario {
            ScenarioSource::Library(id) => library(id)
                .ok_or_else(|| format!("There is no scenario named \"{id}\" in the library.")),
            ScenarioSource::Inline(s) => Ok(s.clone()),
        }
    }

    /// Rebuilds the world at the playhead by deterministic replay. A bad action is an error
    /// naming it, and nothing is built.
    pub fn rebuild(&self, library: impl Fn(&str) -> Option<Scenario>) -> Result<World, String> {
        World::replay(&self.resolve(library)?, &self.actions, self.playhead)
    }
}

/// One `{"at": ms, "step": {...}}` entry of a session's actions.
fn logged_step(entry: Value) -> Result<LoggedStep, String> {
    let at = entry
        .get("at")
        .and_then(Value::as_u64)
        .ok_or("`at` is not a whole number of milliseconds")?;
    let step = entry.get("step").cloned().ok_or("missing field `step`")?;
    // `{"call": ..., "input": ...}` or `{"sim": ..., "input": ...}`, as in scenario files.
    let step = Step::from_value(step);
    Ok(LoggedStep {
        at,
        step: step.map_err(|e| e.to_string())?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use sqs_engine::api::SendMessageInput;
    use sqs_engine::Request;
    use sqs_sim::command::SimAction;

    fn step(at: Millis, step: Step) -> LoggedStep {
        LoggedStep { at, step }
    }

    #[test]
    fn reads_back_what_it_writes() {
        let scenario = sqs_sim::scenario::find("heartbeat").expect("library scenario");
        let session = Session {
            scenario: ScenarioSource::Inline(scenario),
            actions: vec![
                step(
                    1_000,
                    Step::Call(Request::SendMessage(SendMessageInput {
                        queue_url: "https://sqs.local/000000000000/reports".into(),
                        message_body: "hello".into(),
                        delay_seconds: Some(5),
                        ..SendMessageInput::default()
                    })),
                ),
                step(
                    2_500,
                    Step::Sim(SimAction::Kill {
                        worker: "Worker A".into(),
                    }),
                ),
            ],
            playhead: 3_000,
            speed: 2.5,
            lesson: true,
        };
        let json = session.to_json();
        assert_eq!(json["lesson"], true);
        assert_eq!(Session::from_json(json), Ok(session));
    }

    #[test]
    fn leaves_out_what_has_a_default() {
        let session = Session::from_json(json!({"scenario": "heartbeat"})).unwrap();
        assert_eq!(
            session.scenario,
            ScenarioSource::Library("heartbeat".into())
        );
        assert_eq!(
            (session.actions.len(), session.playhead, session.speed),
            (0, 0, 1.0)
        );
        assert!(!session.lesson);
        assert_eq!(session.to_json().get("lesson"), None);
    }

    #[test]
    fn names_what_is_wrong() {
        let error = |json: Value| Session::from_json(json).unwrap_err();
        assert!(error(json!([1])).contains("JSON object"));
        assert!(error(json!({})).contains("`scenario`"));
        assert!(error(json!({"scenario": 5})).starts_with("scenario:"));
        assert!(error(json!({"scenario": "x", "playhead": -1})).contains("`playhead`"));
        assert!(error(json!({"scenario": "x", "speed": "fast"})).contains("`speed`"));
        assert!(error(json!({"scenario": "x", "lesson": 1})).contains("`lesson`"));
        assert!(error(json!({"scenario": "x", "actions": {}})).contains("not a list"));
        let bad_step = json!({"scenario": "x", "actions": [
            {"at": 1, "step": {"sim": "Kill", "input": {"worker": "A"}}},
            {"at": 2, "step": {"call": "NoSuchCall", "input": {}}},
        ]});
        assert!(error(bad_step).starts_with("actions[1]:"));
        let no_time = json!({"scenario": "x", "actions": [{"step": {"sim": "Kill"}}]});
        assert!(error(no_time).contains("`at`"));
    }
}
