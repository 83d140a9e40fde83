//! The browser's side of the live view: an `EventSource` on the server's stream (the browser
//! reconnects by itself and sends the last event's id, so the server resumes without a gap),
//! and `fetch` for the page's own requests.

use super::{Outgoing, Signal};
use serde_json::Value;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{EventSource, MessageEvent};
use yew::prelude::*;

/// The events the server's stream names ([`super::Update`]).
const EVENTS: [&str; 3] = ["hello", "steps", "clock"];

/// An open stream and the listeners it calls (dropped, they would be freed under it).
struct Open {
    source: EventSource,
    _listeners: Vec<Closure<dyn FnMut(JsValue)>>,
}

/// The live view's stylesheet: not in index.html, which the player shares.
const STYLE: &str = include_str!("../../styles/live.css");

/// Follows the server's stream while `on` (the page is live); tells `signal` what it hears.
/// The live view's stylesheet goes into the page's head first.
#[hook]
pub fn use_live_stream(on: bool, signal: Callback<Signal>) {
    use_effect_with(on, move |&on| {
        if on {
            add_style();
        }
        let open = on.then(|| connect(signal)).flatten();
        move || {
            if let Some(open) = open {
                open.source.close();
            }
        }
    });
}

fn add_style() {
    let document = web_sys::window().and_then(|w| w.document());
    let Some(document) = document else {
        return;
    };
    if let (Ok(style), Ok(Some(head))) = (
        document.create_element("style"),
        document.query_selector("head"),
    ) {
        style.set_text_content(Some(STYLE));
        let _ = head.append_child(&style);
    }
}

fn connect(signal: Callback<Signal>) -> Option<Open> {
    // Relative: the server serves the page at its root.
    let source = EventSource::new("_sqs-sim/events").ok()?;
    let mut listeners = Vec::new();
    let mut listen = |event: &str, tell: Box<dyn Fn(JsValue) -> Signal>| {
        let signal = signal.clone();
        let listener = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| signal.emit(tell(e)));
        let _ = source.add_event_listener_with_callback(event, listener.as_ref().unchecked_ref());
        listeners.push(listener);
    };
    listen("open", Box::new(|_| Signal::Opened));
    listen("error", Box::new(|_| Signal::Lost));
    for name in EVENTS {
        listen(
            name,
            Box::new(move |e| {
                let data = e
                    .dyn_into::<MessageEvent>()
                    .ok()
                    .and_then(|m| m.data().as_string());
                Signal::Event(name.to_string(), data.unwrap_or_default())
            }),
        );
    }
    Some(Open {
        source,
        _listeners: listeners,
    })
}

/// Sends one of the page's requests; the server's refusal (or its absence) as a sentence.
pub async fn send(outgoing: &Outgoing) -> Result<(), String> {
    let gone =
        |_: JsValue| "The server did not answer: is sqs-sim serve still running?".to_string();
    let (path, body) = outgoing.http();
    let window = web_sys::window().ok_or("No window.")?;
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_body(&JsValue::from_str(&body));
    // The server's control API takes JSON only (a cross-site page cannot send it unasked).
    let headers = js_sys::Object::new();
    js_sys::Reflect::set(&headers, &"Content-Type".into(), &"application/json".into())
        .map_err(|_| "Could not build the request.".to_string())?;
    init.set_headers(&headers);
    let response = JsFuture::from(window.fetch_with_str_and_init(path, &init))
        .await
        .map_err(gone)?;
    let response: web_sys::Response = response.dyn_into().map_err(gone)?;
    if response.ok() {
        return Ok(());
    }
    let text = JsFuture::from(response.text().map_err(gone)?)
        .await
        .map_err(gone)?
        .as_string()
        .unwrap_or_default();
    let answer: Value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    // A refused SQS call: `{"error": {"code", "message"}}`; a refused clock request: `{"error": "..."}`.
    let error = &answer["error"];
    Err(
        match (
            error["code"].as_str(),
            error["message"].as_str(),
            error.as_str(),
        ) {
            (Some(code), Some(message), _) => format!("{code}: {message}"),
            (_, _, Some(message)) => message.to_string(),
            _ => answer.to_string(),
        },
    )
}
