//! The embedded player's conversation with its host page, through `window.postMessage`.
//!
//! Out (player -> host), one message per world event:
//! `{"type": "sqs-playground:event", "version": 1, "event": {"at": 30000, "actor": ...,
//! "action": "ReceiveMessage", "engine": {"event": "Received", ...}, "message_id": "...",
//! "text": "Worker B called ReceiveMessage: ..."}}`, and once ready
//! `{"type": "sqs-playground:ready", "version": 1, "scenario": "<id>"}`. A comparison's events
//! also say whose they are: `"copy": "A"` or `"B"`.
//!
//! In (host -> player): `{"type": "sqs-playground:command", "command": "play" | "pause" |
//! "step" | "seek" | "load", "t": <seconds, for seek>, "scenario": "<id, for load>"}`.
//! Anything else is ignored, so a host page can use postMessage for its own purposes too.

use serde_json::{json, Value};
use sqs_engine::api::ToJson;
use sqs_engine::Millis;
use sqs_sim::WorldEvent;

/// The version of the message shapes above. New fields may appear within a version.
pub const PROTOCOL: u32 = 1;

/// The message announcing one world event to the host page; `copy` names a comparison's copy.
pub fn event_message(event: &WorldEvent, copy: Option<&str>) -> Value {
    let mut message =
        json!({ "type": "sqs-playground:event", "version": PROTOCOL, "event": event.to_json() });
    if let Some(copy) = copy {
        message["copy"] = json!(copy);
    }
    message
}

/// The message saying the player has loaded a scenario and is ready for commands.
pub fn ready_message(scenario: &str) -> Value {
    json!({ "type": "sqs-playground:ready", "version": PROTOCOL, "scenario": scenario })
}

/// A command from the host page.
#[derive(Clone, Debug, PartialEq)]
pub enum HostCommand {
    /// Start playing.
    Play,
    /// Pause.
    Pause,
    /// Run to the next event.
    Step,
    /// Jump to a virtual time.
    Seek(Millis),
    /// Open a library scenario.
    Load(String),
}

impl HostCommand {
    /// Reads a posted message: `Ok(None)` when it is not for the player at all, an error when
    /// it is for the player but malformed.
    pub fn parse(data: &Value) -> Result<Option<HostCommand>, String> {
        if data.get("type").and_then(Value::as_str) != Some("sqs-playground:command") {
            return Ok(None);
        }
        let command = data
            .get("command")
            .and_then(Value::as_str)
            .unwrap_or_default();
        Ok(Some(match command {
            "play" => HostCommand::Play,
            "pause" => HostCommand::Pause,
            "step" => HostCommand::Step,
            "seek" => match data.get("t").and_then(Value::as_f64) {
                Some(t) if t.is_finite() && t >= 0.0 => {
                    HostCommand::Seek((t * 1000.0).round() as Millis)
                }
                _ => return Err("seek needs \"t\": a number of seconds, 0 or more".into()),
            },
            "load" => match data.get("scenario").and_then(Value::as_str) {
                Some(id) => HostCommand::Load(id.to_string()),
                None => return Err("load needs \"scenario\": a scenario id".into()),
            },
            other => return Err(format!("unknown command \"{other}\"")),
        }))
    }
}

/// A ready-to-paste `<iframe>` for the player at `url` (which already carries the session).
pub fn iframe_snippet(url: &str) -> String {
    let url = url.replace('&', "&amp;").replace('"', "&quot;");
    format!(
        "<iframe src=\"{url}\" title=\"SQS Playground\" width=\"960\" height=\"600\" \
         style=\"border:0;max-width:100%\" loading=\"lazy\"></iframe>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_host_commands_and_ignores_foreign_messages() {
        let cmd = |v: Value| HostCommand::parse(&v);
        assert_eq!(cmd(json!({"hello": 1})), Ok(None));
        assert_eq!(
            cmd(json!({"type": "sqs-playground:command", "command": "play"})),
            Ok(Some(HostCommand::Play))
        );
        assert_eq!(
            cmd(json!({"type": "sqs-playground:command", "command": "seek", "t": 30.5})),
            Ok(Some(HostCommand::Seek(30_500)))
        );
        assert!(
            cmd(json!({"type": "sqs-playground:command", "command": "seek", "t": -1})).is_err()
        );
        assert!(cmd(json!({"type": "sqs-playground:command", "command": "explode"})).is_err());
    }

    #[test]
    fn the_snippet_escapes_the_url() {
        let s = iframe_snippet("https://x.test/p/?scenario=heartbeat&embed=1#s=1.\"x");
        assert!(s.contains("?scenario=heartbeat&amp;embed=1#s=1.&quot;x"));
        assert!(s.starts_with("<iframe ") && s.ends_with("</iframe>"));
    }
}
