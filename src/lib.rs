//! SQS Playground: the Yew single-page app. A thin view over `sqs-sim` and `sqs-engine`: it owns
//! speed and rendering, sends commands and draws state and events; no SQS rule lives here.
//!
//! For now the page shows the first vertical slice ([`slice`]): one queue whose messages'
//! visibility countdown ticks live, driven by the engine.

pub mod panic_box;
pub mod share;
pub mod slice;

use yew::prelude::*;

/// The root component.
#[component]
pub fn App() -> Html {
    html! {
        <main class="app">
            <header class="app-header">
                <h1>{ "SQS Playground" }</h1>
                <p>{ "A visual, in-browser simulator of Amazon SQS." }</p>
            </header>
            <slice::VisibilitySlice />
        </main>
    }
}

/// Mounts the app on the page's body, after installing the panic hook (a panic shows a visible
/// error box instead of leaving a dead page).
///
/// Opening the page with `#debug-panic` panics right after mounting, to test that hook.
pub fn start() {
    panic_box::install();
    yew::Renderer::<App>::new().render();
    let hash = web_sys::window().and_then(|w| w.location().hash().ok());
    if hash.as_deref() == Some(panic_box::DEBUG_PANIC_HASH) {
        panic!("debug panic requested with {}", panic_box::DEBUG_PANIC_HASH);
    }
}
