//! SQS Playground: the Yew single-page app. A thin view over `sqs-sim` and `sqs-engine`: it owns
//! speed and rendering, sends commands and draws state and events; no SQS rule lives here.
//!
//! The page is the [`playground`]: the queue, its worker lanes, the dead-letter queue, the clock
//! and the scenario library.

pub mod panic_box;
pub mod playground;
pub mod share;

/// Talc instead of the standard library's dlmalloc in the browser: faster allocation (the
/// simulated day allocates and frees millions of times).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// Mounts the playground (opened on what the page's URL asks for) on the page's body in place of
/// index.html's loading frame, after installing the panic hook (a panic shows a visible error
/// box instead of leaving a dead page).
///
/// Opening the page with `#debug-panic` panics right after mounting, to test that hook.
pub fn start() {
    panic_box::install();
    yew::Renderer::<playground::Playground>::new().render();
    let document = web_sys::window().and_then(|w| w.document());
    if let Some(boot) = document.as_ref().and_then(|d| d.get_element_by_id("boot")) {
        boot.remove();
    }
    let hash = web_sys::window().and_then(|w| w.location().hash().ok());
    if hash.as_deref() == Some(panic_box::DEBUG_PANIC_HASH) {
        panic!("debug panic requested with {}", panic_box::DEBUG_PANIC_HASH);
    }
}
