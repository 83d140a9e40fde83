//! SQS Playground: the Yew single-page app. A thin view over `sqs-sim` and `sqs-engine`: it owns
//! speed and rendering, sends commands and draws state and events; no SQS rule lives here.
//!
//! The page is the [`playground`]: the queue, its worker lanes, the dead-letter queue, the clock
//! and the scenario library; or, when its address asks for one, a [`compare`]ison of two copies
//! of a scenario; or, in the bundle `sqs-sim serve` serves (the `live` feature), the live view of
//! that server (`live`). The player that docs pages and static hosts ship goes without it.

pub mod compare;
#[cfg(feature = "live")]
pub mod live;
pub mod panic_box;
pub mod playground;
pub mod share;

/// Talc instead of the standard library's dlmalloc in the browser: faster allocation (the
/// simulated day allocates and frees millions of times).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// Mounts the playground or a comparison (opened on what the page's URL asks for; a comparison it
/// cannot open is said by the playground) on the page's body in place of
/// index.html's loading frame, after installing the panic hook (a panic shows a visible error
/// box instead of leaving a dead page).
///
/// Opening the page with `#debug-panic` panics right after mounting, to test that hook.
pub fn start() {
    panic_box::install();
    let mut link = playground::link::Link::of_page();
    // The library scenario the link names comes first: the loading frame shows meanwhile.
    wasm_bindgen_futures::spawn_local(async move {
        playground::scenarios::fetch_for(&mut link).await;
        mount(link);
    });
}

/// Mounts the page on what `link` asks for (see [`start`]).
fn mount(mut link: playground::link::Link) {
    if let Some(problem) = compare::unavailable(&link) {
        link.options.compare = None;
        link.warnings.push(problem);
    }
    if link.options.compare.is_some() {
        let props = compare::ComparisonProps { link, live: true };
        yew::Renderer::<compare::Comparison>::with_props(props).render();
    } else {
        let props = playground::PlaygroundProps {
            link: Some(link),
            live: true,
        };
        yew::Renderer::<playground::Playground>::with_props(props).render();
    }
    let document = web_sys::window().and_then(|w| w.document());
    if let Some(boot) = document.as_ref().and_then(|d| d.get_element_by_id("boot")) {
        boot.remove();
    }
    let hash = web_sys::window().and_then(|w| w.location().hash().ok());
    if hash.as_deref() == Some(panic_box::DEBUG_PANIC_HASH) {
        panic!("debug panic requested with {}", panic_box::DEBUG_PANIC_HASH);
    }
}
