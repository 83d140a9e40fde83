//! Helpers for the browser tests (wasm-bindgen-test, headless Chromium). Use from a test file with
//! `mod support;` and `use support::*;`.
#![allow(dead_code)]

use std::time::Duration;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::{AppHandle, BaseComponent};

/// A component mounted in its own `<div>` appended to `<body>`; unmounted and removed on drop.
pub struct Mounted<C: BaseComponent> {
    /// The element the component renders into.
    pub root: Element,
    handle: Option<AppHandle<C>>,
}

/// Mounts `C` with `props` and lets Yew render it.
pub async fn mount<C: BaseComponent>(props: C::Properties) -> Mounted<C> {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let handle = yew::Renderer::<C>::with_root_and_props(root.clone(), props).render();
    settle().await;
    Mounted {
        root,
        handle: Some(handle),
    }
}

/// Lets Yew process pending updates and re-render.
pub async fn settle() {
    yew::platform::time::sleep(Duration::from_millis(10)).await;
}

/// Waits until `done` holds, checking every few milliseconds; panics naming `what` after
/// [`UNTIL_TIMEOUT`].
pub async fn until(what: &str, mut done: impl FnMut() -> bool) {
    let start = js_sys::Date::now();
    while !done() {
        if js_sys::Date::now() - start > UNTIL_TIMEOUT.as_millis() as f64 {
            panic!("timed out after {UNTIL_TIMEOUT:?} waiting until {what}");
        }
        settle().await;
    }
}

/// How long [`until`] waits.
pub const UNTIL_TIMEOUT: Duration = Duration::from_secs(5);

impl<C: BaseComponent> Mounted<C> {
    /// The first element matching `selector`; panics if none does.
    pub fn find(&self, selector: &str) -> Element {
        self.root
            .query_selector(selector)
            .unwrap()
            .unwrap_or_else(|| panic!("no element matches {selector:?}"))
    }

    /// Whether an element matches `selector`.
    pub fn exists(&self, selector: &str) -> bool {
        self.root.query_selector(selector).unwrap().is_some()
    }

    /// The text of the first element matching `selector`.
    pub fn text(&self, selector: &str) -> String {
        self.find(selector).text_content().unwrap_or_default()
    }

    /// An attribute of the first element matching `selector`.
    pub fn attr(&self, selector: &str, name: &str) -> Option<String> {
        self.find(selector).get_attribute(name)
    }

    /// Clicks the first element matching `selector`, then lets Yew re-render.
    pub async fn click(&self, selector: &str) {
        self.find(selector)
            .dyn_into::<HtmlElement>()
            .expect("not an HTML element")
            .click();
        settle().await;
    }
}

impl<C: BaseComponent> Drop for Mounted<C> {
    fn drop(&mut self) {
        if let Some(handle) = self.handle.take() {
            handle.destroy();
        }
        self.root.remove();
    }
}
