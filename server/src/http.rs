//! The HTTP side: accepts connections on loopback, tells the protocol of each request, turns it
//! into an engine request, and writes the engine's answer back in that protocol.

use crate::addressing::Addressing;
use crate::declared::Declared;
use crate::journal::Caller;
use crate::live::{self, EventStream};
use crate::state::{Outcome, Shared};
use crate::ui::Ui;
use crate::wire::WireError;
use crate::{control, identity, json_protocol, query_protocol};
use bytes::Bytes;
use http_body_util::{BodyExt, Either, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_TYPE, HOST};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request as HttpRequest, Response as HttpResponse, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use sqs_engine::api::ToJson;
use sqs_engine::{Request, Response};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::net::TcpListener;

/// The largest request body accepted: a 1 MiB message (SQS's limit) escaped as JSON or
/// percent-encoded as a form can be several times longer.
pub const MAX_BODY: usize = 8 << 20;

/// What `sqs-sim serve` is started with.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on (loopback by default).
    pub host: String,
    /// The port (0: any free one).
    pub port: u16,
    /// The account queues belong to.
    pub account_id: String,
    /// The region in queue ARNs.
    pub region: String,
    /// Virtual seconds per wall second.
    pub speed: f64,
    /// The playground's files, for the live view at `/`.
    pub ui: Ui,
    /// The engine's seed (`None`: drawn from the clock).
    pub seed: Option<u64>,
    /// The queues to create before listening.
    pub queues: Declared,
    /// Origins browsers may call from besides the server's own and local ones (`*`: any).
    pub cors_origins: Vec<String>,
    /// `Host` names served besides loopback ones while bound to loopback.
    pub allowed_hosts: Vec<String>,
}

impl Default for Config {
    /// `sqs-sim serve`'s defaults.
    fn default() -> Self {
        Config {
            host: "127.0.0.1".into(),
            port: 9324,
            account_id: "000000000000".into(),
            region: "us-east-1".into(),
            speed: 1.0,
            ui: Ui::default(),
            seed: None,
            queues: Declared::default(),
            cors_origins: Vec::new(),
            allowed_hosts: Vec::new(),
        }
    }
}

/// A response: a whole body, or the live view's stream of events.
pub type Body = Either<Full<Bytes>, EventStream>;

/// The server: the shared engine and how it names queues.
pub struct Server {
    shared: Arc<Shared>,
    addressing: Addressing,
    ui: Ui,
    requests: AtomicU64,
    /// Request ids: random, or drawn from the seed when one is given.
    seed: Option<u64>,
    started: std::time::Instant,
}

/// Listens on the configured address; `ready` is told the bound address once it is.
pub async fn serve(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let seed = config.seed.unwrap_or_else(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        nanos & crate::MAX_SEED
    });
    let shared = Arc::new(Shared::new(seed, config.speed));
    if !config.queues.is_empty() {
        shared.with(|state| state.declare(&config.queues))?;
    }
    let listener = TcpListener::bind((config.host.as_str(), config.port))
        .await
        .map_err(|e| format!("{}:{}: {e}", config.host, config.port))?;
    let server = Arc::new(Server {
        shared,
        addressing: Addressing::new(&config.account_id, &config.region),
        ui: config.ui,
        requests: AtomicU64::new(0),
        seed: config.seed,
        started: std::time::Instant::now(),
    });
    ready(listener.local_addr().map_err(|e| e.to_string())?);
    let clock = server.clone();
    tokio::spawn(async move { clock.shared.drive_clock().await });
    loop {
        let Ok((stream, peer)) = listener.accept().await else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        let server = server.clone();
        tokio::spawn(async move {
            let service = service_fn(move |request| {
                let server = server.clone();
                async move {
                    let response = server.handle(request, peer.ip()).await;
                    Ok::<_, std::convert::Infallible>(response)
                }
            });
            // A connection that breaks off is the client's business.
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// Which wire protocol a request speaks.
enum Protocol {
    /// AWS JSON 1.0, with its `X-Amz-Target`.
    Json(String),
    /// The query protocol.
    Query,
}

impl Server {
    async fn handle(&self, request: HttpRequest<Incoming>, peer: IpAddr) -> HttpResponse<Body> {
        let (parts, body) = request.into_parts();
        let path = parts.uri.path().to_string();
        let protocol = match parts.headers.get("x-amz-target") {
            Some(target) => Protocol::Json(String::from_utf8_lossy(target.as_bytes()).into()),
            None => Protocol::Query,
        };
        let get = parts.method == Method::GET || parts.method == Method::HEAD;
        // A GET that names no SQS action may be the playground's (a query protocol GET has one).
        let query = parts.uri.query();
        let action = query.is_some_and(|q| {
            form_urlencoded::parse(q.as_bytes()).any(|(name, _)| name == "Action")
        });
        if get && matches!(protocol, Protocol::Query) && !action {
            let accepts = parts
                .headers
                .get(ACCEPT_ENCODING)
                .and_then(|h| h.to_str().ok());
            let gzip = accepts.is_some_and(|a| a.contains("gzip"));
            if let Some(file) = self.ui.answer(&path, query.is_some(), gzip) {
                return file.map(Either::Left);
            }
            if path == "/health" {
                let body = serde_json::to_vec(&control::health(&self.shared, self.started));
                let body = body.expect("JSON");
                return reply(200, "application/json", body, &self.request_id()).map(Either::Left);
            }
            if path == "/_sqs-sim/events" {
                return self.events(&parts.headers);
            }
        }
        self.handle_sqs(parts, body, protocol, peer)
            .await
            .map(Either::Left)
    }

    /// The live view's stream of events, resumed where the page's `Last-Event-ID` left off.
    fn events(&self, headers: &hyper::HeaderMap) -> HttpResponse<Body> {
        let last = headers.get("last-event-id").and_then(|h| h.to_str().ok());
        let stream = live::open(self.shared.clone(), live::resume_point(last));
        let mut response = HttpResponse::new(Either::Right(stream));
        let headers = response.headers_mut();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        response
    }

    /// An SQS request (either protocol), or a control request.
    async fn handle_sqs(
        &self,
        parts: hyper::http::request::Parts,
        body: Incoming,
        protocol: Protocol,
        peer: IpAddr,
    ) -> HttpResponse<Full<Bytes>> {
        let request_id = self.request_id();
        let host = parts.headers.get(HOST).and_then(|h| h.to_str().ok());
        let base = format!("http://{}", host.unwrap_or("127.0.0.1"));
        let path = parts.uri.path().to_string();
        let body = match Limited::new(body, MAX_BODY).collect().await {
            Ok(body) => body.to_bytes(),
            Err(_) => return self.error(&protocol, &WireError::too_large(MAX_BODY), &request_id),
        };
        if parts.method == Method::POST && path == "/_sqs-sim/call" {
            let (status, answer) = live::page_call(&self.shared, &body).await;
            let body = serde_json::to_vec(&answer).expect("JSON");
            return reply(status, "application/json", body, &request_id);
        }
        if path.starts_with("/_sqs-sim/") {
            let method = parts.method.as_str();
            let (status, answer) =
                control::handle(&self.shared, method, &path, &body, &base, &self.addressing);
            let body = serde_json::to_vec_pretty(&answer).expect("JSON");
            return reply(status, "application/json", body, &request_id);
        }
        let parsed = match &protocol {
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
        let caller = Caller::Client(identity::client_name(
            &parts.headers,
            parts.uri.query(),
            peer,
        ));
        let answer = match parsed {
            Ok((action, input)) => self
                .call(&caller, action, input, &path, &base, &protocol)
                .await
                .map(|a| (action, a)),
            Err(error) => Err(error),
        };
        match answer {
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
                error.message = self.addressing.public_message(&error.message, &base);
                self.error(&protocol, &error, &request_id)
            }
        }
    }

    /// Runs one action: its members rewritten for the engine, the engine's answer (now, or when
    /// a long poll ends) rewritten for the client.
    async fn call(
        &self,
        caller: &Caller,
        action: &str,
        mut input: Value,
        path: &str,
        base: &str,
        protocol: &Protocol,
    ) -> Result<Value, WireError> {
        let segments = path
            .trim_matches('/')
            .split('/')
            .filter(|s| !s.is_empty())
            .count();
        let path_url = (segments == 2).then(|| format!("{base}{path}"));
        self.addressing.inbound(&mut input, path_url);
        let type_error = match protocol {
            Protocol::Json(_) => WireError::serialization,
            Protocol::Query => WireError::invalid_parameter,
        };
        let request = Request::from_input(action, input)
            .map_err(|e| WireError::from_input(&e, type_error))?;
        let response = match self.shared.with(|state| state.call(caller, request)) {
            Outcome::Done(result) => result?,
            // A reset while waiting answers with no messages.
            Outcome::Waiting(answer) => Response::ReceiveMessage(answer.await.unwrap_or_default()),
        };
        let mut output = response.to_json();
        self.addressing.outbound(&mut output, base);
        Ok(output)
    }

    fn error(
        &self,
        protocol: &Protocol,
        error: &WireError,
        request_id: &str,
    ) -> HttpResponse<Full<Bytes>> {
        match protocol {
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

    /// A fresh request id, shaped as AWS's (a UUID): random, or with a seed the same in every
    /// run.
    fn request_id(&self) -> String {
        let n = self.requests.fetch_add(1, Ordering::Relaxed);
        let id = match self.seed {
            None => uuid::Uuid::new_v4(),
            Some(seed) => {
                let bytes = [splitmix(seed ^ n), splitmix(!seed ^ n)];
                let bytes: Vec<u8> = bytes.iter().flat_map(|b| b.to_le_bytes()).collect();
                uuid::Builder::from_random_bytes(bytes.try_into().expect("16 bytes")).into_uuid()
            }
        };
        id.to_string()
    }
}

/// A response with the request id header every SQS answer carries.
fn reply(
    status: u16,
    content_type: &str,
    body: Vec<u8>,
    request_id: &str,
) -> HttpResponse<Full<Bytes>> {
    let mut response = HttpResponse::new(Full::new(Bytes::from(body)));
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
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

/// SplitMix64's output function: spreads a counter's bits.
fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
