//! Files: the session as a scenario file (`sqs-sim run` reads it), and the event log as JSON or
//! CSV; importing a scenario file back.

use super::session::{ScenarioSource, Session};
use serde_json::{json, Value};
use sqs_engine::api::{FromJson, ToJson};
use sqs_engine::Millis;
use sqs_sim::{Sample, Scenario, WorldEvent};

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
    let emit_at = |steps: &mut Vec<Value>, clock: &mut Millis, at: Millis, step: Value| {
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
            emit_at(&mut steps, &mut clock, a.at, a.step.to_json());
        }
        emit_at(&mut steps, &mut clock, scenario_clock, step.clone());
    }
    for a in actions {
        emit_at(&mut steps, &mut clock, a.at, a.step.to_json());
    }
    let mut file = scenario.to_json();
    file["steps"] = Value::Array(steps);
    file["playhead"] = json!(session.playhead);
    file
}

/// [`session_file`] as the text of the file the page saves.
pub fn session_file_text(session: &Session, scenario: &Scenario) -> String {
    serde_json::to_string_pretty(&session_file(session, scenario)).unwrap_or_default()
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
    let scenario =
        Scenario::from_json(value).map_err(|e| format!("The file is not a scenario file: {e}."))?;
    Ok(Session {
        scenario: ScenarioSource::Inline(scenario),
        actions: Vec::new(),
        playhead,
        speed: 1.0,
        lesson: false,
    })
}

/// The event log as JSON (one array; each event's members sorted by name, as in links and
/// scenario files), pretty-printed.
pub fn events_json(events: &[WorldEvent]) -> String {
    let events = Value::Array(events.iter().map(ToJson::to_json).collect());
    serde_json::to_string_pretty(&events).unwrap_or_default()
}

/// The event log as CSV: time in seconds, actor, action, message, text.
pub fn events_csv(events: &[WorldEvent]) -> String {
    let mut out = String::from("t_seconds,actor,action,message_id,text\n");
    for e in events {
        let actor = match &e.actor {
            sqs_sim::Actor::Sqs => "SQS",
            sqs_sim::Actor::User => "User",
            sqs_sim::Actor::Worker(n) | sqs_sim::Actor::Producer(n) | sqs_sim::Actor::Client(n) => {
                n
            }
        };
        let row = [
            &format!("{:.3}", e.at as f64 / 1000.0),
            actor,
            e.action.as_deref().unwrap_or_default(),
            e.message_id.as_deref().unwrap_or_default(),
            &e.text,
        ]
        .map(csv_field);
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

/// A CSV field, quoted when needed, with spreadsheet formulas defused (a body starting with `=`
/// gets a `'` first).
fn csv_field(f: &str) -> String {
    let defuse = if f.starts_with(['=', '+', '-', '@']) {
        "'"
    } else {
        ""
    };
    if f.contains([',', '"', '\n', '\r']) {
        format!("\"{defuse}{}\"", f.replace('"', "\"\""))
    } else {
        format!("{defuse}{f}")
    }
}

/// One series of the depth chart: label, colour, dash pattern (never colour alone), value.
pub type DepthSeries = (&'static str, &'static str, &'static str, fn(&Sample) -> u64);

/// The series of the depth chart.
pub const DEPTH_SERIES: [DepthSeries; 4] = [
    ("visible", "#2f6fdf", "", |s| s.visible),
    ("in flight", "#c77800", "8 4", |s| s.in_flight),
    ("delayed", "#6b6b9a", "2 4", |s| s.delayed),
    ("dead-letter", "#c62828", "12 4 2 4", |s| s.dead_letter),
];

/// `x,y x,y ...` for one series, scaled into a `width` x `height` box (y grows downwards).
pub fn polyline_points(
    samples: &[Sample],
    value: fn(&Sample) -> u64,
    width: f64,
    height: f64,
) -> String {
    let (Some(first), Some(last)) = (samples.first(), samples.last()) else {
        return String::new();
    };
    let span = (last.at - first.at).max(1) as f64;
    let top = depth_top(samples) as f64;
    samples
        .iter()
        .map(|s| {
            let x = (s.at - first.at) as f64 / span * width;
            let y = height - value(s) as f64 / top * (height - 6.0);
            format!("{x:.1},{y:.1}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The highest value of any series (at least 1), the chart's vertical scale.
pub fn depth_top(samples: &[Sample]) -> u64 {
    let mut top = 1;
    for s in samples {
        for (.., value) in &DEPTH_SERIES {
            top = top.max(value(s));
        }
    }
    top
}

/// The depth chart as a standalone SVG file (styles inline, so it renders anywhere).
pub fn depth_chart_svg(samples: &[Sample]) -> String {
    let (w, h) = (800, 240);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {}\" font-family=\"sans-serif\" font-size=\"14\">\n\
         <title>Queue depth by state</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n\
         <line x1=\"0\" y1=\"{h}\" x2=\"{w}\" y2=\"{h}\" stroke=\"#555\"/>\n",
        h + 30
    );
    for (i, (name, colour, dash, f)) in DEPTH_SERIES.iter().enumerate() {
        out.push_str(&format!(
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" stroke-dasharray=\"{dash}\" points=\"{}\"/>\n\
             <text x=\"{}\" y=\"{}\" fill=\"{colour}\">{name}</text>\n",
            polyline_points(samples, *f, f64::from(w), f64::from(h)),
            10 + 150 * i,
            h + 22
        ));
    }
    out.push_str(&format!(
        "<text x=\"{w}\" y=\"14\" text-anchor=\"end\">max {}</text>\n</svg>\n",
        depth_top(samples)
    ));
    out
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
            lesson: false,
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
    fn chart_svg_scales_every_series_into_the_box() {
        let samples: Vec<Sample> = (0..3)
            .map(|i| Sample {
                at: i * 1000,
                visible: i,
                in_flight: 2 - i,
                ..Sample::default()
            })
            .collect();
        assert_eq!(depth_top(&samples), 2);
        assert_eq!(
            polyline_points(&samples, |s| s.visible, 100.0, 50.0),
            "0.0,50.0 50.0,28.0 100.0,6.0"
        );
        let svg = depth_chart_svg(&samples);
        assert!(
            svg.starts_with("<svg xmlns=")
                && svg.contains("dead-letter")
                && svg.matches("<polyline").count() == 4
        );
        assert!(svg.contains("viewBox=\"0 0 800 270\"") && svg.contains("x=\"460\" y=\"262\""));
    }

    /// An event by `actor` at `at` saying `text`, about no action or message.
    fn event(at: Millis, actor: Actor, text: &str) -> WorldEvent {
        WorldEvent {
            at,
            actor,
            action: None,
            engine: None,
            message_id: None,
            text: text.into(),
        }
    }

    #[test]
    fn events_json_is_serde_jsons_pretty_text() {
        let e = WorldEvent {
            action: Some("ReceiveMessage".into()),
            message_id: Some("m-1".into()),
            ..event(1_500, Actor::Worker("W \"1\"".into()), "got it: ünïcode\n")
        };
        let events = [e.clone(), e];
        let expected = Value::Array(events.iter().map(ToJson::to_json).collect());
        assert_eq!(
            events_json(&events),
            serde_json::to_string_pretty(&expected).unwrap()
        );
    }

    #[test]
    fn csv_seconds_are_what_std_prints() {
        for at in (0..5_000).chain([86_399_999, 1 << 50]) {
            let csv = events_csv(&[event(at, Actor::Sqs, "")]);
            let seconds = format!("{:.3}", at as f64 / 1000.0);
            assert_eq!(csv.lines().nth(1).unwrap(), format!("{seconds},SQS,,,"));
        }
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
