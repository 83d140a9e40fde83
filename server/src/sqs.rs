//! The SQS endpoint: one handler for every request that is not a control route. It tells the
//! wire protocol by `X-Amz-Target` (AWS JSON 1.0) or `Action` (the query protocol), turns the
//! request into an engine request, and writes the engine's answer back in that protocol. A `GET`
//! that names no action is the playground's ([`crate::ui`]).

use crate::journal::Caller;
use crate::serve::App;
use crate::wire::WireError;
use crate::{identity, json_protocol, query_protocol};
use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::header::{HeaderValue, CONTENT_TYPE, HOST};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use sqs_engine::api::ToJson;
use sqs_engine::Request as EngineRequest;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

/// The largest request body accepted: a 1 MiB message (SQS's limit) escaped as JSON or
/// percent-encoded as a form can be several times longer.
pub const MAX_BODY: usize = 8 << 20;

/// Which wire protocol a request speaks.
#[derive(Clone, Debug, PartialEq)]
pub enum Protocol {
    /// AWS JSON 1.0, with its `X-Amz-Target`.
    Json(String),
    /// The query protocol.
    Query,
}

impl Protocol {
    /// The protocol of a request with these headers.
    pub fn of(headers: &HeaderMap) -> Protocol {
        match headers.get("x-amz-target") {
            Some(target) => Protocol::Json(String::from_utf8_lossy(target.as_bytes()).into()),
            None => Protocol::Query,
        }
    }

    /// `error` as an answer in this protocol.
    pub fn error(&self, error: &WireError, request_id: &str) -> Response {
        match self {
            Protocol::Json(_) => {
                let mut response = reply(
                    error.status,
                    json_protocol::CONTENT_TYPE,
                    json_protocol::error_body(error),
                    request_id,
                );
                if let Ok(value) = HeaderValue::from_str(&json_protocol::query_error_header(error))
                {
                    response.headers_mut().insert("x-amzn-query-error", value);
                }
                response
            }
            Protocol::Query => reply(
                error.status,
                "text/xml",
                query_protocol::error_body(error, request_id),
                request_id,
            ),
        }
    }
}

/// Whether a URL query names an SQS action.
fn names_action(query: Option<&str>) -> bool {
    query.is_some_and(|q| form_urlencoded::parse(q.as_bytes()).any(|(name, _)| name == "Action"))
}

/// Every request no control route took: an SQS call, or a file of the playground.
pub async fn handle(State(app): State<Arc<App>>, request: Request) -> Response {
    let protocol = Protocol::of(request.headers());
    let get = request.method() == Method::GET || request.method() == Method::HEAD;
    if get && protocol == Protocol::Query && !names_action(request.uri().query()) {
        let request = match app.ui.answer(request).await {
            Ok(file) => return file,
            Err(request) => request,
        };
        if queue_path(request.uri().path()) {
            // What SQS answers a browser that opens a queue URL.
            let error = WireError {
                shape: "com.amazon.coral.service#UnknownOperationException".into(),
                code: "UnknownOperationException".into(),
                status: 404,
                message: "An unknown operation was requested.".into(),
            };
            return protocol.error(&error, &app.request_id());
        }
        return call(&app, request, protocol).await;
    }
    call(&app, request, protocol).await
}

/// Whether `path` is a queue URL's (`/<account>/<name>`).
fn queue_path(path: &str) -> bool {
    path.trim_matches('/')
        .split('/')
        .filter(|s| !s.is_empty())
        .count()
        == 2
}

/// The actions that act on no one queue: not valid on a queue URL.
const NOT_ON_A_QUEUE: [&str; 6] = [
    "CreateQueue",
    "ListQueues",
    "GetQueueUrl",
    "StartMessageMoveTask",
    "ListMessageMoveTasks",
    "CancelMessageMoveTask",
];

/// An SQS call in either protocol.
async fn call(app: &App, request: Request, protocol: Protocol) -> Response {
    let request_id = app.request_id();
    let (parts, body) = request.into_parts();
    let host = parts.headers.get(HOST).and_then(|h| h.to_str().ok());
    let base = format!("http://{}", host.unwrap_or("127.0.0.1"));
    let path = parts.uri.path();
    let body = match axum::body::to_bytes(body, MAX_BODY).await {
        Ok(body) => body,
        Err(_) => return protocol.error(&WireError::too_large(MAX_BODY), &request_id),
    };
    let mut parsed = match &protocol {
        Protocol::Json(target) => json_protocol::parse(target, &body),
        Protocol::Query => {
            let mut params: Vec<(String, String)> = Vec::new();
            if let Some(query) = parts.uri.query() {
                params.extend(form_urlencoded::parse(query.as_bytes()).into_owned());
            }
            if parts.method == Method::POST {
                params.extend(form_urlencoded::parse(&body).into_owned());
            }
            query_protocol::parse(params)
        }
    };
    if let Ok((action, _)) = &parsed {
        if queue_path(path) && NOT_ON_A_QUEUE.contains(action) {
            parsed = Err(WireError::unknown_action(action));
        }
    }
    if let (Ok(("SendMessage", input)), Some(trace)) =
        (&mut parsed, parts.headers.get("x-amzn-trace-id"))
    {
        trace_header(input, trace.to_str().unwrap_or_default());
    }
    let peer = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::LOCALHOST), |c| c.0.ip());
    let caller = Caller::Client(identity::client_name(
        &parts.headers,
        parts.uri.query(),
        peer,
    ));
    // Named only for the request log, so only when it writes the line.
    let named = match &parsed {
        Ok((action, input)) if tracing::enabled!(tracing::Level::INFO) => Some(Called {
            action,
            queue: queue_of(input),
        }),
        _ => None,
    };
    let answer = match parsed {
        Ok((action, input)) => {
            let region = identity::signing_region(&parts.headers, parts.uri.query());
            let place = (path, region.as_deref());
            engine_call(app, &caller, action, input, place, &base, &protocol)
                .await
                .map(|a| (action, a))
        }
        Err(error) => Err(error),
    };
    let mut response = match answer {
        Ok((action, output)) => match protocol {
            Protocol::Json(_) => {
                let body = serde_json::to_vec(&output).expect("JSON");
                reply(200, json_protocol::CONTENT_TYPE, body, &request_id)
            }
            Protocol::Query => {
                let body = query_protocol::response_body(action, &output, &request_id);
                reply(200, "text/xml", body, &request_id)
            }
        },
        Err(mut error) => {
            error.message = app.addressing.public_message(&error.message, &base);
            protocol.error(&error, &request_id)
        }
    };
    if let Some(named) = named {
        response.extensions_mut().insert(named);
    }
    response
}

/// What the request log names a call by ([`crate::log::CallsLayer`] reads it off the response).
#[derive(Clone, Debug)]
pub struct Called {
    /// The SQS action.
    pub action: &'static str,
    /// The queue, by the last segment of its URL or by its name.
    pub queue: Option<String>,
}

/// The queue a call's input names: the last segment of its QueueUrl, else its QueueName.
fn queue_of(input: &Value) -> Option<String> {
    let url_name = input["QueueUrl"]
        .as_str()
        .and_then(|url| url.rsplit('/').next());
    url_name.or(input["QueueName"].as_str()).map(str::to_owned)
}

/// Runs one action: its members rewritten for the engine, the engine's answer (now, or when a
/// long poll ends) rewritten for the client.
async fn engine_call(
    app: &App,
    caller: &Caller,
    action: &str,
    mut input: Value,
    (path, region): (&str, Option<&str>),
    base: &str,
    protocol: &Protocol,
) -> Result<Value, WireError> {
    let path_url = queue_path(path).then(|| format!("{base}{path}"));
    let namespace = app.addressing.inbound(&mut input, path_url, region);
    let type_error = match protocol {
        Protocol::Json(_) => WireError::serialization,
        Protocol::Query => WireError::invalid_parameter,
    };
    let request = EngineRequest::from_input(action, input)
        .map_err(|e| WireError::from_input(&e, type_error))?;
    let outcome = app
        .shared
        .with(|state| state.call_in(caller, &namespace, request));
    let response = outcome.answer().await??;
    let mut output = response.to_json();
    app.addressing.outbound(&mut output, base);
    Ok(output)
}

/// The `X-Amzn-Trace-Id` header of a SendMessage, as its `AWSTraceHeader` system attribute (as
/// SQS does for a call traced by X-Ray), unless the call gives that attribute itself.
fn trace_header(input: &mut Value, trace: &str) {
    let Value::Object(members) = input else {
        return;
    };
    let system = members
        .entry("MessageSystemAttributes")
        .or_insert_with(|| Value::Object(Default::default()));
    if let Value::Object(system) = system {
        system
            .entry("AWSTraceHeader")
            .or_insert_with(|| serde_json::json!({"DataType": "String", "StringValue": trace}));
    }
}

/// A response with the request id header every SQS answer carries.
fn reply(status: u16, content_type: &str, body: Vec<u8>, request_id: &str) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
    let mut response = (status, Body::from(body)).into_response();
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_str(content_type).expect("a content type"),
    );
    if let Ok(id) = HeaderValue::from_str(request_id) {
        headers.insert("x-amzn-RequestId", id);
    }
    response
}
