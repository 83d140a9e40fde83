//! Files: the session as a scenario file (`sqs-sim run` reads it), and the event log as JSON or
//! CSV; importing a scenario file back.

use super::session::{ScenarioSource, Session};
use serde_json::{json, Value};
use sqs_engine::Millis;
use sqs_sim::{Scenario, WorldEvent};

/// The largest file the playground imports; bigger ones are refused before parsing.
pub const MAX_IMPORT_BYTES: usize = 4 * 1024 * 1024;

/// The session as one scenario file: the scenario's steps with the user's actions merged in at
/// their times (`advance` steps in between), so `sqs-sim run` replays exactly what happened.
/// `playhead` is kept as a top-level key for the playground.
pub fn session_file(session: &Session, scenario: &Scenario) -> Value {
    let mut steps = Vec::new();
    let mut clock: Millis = 0; // time of the steps written so far
    let mut scenario_clock: Millis = 0; // time the scenario's own steps have reached
    let mut actions = session.actions.iter().peekable();
    let mut emit_at = |steps: &mut Vec<Value>, clock: &mut Millis, at: Millis, step: Value| {
        if at > *clock {
            steps.push(json!({ "advance": (at - *clock) as f64 / 1000.0 }));
            *clock = at;
        }
        steps.push(step);
    };
    for step in &scenario.steps {
        if let Some(secs) = step.get("advance").and_then(Value::as_f64) {
            scenario_clock += (secs * 1000.0).round() as Millis;
            continue;
        }
        while let Some(a) = actions.next_if(|a| a.at < scenario_clock) {
            emit_at(&mut steps, &mut clock, a.at, json!(a.step));
        }
        emit_at(&mut steps, &mut clock, scenario_clock, step.clone());
    }
    for a in actions {
        emit_at(&mut steps, &mut clock, a.at, json!(a.step));
    }
    let mut file = json!(scenario);
    file["steps"] = Value::Array(steps);
    file["playhead"] = json!(session.playhead);
    file
}

/// Reads an imported scenario file into a session that starts at its beginning (or at its
/// `playhead`). Every error names the problem.
pub fn import(text: &str) -> Result<Session, String> {
    if text.len() > MAX_IMPORT_BYTES {
        return Err(format!(
            "The file is too large ({} bytes; at most {MAX_IMPORT_BYTES}).",
            text.len()
        ));
    }
    let value: Value =
        serde_json::from_str(text).map_err(|e| format!("The file is not valid JSON: {e}."))?;
    let playhead = value.get("playhead").and_then(Value::as_u64).unwrap_or(0);
    let scenario: Scenario = serde_json::from_value(value)
        .map_err(|e| format!("The file is not a scenario file: {e}."))?;
    Ok(Session {
        scenario: ScenarioSource::Inline(scenario),
        actions: Vec::new(),
        playhead,
        speed: 1.0,
    })
}

/// The event log as JSON (one array).
pub fn events_json(events: &[WorldEvent]) -> String {
    serde_json::to_string_pretty(events).expect("events always serialise")
}

/// The event log as CSV: time in seconds, actor, action, message, text.
pub fn events_csv(events: &[WorldEvent]) -> String {
    let mut out = String::from("t_seconds,actor,action,message_id,text\n");
    for e in events {
        let actor = match &e.actor {
            sqs_sim::Actor::Sqs => "SQS".to_string(),
            sqs_sim::Actor::User => "User".to_string(),
            sqs_sim::Actor::Worker(n) | sqs_sim::Actor::Producer(n) => n.clone(),
        };
        let fields = [
            format!("{:.3}", e.at as f64 / 1000.0),
            actor,
            e.action.clone().unwrap_or_default(),
            e.message_id.clone().unwrap_or_default(),
            e.text.clone(),
        ];
        let row: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

/// Quotes a CSV field when needed, and defuses spreadsheet formulas (a body starting with `=`).
fn csv_field(f: &str) -> String {
    let f = if f.starts_with(['=', '+', '-', '@']) {
        format!("'{f}")
    } else {
        f.to_string()
    };
    if f.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", f.replace('"', "\"\""))
    } else {
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqs_sim::{Actor, LoggedStep, Step};

    fn scenario() -> Scenario {
        serde_json::from_value(json!({
            "id": "x", "title": "X", "seed": 3,
            "steps": [{"call": "ListQueues", "input": {}}, {"advance": 10}, {"call": "ListQueues", "input": {}}]
        }))
        .unwrap()
    }

    fn action(at: Millis) -> LoggedStep {
        LoggedStep {
            at,
            step: serde_json::from_value::<Step>(
                json!({"call": "ListQueues", "input": {"QueueNamePrefix": "a"}}),
            )
            .unwrap(),
        }
    }

    #[test]
    fn merges_actions_into_the_scenario_timeline() {
        let session = Session {
            scenario: ScenarioSource::Library("x".into()),
            actions: vec![action(4_000), action(15_500)],
            playhead: 20_000,
            speed: 1.0,
        };
        let file = session_file(&session, &scenario());
        let steps = file["steps"].as_array().unwrap();
        let shape: Vec<String> = steps
            .iter()
            .map(|s| match s.get("advance") {
                Some(a) => format!("+{a}"),
                None if s["input"].get("QueueNamePrefix").is_some() => "action".into(),
                None => "scenario".into(),
            })
            .collect();
        assert_eq!(
            shape,
            ["scenario", "+4.0", "action", "+6.0", "scenario", "+5.5", "action"]
        );
        assert_eq!(file["playhead"], 20_000);
        assert_eq!(import(&file.to_string()).unwrap().playhead, 20_000);
    }

    #[test]
    fn import_names_what_is_wrong() {
        assert!(import("{").unwrap_err().contains("not valid JSON"));
        assert!(import("{\"steps\": 5}")
            .unwrap_err()
            .contains("not a scenario file"));
        assert!(import(&" ".repeat(MAX_IMPORT_BYTES + 1))
            .unwrap_err()
            .contains("too large"));
    }

    #[test]
    fn csv_quotes_and_defuses_formulas() {
        let e = WorldEvent {
            at: 1_500,
            actor: Actor::Worker("Worker A".into()),
            action: Some("ReceiveMessage".into()),
            engine: None,
            message_id: None,
            text: "=HYPERLINK(\"x\"), got it".into(),
        };
        let csv = events_csv(&[e]);
        assert_eq!(
            csv.lines().nth(1).unwrap(),
            "1.500,Worker A,ReceiveMessage,,\"'=HYPERLINK(\"\"x\"\"), got it\""
        );
    }
}
