//! Panics must not leave a blank or frozen page: the hook installed by [`install`] logs the panic
//! to the console and shows it in a fixed box (`#panic-box`) on top of the page. It writes to the
//! DOM directly (not through Yew), since the app's state may be broken by then.

use wasm_bindgen::JsValue;

/// The URL fragment that makes [`crate::start`] panic on purpose (used by the e2e tests).
pub const DEBUG_PANIC_HASH: &str = "#debug-panic";

/// The id of the error box.
pub const PANIC_BOX_ID: &str = "panic-box";

/// Installs the panic hook (browser only). It goes through Yew, which otherwise replaces any
/// hook with its own (console only) when the app is first rendered.
pub fn install() {
    yew::set_custom_panic_hook(Box::new(|info| show(&info.to_string())));
}

/// Logs `message` with `console.error` and shows it in the page's error box, creating the box if
/// needed. Does nothing more if there is no document.
pub fn show(message: &str) {
    web_sys::console::error_1(&JsValue::from_str(&format!(
        "SQS Playground crashed: {message}"
    )));
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let panel = match document.get_element_by_id(PANIC_BOX_ID) {
        Some(panel) => panel,
        None => {
            let Ok(panel) = document.create_element("div") else {
                return;
            };
            panel.set_id(PANIC_BOX_ID);
            let _ = panel.set_attribute("role", "alert");
            let parent = document
                .body()
                .map(web_sys::Element::from)
                .or_else(|| document.document_element());
            if let Some(parent) = parent {
                let _ = parent.append_child(&panel);
            }
            panel
        }
    };
    panel.set_text_content(None);
    if let Ok(title) = document.create_element("strong") {
        title.set_text_content(Some(
            "SQS Playground stopped because of an internal error. Reload the page to start again.",
        ));
        let _ = panel.append_child(&title);
    }
    if let Ok(detail) = document.create_element("div") {
        detail.set_class_name("panic-message");
        detail.set_text_content(Some(message));
        let _ = panel.append_child(&detail);
    }
}
