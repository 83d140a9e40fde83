//! The control API under `/_sqs-sim/`: drive the virtual clock, look at the state, start over.
//!
//! * `POST /_sqs-sim/clock` with any of `{"advance": SECONDS, "pause": BOOL, "speed": N}`
//!   (applied in that order: pause, speed, advance); answers the state.
//! * `GET /_sqs-sim/state`: virtual time, the clock, waiting long polls, each queue's depths.
//! * `POST /_sqs-sim/reset`: an empty engine at virtual time 0 (waiting long polls are answered
//!   with no messages) and a new run of the live view's record; answers the state.
//!
//! The live view's routes, `GET /_sqs-sim/events` and `POST /_sqs-sim/call`, are [`crate::live`]'s.

use crate::addressing::Addressing;
use crate::state::{Shared, State};
use serde_json::{json, Value};
use sqs_engine::api::ToJson;
use sqs_engine::view::MessageState;
use sqs_engine::{Millis, EPOCH_MS};

/// The answer to a control request: its HTTP status and JSON body.
pub fn handle(
    shared: &Shared,
    method: &str,
    path: &str,
    body: &[u8],
    base: &str,
    addressing: &Addressing,
) -> (u16, Value) {
    let result = match (method, path.trim_end_matches('/')) {
        ("POST", "/_sqs-sim/clock") => clock(shared, body),
        ("GET", "/_sqs-sim/state") => Ok(()),
        ("GET", "/_sqs-sim/queues") => return (200, queues(shared, base, addressing)),
        ("GET", route)
            if route.starts_with("/_sqs-sim/queues/") && route.ends_with("/messages") =>
        {
            let name = &route["/_sqs-sim/queues/".len()..route.len() - "/messages".len()];
            return messages(shared, name, base, addressing);
        }
        ("POST", "/_sqs-sim/reset") => {
            shared.with(State::reset);
            Ok(())
        }
        _ => {
            let routes = "POST /_sqs-sim/clock, GET /_sqs-sim/state, POST /_sqs-sim/reset, \
                          GET /_sqs-sim/events, POST /_sqs-sim/call";
            return (
                404,
                json!({"error": format!("no such control route: {method} {path} ({routes})")}),
            );
        }
    };
    match result {
        Ok(()) => (200, shared.with(|state| describe(state, base, addressing))),
        Err(message) => (400, json!({"error": message})),
    }
}

/// Applies a clock request, after checking all of it (a bad member changes nothing).
fn clock(shared: &Shared, body: &[u8]) -> Result<(), String> {
    let request: Value = serde_json::from_slice(body).map_err(|e| format!("not JSON: {e}"))?;
    let Value::Object(members) = request else {
        return Err("expected a JSON object such as {\"advance\": 30}".into());
    };
    let (mut advance, mut pause, mut speed) = (None, None, None);
    for (name, value) in &members {
        match (name.as_str(), value) {
            ("advance", Value::Number(n)) if n.as_f64().is_some_and(|s| s >= 0.0) => {
                advance = n.as_f64().map(|s| (s * 1000.0).round() as Millis)
            }
            ("pause", Value::Bool(b)) => pause = Some(*b),
            ("speed", Value::Number(n)) if n.as_f64().is_some_and(|s| s > 0.0 && s.is_finite()) => {
                speed = n.as_f64()
            }
            _ => {
                return Err(format!(
                    "bad member {name}: {value} (advance: seconds >= 0, pause: true or false, speed: > 0)"
                ))
            }
        }
    }
    shared.with(|state| {
        state.change_clock(|clock, at| {
            if let Some(pause) = pause {
                clock.set_paused(pause, at);
            }
            if let Some(speed) = speed {
                clock.set_speed(speed, at);
            }
            if let Some(by) = advance {
                clock.advance(by, at);
            }
        })
    });
    Ok(())
}

/// The state as JSON.
fn describe(state: &mut State, base: &str, addressing: &Addressing) -> Value {
    let (speed, paused, waiting) = (
        state.clock().speed(),
        state.clock().paused(),
        state.waiting_polls(),
    );
    let engine = state.engine();
    let queues: Vec<Value> = engine
        .depths()
        .map(|(name, [visible, in_flight, delayed])| {
            json!({
                "name": name,
                "url": addressing.public_url(base, name),
                "visible": visible,
                "in_flight": in_flight,
                "delayed": delayed,
            })
        })
        .collect();
    json!({
        "now_ms": engine.now(),
        "epoch_ms": EPOCH_MS + engine.now(),
        "speed": speed,
        "paused": paused,
        "next_deadline_ms": engine.next_deadline(),
        "waiting_polls": waiting,
        "queues": queues,
    })
}

/// `GET /health`: the server answers, with its version, uptime and counts.
pub fn health(shared: &Shared, started: std::time::Instant) -> Value {
    shared.with(|state| {
        let engine = state.engine();
        let (mut queues, mut messages) = (0, 0);
        for (_, depths) in engine.depths() {
            queues += 1;
            messages += depths.iter().sum::<u64>();
        }
        json!({
            "status": "ok",
            "version": env!("CARGO_PKG_VERSION"),
            "uptime_seconds": started.elapsed().as_secs_f64(),
            "queues": queues,
            "messages": messages,
        })
    })
}

/// `GET /_sqs-sim/queues`: every queue with its URL, depths and attributes.
pub fn queues(shared: &Shared, base: &str, addressing: &Addressing) -> Value {
    let mut answer = shared.with(|state| {
        let engine = state.engine();
        let queues: Vec<Value> = engine
            .depths()
            .map(|(name, [visible, in_flight, delayed])| {
                json!({
                    "name": name,
                    "url": addressing.public_url(base, name),
                    "visible": visible,
                    "in_flight": in_flight,
                    "delayed": delayed,
                    "attributes": engine.attributes(name),
                })
            })
            .collect();
        json!({"queues": queues})
    });
    addressing.outbound(&mut answer, base);
    answer
}

/// `GET /_sqs-sim/queues/{name}/messages`: every stored message of the queue with its state,
/// as it is (nothing is received, no count or timer changes); 404 for no such queue.
pub fn messages(shared: &Shared, name: &str, base: &str, addressing: &Addressing) -> (u16, Value) {
    let found = shared.with(|state| {
        let engine = state.engine();
        let now = engine.now();
        let details = engine.message_details(name)?;
        let left = |until: Millis| until.saturating_sub(now) as f64 / 1000.0;
        let messages: Vec<Value> = details
            .into_iter()
            .map(|m| {
                let (state, seconds_left, handle) = match m.view.state {
                    MessageState::Visible => ("visible", None, None),
                    MessageState::Delayed { until } => ("delayed", Some(left(until)), None),
                    MessageState::InFlight {
                        until,
                        receipt_handle,
                    } => ("in_flight", Some(left(until)), Some(receipt_handle)),
                };
                json!({
                    "MessageId": m.view.message_id,
                    "Body": m.view.body,
                    "MD5OfBody": m.md5_of_body,
                    "state": state,
                    "seconds_left": seconds_left,
                    "receive_count": m.view.receive_count,
                    "ReceiptHandle": handle,
                    "Attributes": m.attributes,
                    "MessageAttributes": m.message_attributes.to_json(),
                    "MD5OfMessageAttributes": m.md5_of_message_attributes,
                })
            })
            .collect();
        Some(json!({
            "queue": name,
            "url": addressing.public_url(base, name),
            "now_ms": now,
            "messages": messages,
        }))
    });
    match found {
        Some(mut answer) => {
            addressing.outbound(&mut answer, base);
            (200, answer)
        }
        None => (404, json!({"error": format!("no queue named {name:?}")})),
    }
}
