//! Panics must not leave a blank or frozen page. The box that shows them is index.html's
//! `sqsPlaygroundCrashed`; the hook installed by [`install`] gives it the panic's message and
//! source location, in release builds as in debug ones, and the page stays drawn beneath it.

use wasm_bindgen::prelude::wasm_bindgen;

/// The URL fragment that makes [`crate::start`] panic on purpose (used by the e2e tests).
pub const DEBUG_PANIC_HASH: &str = "#debug-panic";

#[wasm_bindgen]
extern "C" {
    /// index.html's: logs `message` with `console.error` and shows it in the page's error box.
    #[wasm_bindgen(js_name = sqsPlaygroundCrashed)]
    fn crashed(message: &str);
}

/// Installs the panic hook (browser only). It goes through Yew, which otherwise replaces any
/// hook with its own (console only) when the app is first rendered.
pub fn install() {
    yew::set_custom_panic_hook(Box::new(|info| crashed(&info.to_string())));
}
