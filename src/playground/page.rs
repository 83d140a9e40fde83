//! The browser page around the playground: its address, the host that served it, its theme,
//! and the host page that frames it.

use super::journal::Journal;
use crate::share::bridge;
use crate::share::embed;
use crate::share::launch::{LaunchOptions, Theme};

/// The page's host and port (`127.0.0.1:9324`): the server a live page follows.
pub fn host() -> String {
    web_sys::window()
        .and_then(|w| w.location().host().ok())
        .unwrap_or_default()
}

/// `theme=light|dark` forces a theme; otherwise the system's preference rules.
pub fn apply_theme(theme: Option<Theme>) {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element());
    if let (Some(root), Some(theme)) = (root, theme) {
        let name = match theme {
            Theme::Light => "light",
            Theme::Dark => "dark",
        };
        let _ = root.set_attribute("data-theme", name);
    }
}

/// Puts the open scenario in the address bar, so the page can be shared or reloaded (with the
/// open panel's tab, if the address names one).
pub fn remember_scenario(id: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let tab = window
        .location()
        .search()
        .ok()
        .and_then(|q| LaunchOptions::parse(&q).0.tab)
        .map(|t| format!("&tab={}", t.key()))
        .unwrap_or_default();
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("?scenario={id}{tab}")),
        );
    }
}

/// Posts to the host page every event recorded since the last post (a rewind starts a new
/// timeline: its count restarts), as comparison copy `copy`'s if named.
pub fn relay(journal: &Journal, posted: &mut u64, copy: Option<&str>) {
    let fresh = journal.seen().saturating_sub(*posted) as usize;
    let events = journal.events();
    for event in &events[events.len().saturating_sub(fresh)..] {
        bridge::post(&embed::event_message(event, copy));
    }
    *posted = journal.seen();
}
