//! Browser tests: components mounted in headless Chromium (`./check wasm`).
#![cfg(target_arch = "wasm32")]

mod support;

use sqs_playground::slice::{VisibilitySlice, VisibilitySliceProps};
use sqs_playground::App;
use std::time::Duration;
use support::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn slice_send_receive_skip_updates_the_dom() {
    // A frozen clock: only the Skip button moves time.
    let ui = mount::<VisibilitySlice>(VisibilitySliceProps { live: false }).await;
    assert_eq!(ui.text("#messages .empty"), "The queue is empty.");
    assert_eq!(ui.text("#clock"), "t = 0.0 s");

    ui.click("#send").await;
    assert_eq!(ui.text("li.message .body"), "message 1");
    assert_eq!(
        ui.attr("li.message", "data-state").as_deref(),
        Some("visible")
    );

    ui.click("#receive").await;
    assert_eq!(
        ui.attr("li.message", "data-state").as_deref(),
        Some("inflight")
    );
    assert_eq!(ui.text("li.message .state"), "in flight · 3.0 s");
    assert_eq!(ui.text("li.message .receives"), "received 1×");

    ui.click("#skip").await;
    assert_eq!(ui.text("#clock"), "t = 3.0 s");
    assert_eq!(
        ui.attr("li.message", "data-state").as_deref(),
        Some("visible")
    );
    assert!(
        !ui.exists("#last-action.error"),
        "{}",
        ui.text("#last-action")
    );
}

#[wasm_bindgen_test]
async fn app_clock_follows_real_time() {
    let ui = mount::<App>(()).await;
    assert_eq!(ui.text("h1"), "SQS Playground");
    let before = ui.text("#clock");
    yew::platform::time::sleep(Duration::from_millis(350)).await;
    assert_ne!(ui.text("#clock"), before);
}

#[wasm_bindgen_test]
fn panic_box_shows_the_message() {
    sqs_playground::panic_box::show("something broke");
    let document = web_sys::window().unwrap().document().unwrap();
    let panel = document
        .get_element_by_id(sqs_playground::panic_box::PANIC_BOX_ID)
        .expect("no #panic-box");
    let text = panel.text_content().unwrap();
    assert!(text.contains("internal error"), "{text}");
    assert!(text.contains("something broke"), "{text}");
    panel.remove();
}
