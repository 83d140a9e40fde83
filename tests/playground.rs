//! Browser tests of the playground (wasm-bindgen-test, headless Chromium): mount it with a
//! frozen clock, act through the DOM as a user would (buttons by their accessible names, keys,
//! form submits), and assert what the DOM says.
#![cfg(target_arch = "wasm32")]

mod support;

use sqs_playground::playground::link::Link;
use sqs_playground::playground::{scenarios, Playground, PlaygroundProps};
use support::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement, KeyboardEvent, KeyboardEventInit};

wasm_bindgen_test_configure!(run_in_browser);

type Ui = Mounted<Playground>;

/// The playground on a scenario, paused, its clock moved only by the test.
async fn open(scenario: &str) -> Ui {
    // A library scenario at hand, as the page has it once fetched (sqs-sim's `library` feature
    // compiles the files into the tests).
    if let Some(file) = sqs_sim::scenario::find(scenario) {
        scenarios::remember(file);
    }
    let link = Link::scenario(scenario);
    let ui = mount::<Playground>(PlaygroundProps {
        live: false,
        link: Some(link),
    })
    .await;
    rest().await;
    ui
}

fn all(scope: &Element, selector: &str) -> Vec<Element> {
    let list = scope.query_selector_all(selector).unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<Element>().ok())
        .collect()
}

/// The element's accessible name as these components give it (aria-label, else its text).
fn name(e: &Element) -> String {
    e.get_attribute("aria-label")
        .unwrap_or_else(|| e.text_content().unwrap_or_default())
        .trim()
        .to_string()
}

/// The region (`section[aria-label]`) with exactly this name.
fn region(ui: &Ui, label: &str) -> Element {
    all(&ui.root, "section[aria-label]")
        .into_iter()
        .find(|s| name(s) == label)
        .unwrap_or_else(|| panic!("no region {label:?}"))
}

/// The button named exactly `label` inside `scope`.
fn button(scope: &Element, label: &str) -> HtmlElement {
    all(scope, "button")
        .into_iter()
        .find(|b| name(b) == label)
        .unwrap_or_else(|| panic!("no button {label:?}"))
        .dyn_into()
        .unwrap()
}

/// Lets the playground finish re-rendering. Yew renders in slices of about 16 ms and yields to
/// the browser between them, and a debug build of the whole stage takes a few slices.
async fn rest() {
    settle().await;
    yew::platform::time::sleep(std::time::Duration::from_millis(150)).await;
}

async fn press(scope: &Element, label: &str) {
    button(scope, label).click();
    rest().await;
}

/// The names of the message items in a region.
fn messages(scope: &Element) -> Vec<String> {
    all(scope, "li.msg").iter().map(name).collect()
}

/// The input whose `<label for>` reads exactly `label`.
fn input(ui: &Ui, label: &str) -> HtmlInputElement {
    let label = all(&ui.root, "label[for]")
        .into_iter()
        .find(|l| l.text_content().unwrap_or_default().trim() == label)
        .unwrap_or_else(|| panic!("no label {label:?}"));
    let id = label.get_attribute("for").unwrap();
    ui.find(&format!("#{id}")).dyn_into().unwrap()
}

/// An event that bubbles (Yew listens at the app's root).
fn bubbling(kind: &str) -> web_sys::Event {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    web_sys::Event::new_with_event_init_dict(kind, &init).unwrap()
}

async fn key(target: &Element, key: &str) {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    let event = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    target.dispatch_event(&event).unwrap();
    rest().await;
}

/// Types `value` into the field and submits its form (as Enter would).
async fn submit(field: &HtmlInputElement, value: &str) {
    field.set_value(value);
    field.dispatch_event(&bubbling("input")).unwrap();
    rest().await;
    let form = field.closest("form").unwrap().unwrap();
    let submit: HtmlElement = form
        .query_selector("button[type=submit]")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    submit.click();
    rest().await;
}

#[wasm_bindgen_test]
async fn the_stage_has_its_named_regions_and_controls() {
    let ui = open("sandbox").await;
    for label in [
        "Queue",
        "Dead-letter queue",
        "Event log",
        "Worker 1",
        "Worker 2",
    ] {
        region(&ui, label);
    }
    for label in ["Send message", "Add worker", "Play", "Pause", "Step"] {
        button(&ui.root, label);
    }
    let lane = region(&ui, "Worker 1");
    button(&lane, "Kill");
    button(&lane, "Restart");
    for label in [
        "Visibility timeout (seconds)",
        "Delay (seconds)",
        "Max receive count",
        "Speed",
    ] {
        input(&ui, label);
    }
    assert_eq!(ui.text(".clock-wall"), "12:00:00");
}

#[wasm_bindgen_test]
async fn sending_then_picking_by_keyboard_puts_the_message_on_a_lane() {
    let ui = open("sandbox").await;
    press(&ui.root, "Send message").await;
    let queue = region(&ui, "Queue");
    assert_eq!(messages(&queue), ["order-1, visible"]);

    key(&all(&queue, "li.msg")[0], "Enter").await;
    press(&region(&ui, "Queue"), "Give to Worker 1").await;
    assert!(messages(&region(&ui, "Queue")).is_empty());
    assert_eq!(
        messages(&region(&ui, "Worker 1")),
        ["order-1, in flight, 30 s left, receive count 1"]
    );
    let log = region(&ui, "Event log").text_content().unwrap();
    assert!(log.contains("ReceiveMessage"), "{log}");
}

#[wasm_bindgen_test]
async fn a_killed_workers_message_comes_back_at_the_next_step() {
    let ui = open("sandbox").await;
    press(&ui.root, "Send message").await;
    key(&all(&region(&ui, "Queue"), "li.msg")[0], "Enter").await;
    press(&region(&ui, "Queue"), "Give to Worker 1").await;
    press(&region(&ui, "Worker 1"), "Kill").await;
    assert_eq!(
        region(&ui, "Worker 1")
            .get_attribute("data-status")
            .as_deref(),
        Some("dead")
    );
    assert_eq!(
        messages(&region(&ui, "Worker 1")).len(),
        1,
        "it keeps counting down"
    );

    press(&ui.root, "Step").await;
    assert_eq!(ui.text(".clock-wall"), "12:00:30");
    assert_eq!(
        messages(&region(&ui, "Queue")),
        ["order-1, visible, receive count 1"]
    );
}

#[wasm_bindgen_test]
async fn an_out_of_range_setting_is_refused_with_sqs_words() {
    let ui = open("sandbox").await;
    let field = input(&ui, "Visibility timeout (seconds)");
    submit(&field, "50000").await;
    assert!(
        field.is_connected(),
        "the field keeps its place (and its focus)"
    );
    let form = field.closest("form").unwrap().unwrap();
    let text = |selector: &str| {
        form.query_selector(selector)
            .unwrap()
            .unwrap()
            .text_content()
            .unwrap()
    };
    assert_eq!(
        text("[role=alert]"),
        "InvalidAttributeValue: Invalid value for the parameter VisibilityTimeout."
    );
    assert_eq!(text(".field-now"), "now 30");
    assert_eq!(field.get_attribute("aria-invalid").as_deref(), Some("true"));

    submit(&field, "45").await;
    assert_eq!(text("[role=alert]"), "");
    assert_eq!(text(".field-now"), "now 45");
}

#[wasm_bindgen_test]
async fn a_blocked_fifo_message_says_why_it_cannot_be_taken() {
    let ui = open("sandbox-fifo").await;
    press(&ui.root, "Send message").await;
    press(&ui.root, "Send message").await;
    key(&all(&region(&ui, "Queue"), "li.msg")[0], "Enter").await;
    press(&region(&ui, "Queue"), "Give to Worker 1").await;
    let waiting = messages(&region(&ui, "Queue"));
    assert_eq!(
        waiting,
        ["order-2, visible, blocked: group g1 has a message in flight"]
    );

    key(&all(&region(&ui, "Queue"), "li.msg")[0], "Enter").await;
    let text = region(&ui, "Queue").text_content().unwrap();
    assert!(text.contains("cannot be taken yet"), "{text}");
    assert!(all(&region(&ui, "Queue"), "button")
        .iter()
        .all(|b| !name(b).starts_with("Give to")));
}

#[wasm_bindgen_test]
async fn a_scenario_scrubbed_to_its_end_shows_its_dead_letter() {
    let ui = open("poison-to-dlq").await;
    let timeline = input(&ui, "Timeline");
    let end = timeline.max();
    timeline.set_value(&end);
    timeline.dispatch_event(&bubbling("change")).unwrap();
    rest().await;
    let dead = messages(&region(&ui, "Dead-letter queue"));
    assert!(!dead.is_empty(), "the poison message is dead-lettered");
    assert!(
        dead.iter().all(|m| m.contains("in dead-letter queue")),
        "{dead:?}"
    );
    let counters = region(&ui, "Counters").text_content().unwrap();
    assert!(counters.contains("Dead-lettered"), "{counters}");
}
