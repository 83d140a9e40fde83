//! The control API (axum handlers): drive the virtual clock, look at the state and the messages,
//! start over. Requests with a body take `Content-Type: application/json` only (a browser cannot
//! send that cross-site without a CORS preflight).
//!
//! * `GET /health`: `{"status": "ok", "version", "uptime_seconds", "queues", "messages"}` (the
//!   queues and messages of every account and region).
//! * `POST /_sqs-sim/clock` with any of `{"advance": SECONDS, "pause": BOOL, "speed": N}`
//!   (applied in that order: pause, speed, advance); answers the state.
//! * `GET /_sqs-sim/state`: virtual time, the clock, waiting long polls, each queue's depths
//!   (every account and region's).
//! * `POST /_sqs-sim/reset`: an engine at virtual time 0 with only the declared queues (waiting
//!   long polls are answered with no messages) and a new run of the live view's record; with a
//!   data directory, its files start again from that engine before the answer, which is the
//!   state with `"data_dir": {"cleared": true, ...}`.
//! * `GET /_sqs-sim/queues`: every queue of every account and region (the server's own first)
//!   with its URL, depths and attributes.
//! * `GET /_sqs-sim/queues/{name}/messages[?region=R&account=A]`: every stored message of a
//!   queue (of the server's own account and region unless named) with its state, without
//!   changing anything.
//!
//! The live view's routes, `GET /_sqs-sim/events` and `POST /_sqs-sim/call`, are [`crate::live`]'s.

use crate::addressing::public_url;
use crate::serve::{base_url, App};
use crate::state::State as EngineState;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use sqs_engine::api::ToJson;
use sqs_engine::view::MessageState;
use sqs_engine::{Engine, Millis, Namespace, EPOCH_MS};
use std::sync::Arc;

/// A refusal: its status and `{"error": message}`.
pub fn refused(status: StatusCode, message: impl Into<String>) -> Response {
    (status, Json(json!({"error": message.into()}))).into_response()
}

/// The JSON body of a control request (an empty one is `{}`); anything but
/// `application/json` is refused (415), as is a body that does not parse (400): the refusal's
/// status and message.
pub fn json_body(headers: &HeaderMap, body: &[u8]) -> Result<Value, (StatusCode, String)> {
    let kind = headers.get(CONTENT_TYPE).and_then(|c| c.to_str().ok());
    let json = kind.is_some_and(|kind| {
        let essence = kind.split(';').next().unwrap_or_default().trim();
        essence.eq_ignore_ascii_case("application/json")
    });
    if !json {
        let given = kind.unwrap_or("none");
        let message = format!(
            "the control API takes Content-Type: application/json (this request's: {given})"
        );
        return Err((StatusCode::UNSUPPORTED_MEDIA_TYPE, message));
    }
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    serde_json::from_slice(body).map_err(|e| (StatusCode::BAD_REQUEST, format!("not JSON: {e}")))
}

/// `GET /health`: the server answers, with its version, uptime and counts.
pub async fn health(State(app): State<Arc<App>>) -> Json<Value> {
    let (queues, messages) = app.shared.with(|state| {
        let engine = state.engine();
        (engine.queue_count(), engine.stored_messages())
    });
    Json(json!({
        "status": "ok",
        "version": env!("CARGO_PKG_VERSION"),
        "uptime_seconds": app.started.elapsed().as_secs_f64(),
        "queues": queues,
        "messages": messages,
    }))
}

/// `GET /_sqs-sim/state`.
pub async fn state(State(app): State<Arc<App>>, headers: HeaderMap) -> Json<Value> {
    Json(describe(&app, &headers))
}

/// `POST /_sqs-sim/clock`: applies a clock request after checking all of it (a bad member
/// changes nothing).
pub async fn clock(State(app): State<Arc<App>>, headers: HeaderMap, body: Bytes) -> Response {
    let request = match json_body(&headers, &body) {
        Ok(request) => request,
        Err((status, message)) => return refused(status, message),
    };
    let Value::Object(members) = request else {
        let message = "expected a JSON object such as {\"advance\": 30}";
        return refused(StatusCode::BAD_REQUEST, message);
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
                let message = format!(
                    "bad member {name}: {value} (advance: seconds >= 0, pause: true or false, speed: > 0)"
                );
                return refused(StatusCode::BAD_REQUEST, message);
            }
        }
    }
    app.shared.with(|state| {
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
    Json(describe(&app, &headers)).into_response()
}

/// `POST /_sqs-sim/reset`.
pub async fn reset(State(app): State<Arc<App>>, headers: HeaderMap, body: Bytes) -> Response {
    if let Err((status, message)) = json_body(&headers, &body) {
        return refused(status, message);
    }
    if let Some(cleared) = app.shared.with(EngineState::reset) {
        if let Err(reason) = cleared.wait().await {
            let message = format!("the data directory could not be cleared: {reason}");
            return refused(StatusCode::INTERNAL_SERVER_ERROR, message);
        }
    }
    let mut state = describe(&app, &headers);
    if let Some(data_dir) = state["data_dir"].as_object_mut() {
        data_dir.insert("cleared".into(), true.into());
    }
    Json(state).into_response()
}

/// The state as JSON, with queue URLs on the request's host.
fn describe(app: &App, headers: &HeaderMap) -> Value {
    let base = base_url(headers);
    app.shared.with(|state| {
        let (speed, paused, waiting) = (
            state.clock().speed(),
            state.clock().paused(),
            state.waiting_polls(),
        );
        let data_dir = state.store().map(|store| {
            json!({"path": store.dir(), "fsync": store.fsync().to_string(), "cleared": false})
        });
        let engine = state.engine();
        let queues = queue_list(app, engine, &base, false);
        json!({
            "now_ms": engine.now(),
            "epoch_ms": EPOCH_MS + engine.now(),
            "speed": speed,
            "paused": paused,
            "next_deadline_ms": engine.next_deadline(),
            "waiting_polls": waiting,
            "queues": queues,
            "data_dir": data_dir,
        })
    })
}

/// Every queue of every account and region, the server's own first: its name, account, region,
/// URL on `base` and depths, and its attributes if `attributes`.
fn queue_list(app: &App, engine: &Engine, base: &str, attributes: bool) -> Vec<Value> {
    let mut namespaces = engine.namespaces();
    namespaces.sort_by_key(|namespace| *namespace != Namespace::DEFAULT);
    let mut list = Vec::new();
    for namespace in &namespaces {
        let public = app.addressing.swap(namespace.clone());
        for (name, [visible, in_flight, delayed]) in engine.depths_in(namespace) {
            let mut entry = json!({
                "name": name,
                "account": public.account,
                "region": public.region,
                "url": public_url(base, &public.account, name),
                "visible": visible,
                "in_flight": in_flight,
                "delayed": delayed,
            });
            if attributes {
                entry["attributes"] = json!(engine.attributes_in(namespace, name));
            }
            list.push(entry);
        }
    }
    list
}

/// `GET /_sqs-sim/queues`: every queue with its URL, depths and attributes (as
/// GetQueueAttributes `All` answers them).
pub async fn queues(State(app): State<Arc<App>>, headers: HeaderMap) -> Json<Value> {
    let base = base_url(&headers);
    let mut answer = app.shared.with(|state| {
        let queues = queue_list(&app, state.engine(), &base, true);
        json!({"queues": queues})
    });
    app.addressing.outbound(&mut answer, &base);
    Json(answer)
}

/// Where a queue is: `?region=eu-west-1&account=123456789012`, each the server's own when absent.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Place {
    region: Option<String>,
    account: Option<String>,
}

/// `GET /_sqs-sim/queues/{name}/messages`: every stored message of the queue with its state,
/// as it is (nothing is received, no count or timer changes); 404 for no such queue, naming
/// the accounts and regions that have a queue of that name.
pub async fn messages(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
    place: Result<Query<Place>, QueryRejection>,
    headers: HeaderMap,
) -> Response {
    let Query(place) = match place {
        Ok(place) => place,
        Err(rejection) => return refused(StatusCode::BAD_REQUEST, rejection.body_text()),
    };
    let base = base_url(&headers);
    let home = app.addressing.home();
    let public = Namespace::new(
        place.account.as_deref().unwrap_or(&home.account),
        place.region.as_deref().unwrap_or(&home.region),
    );
    let namespace = app.addressing.swap(public.clone());
    let found = app.shared.with(|state| {
        let engine = state.engine();
        let now = engine.now();
        let Some(details) = engine.message_details_in(&namespace, &name) else {
            let holding = engine
                .namespaces()
                .into_iter()
                .filter(|n| engine.depth_in(n, &name).is_some());
            return Err(holding.map(|n| app.addressing.swap(n)).collect::<Vec<_>>());
        };
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
        Ok(json!({
            "queue": name,
            "account": public.account,
            "region": public.region,
            "url": public_url(&base, &public.account, &name),
            "now_ms": now,
            "messages": messages,
        }))
    });
    match found {
        Ok(mut answer) => {
            app.addressing.outbound(&mut answer, &base);
            Json(answer).into_response()
        }
        Err(holding) => {
            let mut error = format!(
                "no queue named {name:?} in account {} in {}",
                public.account, public.region
            );
            let places: Vec<String> = holding
                .iter()
                .map(|n| format!("?region={}&account={}", n.region, n.account))
                .collect();
            if !places.is_empty() {
                error += &format!("; there is one at {}", places.join(", "));
            }
            refused(StatusCode::NOT_FOUND, error)
        }
    }
}
