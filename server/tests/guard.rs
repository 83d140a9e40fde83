//! The browser boundary of `sqs-sim serve`, through its service (the `Router` and its layers):
//! what a web page the developer visits could send is refused before it changes anything, while
//! the live view (same origin), local development pages (CORS) and SDKs (no `Origin`) are served.

use axum::body::Body;
use axum::http::{Request, Response};
use serde_json::{json, Value};
use sqs_server::serve::{service, App};
use sqs_server::Config;
use std::sync::Arc;
use tower::ServiceExt;

/// An answer: status, headers and body text.
struct Answer {
    status: u16,
    response: Response<Body>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.response
            .headers()
            .get(name)
            .and_then(|h| h.to_str().ok())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

/// The response to a request to `path` on host `127.0.0.1:9324`, with `headers` (`Host` among
/// them replaces it).
async fn respond(
    app: &Arc<App>,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Response<Body> {
    let mut request = Request::builder().method(method).uri(path);
    if !headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("host"))
    {
        request = request.header("host", "127.0.0.1:9324");
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request.body(Body::from(body.to_string())).unwrap();
    service(app.clone()).oneshot(request).await.unwrap()
}

/// A JSON-protocol call of `action`, with `headers` besides its own.
async fn sqs(app: &Arc<App>, action: &str, headers: &[(&str, &str)], input: &str) -> Answer {
    let target = format!("AmazonSQS.{action}");
    let mut all = vec![("x-amz-target", target.as_str()), JSON_SQS];
    all.extend_from_slice(headers);
    ask(app, "POST", "/", &all, input).await
}

/// [`respond`], its body read.
async fn ask(
    app: &Arc<App>,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Answer {
    let response = respond(app, method, path, headers, body).await;
    let status = response.status().as_u16();
    let (parts, body) = response.into_parts();
    let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap();
    Answer {
        status,
        response: Response::from_parts(parts, Body::empty()),
        body: String::from_utf8_lossy(&bytes).into(),
    }
}

fn app() -> Arc<App> {
    App::new(&Config::default()).unwrap()
}

/// The queues and the clock, to compare before and after.
async fn state(app: &Arc<App>) -> (Value, Value) {
    let state = ask(app, "GET", "/_sqs-sim/state", &[], "").await.json();
    (state["queues"].clone(), state["now_ms"].clone())
}

const JSON_SQS: (&str, &str) = ("content-type", "application/x-amz-json-1.0");
const EVIL: (&str, &str) = ("origin", "http://evil.example");

#[tokio::test]
async fn what_a_foreign_page_sends_is_refused_and_changes_nothing() {
    let app = app();
    ask(
        &app,
        "POST",
        "/_sqs-sim/clock",
        &[("content-type", "application/json")],
        r#"{"pause": true}"#,
    )
    .await;
    let before = state(&app).await;

    // A cross-site form POST: no preflight needed, so the browser sends it.
    let form = ask(
        &app,
        "POST",
        "/",
        &[("content-type", "application/x-www-form-urlencoded"), EVIL],
        "Action=CreateQueue&QueueName=pwned&Version=2012-11-05",
    )
    .await;
    assert_eq!(form.status, 403);
    assert!(
        form.body.contains("<Code>AccessDenied</Code>"),
        "{}",
        form.body
    );
    assert!(form.body.contains("http://evil.example"), "{}", form.body);

    // The JSON protocol from a foreign page, as its own protocol's error.
    let json = sqs(&app, "CreateQueue", &[EVIL], r#"{"QueueName": "pwned"}"#).await;
    assert_eq!(
        (json.status, json.header("x-amzn-query-error")),
        (403, Some("AccessDenied;Sender"))
    );

    // A text/plain clock request: refused by its origin, and by its type from any origin.
    let plain = ("content-type", "text/plain");
    let hour = r#"{"advance": 3600}"#;
    for (origin, status, said) in [
        (EVIL, 403, "--cors-origin"),
        (("origin", "http://localhost:3000"), 415, "application/json"),
    ] {
        let clock = ask(&app, "POST", "/_sqs-sim/clock", &[plain, origin], hour).await;
        assert_eq!(clock.status, status, "{origin:?}");
        let error = clock.json()["error"].as_str().unwrap().to_string();
        assert!(error.contains(said), "{error}");
    }
    let reset = ask(&app, "POST", "/_sqs-sim/reset", &[], "").await;
    assert_eq!(reset.status, 415, "no type at all");

    // A DNS-rebinding page: its own name in Host, no Origin on its same-origin requests.
    let rebound = [("host", "evil.example:9324")];
    let read = sqs(&app, "ListQueues", &[rebound[0]], "{}").await;
    assert_eq!(read.status, 403);
    assert!(
        read.body.contains("--allowed-host evil.example"),
        "{}",
        read.body
    );
    let listing = ask(&app, "GET", "/_sqs-sim/queues", &rebound, "").await;
    assert_eq!(listing.status, 403);
    let created = sqs(
        &app,
        "CreateQueue",
        &[rebound[0]],
        r#"{"QueueName": "pwned"}"#,
    )
    .await;
    assert_eq!(created.status, 403);

    assert_eq!(state(&app).await, before, "nothing changed");
}

#[tokio::test]
async fn the_live_view_local_pages_and_sdks_are_served() {
    let app = app();
    // An SDK: no Origin.
    let sdk = sqs(&app, "CreateQueue", &[], r#"{"QueueName": "orders"}"#).await;
    assert_eq!(sdk.status, 200, "{}", sdk.body);
    assert_eq!(
        sdk.json()["QueueUrl"],
        "http://127.0.0.1:9324/000000000000/orders"
    );
    // No CORS headers for it, but word for caches that a browser's answer differs.
    assert_eq!(sdk.header("vary"), Some("origin"));
    assert_eq!(sdk.header("access-control-expose-headers"), None);
    // The live view: its own origin, JSON.
    let own = [
        ("origin", "http://127.0.0.1:9324"),
        ("content-type", "application/json"),
    ];
    let page = ask(
        &app,
        "POST",
        "/_sqs-sim/call",
        &own,
        &json!({"call": "ListQueues", "input": {}}).to_string(),
    )
    .await;
    assert_eq!(page.status, 200, "{}", page.body);
    let clock = ask(&app, "POST", "/_sqs-sim/clock", &own, r#"{"pause": true}"#).await;
    assert_eq!(
        (clock.status, clock.json()["paused"].clone()),
        (200, json!(true))
    );
    let events = respond(&app, "GET", "/_sqs-sim/events", &[], "").await;
    assert_eq!(events.status(), 200);
    assert_eq!(events.headers()["content-type"], "text/event-stream");
    // A name given with --allowed-host is served.
    let named = App::new(&Config {
        allowed_hosts: vec!["sqs.test".into()],
        ..Config::default()
    })
    .unwrap();
    let health = ask(&named, "GET", "/health", &[("host", "sqs.test:9324")], "").await;
    assert_eq!(health.status, 200);
}

#[tokio::test]
async fn a_browser_sdks_preflight_is_answered_for_local_origins_only() {
    let app = app();
    // As @aws-sdk/client-sqs in a page on a dev server sends it.
    let preflight = [
        ("origin", "http://localhost:5173"),
        ("access-control-request-method", "POST"),
        (
            "access-control-request-headers",
            "amz-sdk-invocation-id,amz-sdk-request,authorization,content-type,x-amz-content-sha256,x-amz-date,x-amz-target,x-amz-user-agent",
        ),
    ];
    let answer = ask(&app, "OPTIONS", "/", &preflight, "").await;
    assert_eq!(answer.status, 200);
    assert_eq!(
        answer.header("access-control-allow-origin"),
        Some("http://localhost:5173")
    );
    assert!(answer
        .header("access-control-allow-methods")
        .unwrap()
        .contains("POST"));
    let allowed = answer
        .header("access-control-allow-headers")
        .unwrap()
        .to_ascii_lowercase();
    for header in [
        "x-amz-target",
        "authorization",
        "amz-sdk-invocation-id",
        "content-type",
    ] {
        assert!(allowed.contains(header), "{header} not in {allowed}");
    }
    // The call itself: the origin allowed, the request id readable.
    let call = sqs(&app, "ListQueues", &[preflight[0]], "{}").await;
    assert_eq!(call.status, 200);
    assert_eq!(
        call.header("access-control-allow-origin"),
        Some("http://localhost:5173")
    );
    assert!(call
        .header("access-control-expose-headers")
        .unwrap()
        .contains("x-amzn-requestid"));
    assert!(call.header("vary").unwrap().contains("origin"));
    // A foreign page's preflight is refused; with --cors-origin its origin is allowed.
    let foreign = [EVIL, preflight[1], preflight[2]];
    assert_eq!(ask(&app, "OPTIONS", "/", &foreign, "").await.status, 403);
    let listed = App::new(&Config {
        cors_origins: vec!["http://evil.example".into()],
        ..Config::default()
    })
    .unwrap();
    let answer = ask(&listed, "OPTIONS", "/", &foreign, "").await;
    assert_eq!(
        (answer.status, answer.header("access-control-allow-origin")),
        (200, Some("http://evil.example"))
    );
}
