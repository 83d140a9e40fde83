//! Browser tests: components mounted in headless Chromium (`./check wasm`).
#![cfg(target_arch = "wasm32")]

mod support;

use sqs_playground::playground::{Playground, PlaygroundProps};
use sqs_playground::share::permalink;
use sqs_playground::share::session::{ScenarioSource, Session};
use support::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn the_page_renders_the_playground() {
    let ui = mount::<Playground>(PlaygroundProps::default()).await;
    until("the clock shows", || ui.exists(".clock-wall")).await;
    assert_eq!(ui.text("h1"), "SQS Playground");
    assert!(ui.exists("section[aria-label='Queue']"));
    assert_eq!(ui.text(".clock-wall"), "12:00:00");
}

#[wasm_bindgen_test]
async fn a_link_compressed_by_the_browser_reads_back() {
    let scenario = sqs_sim::scenario::find("heartbeat").unwrap();
    let mut world = sqs_sim::World::load(&scenario).unwrap();
    world.advance_to(200_000);
    let session = Session {
        scenario: ScenarioSource::Inline(scenario),
        // The whole log: many steps of both kinds for the link to carry.
        actions: world.log().to_vec(),
        playhead: world.now(),
        speed: 3.0,
        lesson: false,
    };
    let value = permalink::encode(&session).await.unwrap();
    let json = permalink::session_json(&session);
    assert!(value.len() < json.len() / 2, "not compressed: {value}");
    assert_eq!(permalink::decode(&value), Ok(session));
}
