//! The browser side of the embed protocol ([`super::embed`]): posting to the host page and
//! listening for its commands.

use super::embed::HostCommand;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsValue;
use yew::prelude::*;

/// True when the page runs inside a frame (an embedding page is listening).
pub fn framed() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.parent()
                .ok()
                .flatten()
                .map(|p| !js_sys::Object::is(&p, &w))
        })
        .unwrap_or(false)
}

/// Posts a protocol message to the host page, if there is one. Any origin may embed the
/// player, so messages go to `*`; they carry nothing private (the session is in the URL anyway).
pub fn post(message: &serde_json::Value) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if js_sys::Object::is(&parent, &window) {
        return;
    }
    if let Ok(data) = js_sys::JSON::parse(&message.to_string()) {
        let _ = parent.post_message(&data, "*");
    }
}

/// Calls `on_command` for every command a host page posts; posted data that is not for the
/// player is ignored, malformed commands are reported on the console (the host's developer
/// reads it there).
#[hook]
pub fn use_host_commands(on_command: Callback<HostCommand>) {
    use_effect_with((), move |_| {
        let listener =
            Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                let text = js_sys::JSON::stringify(&e.data())
                    .ok()
                    .and_then(|s| s.as_string());
                let Some(data) = text.and_then(|t| serde_json::from_str(&t).ok()) else {
                    return;
                };
                match HostCommand::parse(&data) {
                    Ok(Some(command)) => on_command.emit(command),
                    Ok(None) => {}
                    Err(problem) => web_sys::console::warn_1(&JsValue::from_str(&format!(
                        "SQS Playground: {problem}"
                    ))),
                }
            });
        super::browser::listen("message", listener)
    });
}
