//! The browser boundary. The endpoint is unauthenticated by design, so what stops a web page the
//! developer visits from driving it is the browser, and this layer:
//!
//! * **Origin**: a request that carries an `Origin` not on the allowed list is refused (403, in
//!   the request's protocol) before it reaches anything else. SDKs and the CLI send no `Origin`;
//!   browsers send one on every cross-origin write, including the form POSTs and `text/plain`
//!   requests that need no CORS preflight. Allowed: the server's own origin (the live view),
//!   local development origins (`http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*`,
//!   and their `https` forms) and those given with `--cors-origin` (`*`: every origin).
//! * **Host**: while bound to loopback, only loopback names (`localhost`, `127.0.0.0/8`, `::1`)
//!   and names given with `--allowed-host` are served, so a page whose name a DNS-rebinding
//!   attack points at 127.0.0.1 is not answered.
//!
//! CORS preflights from allowed origins are answered by tower-http's `CorsLayer` ([`cors()`]),
//! inside this layer and only for requests that carry an `Origin` (an SDK's call skips it).

use crate::serve::App;
use crate::sqs::Protocol;
use crate::wire::WireError;
use axum::extract::Request;
use axum::http::header::{CONTENT_TYPE, HOST, ORIGIN, VARY};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::future::{Either, MapOk, TryFutureExt};
use serde_json::json;
use std::convert::Infallible;
use std::future::{ready, Ready};
use std::net::IpAddr;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tower::{Layer, Service};
use tower_http::cors::{self, AllowHeaders, AllowOrigin, CorsLayer};

/// Who may call: the origins browsers may call from and the `Host` names served.
#[derive(Clone, Debug)]
pub struct Guard {
    /// `*` was given: every origin.
    any_origin: bool,
    /// Origins given with `--cors-origin` (no trailing slash).
    origins: Vec<String>,
    /// `None`: every name (bound to a non-loopback address); else the names served besides
    /// loopback ones.
    hosts: Option<Vec<String>>,
}

impl Guard {
    /// The guard of a server bound to `host`, with the `--cors-origin` and `--allowed-host`
    /// values.
    pub fn new(host: &str, origins: &[String], hosts: &[String]) -> Guard {
        let any_origin = origins.iter().any(|o| o == "*");
        if any_origin {
            tracing::warn!(
                "--cors-origin '*': every web page this browser opens may drive this server"
            );
        }
        let bound_to_loopback = host == "localhost"
            || host
                .trim_matches(['[', ']'])
                .parse::<IpAddr>()
                .is_ok_and(|ip| ip.is_loopback());
        Guard {
            any_origin,
            origins: origins
                .iter()
                .filter(|o| *o != "*")
                .map(|o| o.trim_end_matches('/').to_ascii_lowercase())
                .collect(),
            hosts: bound_to_loopback
                .then(|| hosts.iter().map(|h| h.to_ascii_lowercase()).collect()),
        }
    }

    /// Why a request with these headers is refused, if it is.
    fn refusal(&self, headers: &HeaderMap) -> Option<String> {
        let host = headers.get(HOST).and_then(|h| h.to_str().ok());
        if let (Some(allowed), Some(host)) = (&self.hosts, host) {
            let name = host_name(host);
            if !is_loopback_name(name) && !allowed.iter().any(|a| a.eq_ignore_ascii_case(name)) {
                let name = name.to_ascii_lowercase();
                return Some(format!(
                    "Host {host} is not served: this server is bound to loopback and answers only \
                     loopback names (localhost, 127.0.0.1, [::1]), against DNS rebinding; start it \
                     with --allowed-host {name} to serve that name."
                ));
            }
        }
        let origin = headers.get(ORIGIN)?;
        let origin = origin.to_str().unwrap_or("(not text)");
        let own = host.is_some_and(|host| origin.eq_ignore_ascii_case(&format!("http://{host}")));
        if self.any_origin || own || self.origin_listed(origin) {
            return None;
        }
        Some(format!(
            "Origin {origin} is not allowed: this server answers browsers only from its own \
             origin and local development origins (http://localhost:*, http://127.0.0.1:*, \
             http://[::1]:*); start it with --cors-origin {origin} to allow that one."
        ))
    }

    fn origin_listed(&self, origin: &str) -> bool {
        let origin = origin.trim_end_matches('/').to_ascii_lowercase();
        let local = ["http://", "https://"].iter().any(|scheme| {
            origin
                .strip_prefix(scheme)
                .is_some_and(|host| is_loopback_name(host_name(host)))
        });
        local || self.origins.contains(&origin)
    }
}

/// The name in a `Host` value (or an origin's host part): without its port; an IPv6 address in
/// its brackets.
fn host_name(host: &str) -> &str {
    match host.find(']') {
        Some(end) => &host[..=end],
        None => host.split(':').next().unwrap_or_default(),
    }
}

/// `localhost` (and names under it), an address in 127.0.0.0/8, or `[::1]`, in any case.
fn is_loopback_name(name: &str) -> bool {
    let under_localhost = name.len() > ".localhost".len()
        && name.as_bytes()[name.len() - ".localhost".len()..].eq_ignore_ascii_case(b".localhost");
    name.eq_ignore_ascii_case("localhost")
        || under_localhost
        || name
            .trim_matches(['[', ']'])
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The guard as a tower layer around the whole service ([`crate::serve::service`]), with CORS
/// ([`cors()`]) inside it for the requests that carry an `Origin`.
#[derive(Clone)]
pub struct GuardLayer {
    app: Arc<App>,
    cors: Arc<CorsLayer>,
}

impl GuardLayer {
    /// The layer of `app`'s guard.
    pub fn new(app: Arc<App>) -> GuardLayer {
        GuardLayer {
            app,
            cors: Arc::new(cors()),
        }
    }
}

impl<S> Layer<S> for GuardLayer {
    type Service = Guarded<S>;

    fn layer(&self, inner: S) -> Guarded<S> {
        Guarded {
            app: self.app.clone(),
            cors: self.cors.clone(),
            inner,
        }
    }
}

/// A service behind the guard: what the guard refuses is answered here; a browser's request
/// (one with an `Origin`) passes through CORS, which answers preflights and adds its headers;
/// any other request (an SDK's) goes straight on, its answer marked `Vary: Origin` so that a
/// cache does not hand it to a browser.
#[derive(Clone)]
pub struct Guarded<S> {
    app: Arc<App>,
    cors: Arc<CorsLayer>,
    inner: S,
}

/// The answer of a [`Guarded`] request: the guard's refusal, CORS's, or the service's.
type GuardedFuture<F> = Either<
    Ready<Result<Response, Infallible>>,
    Either<cors::ResponseFuture<F>, MapOk<F, fn(Response) -> Response>>,
>;

impl<S> Service<Request> for Guarded<S>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone,
{
    type Response = Response;
    type Error = Infallible;
    type Future = GuardedFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        if let Some(why) = self.app.guard.refusal(request.headers()) {
            tracing::warn!(
                "refused {} {}: {why}",
                request.method(),
                request.uri().path()
            );
            return Either::Left(ready(Ok(refuse(&self.app, &request, why))));
        }
        if request.headers().contains_key(ORIGIN) {
            // The service made ready is the one that takes the request (tower's usual swap).
            let fresh = self.inner.clone();
            let ready = std::mem::replace(&mut self.inner, fresh);
            return Either::Right(Either::Left(self.cors.layer(ready).call(request)));
        }
        let vary: fn(Response) -> Response = vary_origin;
        Either::Right(Either::Right(self.inner.call(request).map_ok(vary)))
    }
}

/// `response` marked as depending on the request's `Origin`, as every answer is: a browser's
/// carries CORS's headers, another's does not.
fn vary_origin(mut response: Response) -> Response {
    response
        .headers_mut()
        .append(VARY, HeaderValue::from_static("origin"));
    response
}

/// A 403 in the request's protocol: the JSON protocol's or the query protocol's error for an SQS
/// call, the control API's `{"error": ...}` for anything else.
fn refuse(app: &App, request: &Request, why: String) -> Response {
    let headers = request.headers();
    let form = headers
        .get(CONTENT_TYPE)
        .and_then(|c| c.to_str().ok())
        .is_some_and(|c| c.starts_with("application/x-www-form-urlencoded"));
    let query_call = form
        || request.uri().query().is_some_and(|q| {
            form_urlencoded::parse(q.as_bytes()).any(|(name, _)| name == "Action")
        });
    let protocol = Protocol::of(headers);
    if matches!(protocol, Protocol::Json(_)) || query_call {
        let error = WireError {
            shape: "com.amazon.coral.service#AccessDeniedException".into(),
            code: "AccessDenied".into(),
            status: 403,
            message: why,
        };
        return protocol.error(&error, &app.request_id());
    }
    (StatusCode::FORBIDDEN, axum::Json(json!({"error": why}))).into_response()
}

/// The CORS answers for the origins the guard lets through (any other never reaches it): the
/// request's origin mirrored, the headers an SDK asks to send allowed, and the ones it reads
/// exposed.
pub fn cors() -> CorsLayer {
    CorsLayer::new()
        .allow_origin(AllowOrigin::mirror_request())
        .allow_methods([Method::GET, Method::POST])
        .allow_headers(AllowHeaders::mirror_request())
        .allow_private_network(true)
        .expose_headers([
            HeaderName::from_static("x-amzn-requestid"),
            HeaderName::from_static("x-amzn-query-error"),
            HeaderName::from_static("date"),
        ])
        .max_age(Duration::from_secs(600))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn refused(guard: &Guard, host: &str, origin: Option<&str>) -> bool {
        let mut headers = HeaderMap::new();
        headers.insert(HOST, HeaderValue::from_str(host).unwrap());
        if let Some(origin) = origin {
            headers.insert(ORIGIN, HeaderValue::from_str(origin).unwrap());
        }
        guard.refusal(&headers).is_some()
    }

    #[test]
    fn origins_and_hosts_are_judged_by_the_lists() {
        let guard = Guard::new("127.0.0.1", &[], &["sqs.test".into()]);
        for (host, origin) in [
            ("127.0.0.1:9324", None),
            ("localhost:9324", Some("http://localhost:3000")),
            ("127.0.0.1:9324", Some("http://127.0.0.1:9324")),
            ("[::1]:9324", Some("http://[::1]:8080")),
            ("127.0.0.2", Some("https://localhost")),
            ("sqs.test:9324", Some("http://sqs.test:9324")),
        ] {
            assert!(!refused(&guard, host, origin), "{host} {origin:?}");
        }
        for (host, origin) in [
            ("evil.example", None),
            ("127.0.0.1:9324", Some("http://evil.example")),
            ("127.0.0.1:9324", Some("null")),
            ("127.0.0.1:9324", Some("http://localhost.evil.example")),
            ("127.0.0.1.nip.io", None),
        ] {
            assert!(refused(&guard, host, origin), "{host} {origin:?}");
        }
        let open = Guard::new("0.0.0.0", &["https://app.example/".into()], &[]);
        assert!(!refused(&open, "sqs:9324", Some("http://sqs:9324")));
        assert!(!refused(&open, "sqs:9324", Some("https://app.example")));
        assert!(refused(&open, "sqs:9324", Some("https://other.example")));
        let any = Guard::new("127.0.0.1", &["*".into()], &[]);
        assert!(!refused(&any, "localhost", Some("https://other.example")));
        assert!(
            refused(&any, "evil.example", None),
            "the Host rule still holds"
        );
    }
}
