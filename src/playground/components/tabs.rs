//! The panels below the stage as one row of tabs (the WAI-ARIA tabs pattern, automatic
//! activation): a click, or the arrow keys, Home and End on the focused tab, shows one panel and
//! hides the others. Every panel stays in the document, so a hidden one keeps what it holds
//! (the Share panel's text, the chart's readout). The open tab is written into the page's
//! address (`tab=log|story|depth|effects|settings|producer|share`), so a link opens on it.

use crate::playground::Action;
use yew::prelude::*;

/// One panel's tab.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    /// What happened, naming each SQS call.
    Log,
    /// The scenario's narrative and its lines.
    Story,
    /// Messages per state over time.
    Depth,
    /// The side-effect ledger.
    Effects,
    /// The queue's attributes.
    Settings,
    /// Sending by hand (a scenario with a script: in the sandbox the producer is on the stage).
    Producer,
    /// Links, embedding, files.
    Share,
}

impl Tab {
    const ALL: [Tab; 7] = [
        Tab::Log,
        Tab::Story,
        Tab::Depth,
        Tab::Effects,
        Tab::Settings,
        Tab::Producer,
        Tab::Share,
    ];

    /// Its name in the page's address.
    pub fn key(self) -> &'static str {
        match self {
            Tab::Log => "log",
            Tab::Story => "story",
            Tab::Depth => "depth",
            Tab::Effects => "effects",
            Tab::Settings => "settings",
            Tab::Producer => "producer",
            Tab::Share => "share",
        }
    }

    /// The tab's text (its accessible name).
    pub fn label(self) -> &'static str {
        match self {
            Tab::Log => "Event log",
            Tab::Story => "Story",
            Tab::Depth => "Queue depth",
            Tab::Effects => "Side effects",
            Tab::Settings => "Settings",
            Tab::Producer => "Producer",
            Tab::Share => "Share",
        }
    }

    /// The tab named `key` in an address.
    pub fn from_key(key: &str) -> Option<Tab> {
        Tab::ALL.into_iter().find(|t| t.key() == key)
    }

    /// Every key, for a message naming them.
    pub fn keys() -> String {
        Tab::ALL.map(Tab::key).join("|")
    }
}

/// Properties of [`TabList`].
#[derive(Properties, PartialEq)]
pub struct TabListProps {
    /// The tabs, in order.
    pub tabs: Vec<Tab>,
    /// The open one.
    pub open: Tab,
    /// A tab picked (by a click or a key) opens its panel.
    pub onaction: Callback<Action>,
}

/// The row of tabs. See the module documentation.
#[component]
pub fn TabList(props: &TabListProps) -> Html {
    // A click brings its panel into view once it is drawn.
    let reveal = use_mut_ref(|| false);
    let select = {
        let onaction = props.onaction.clone();
        move |tab: Tab| {
            remember_tab(tab);
            onaction.emit(Action::ShowTab(tab));
        }
    };
    let onkeydown = {
        let (tabs, open, select) = (props.tabs.clone(), props.open, select.clone());
        Callback::from(move |e: KeyboardEvent| {
            let Some(at) = tabs.iter().position(|t| *t == open) else {
                return;
            };
            let next = match e.key().as_str() {
                "ArrowRight" => (at + 1) % tabs.len(),
                "ArrowLeft" => (at + tabs.len() - 1) % tabs.len(),
                "Home" => 0,
                "End" => tabs.len() - 1,
                _ => return,
            };
            e.prevent_default();
            focus_tab(tabs[next]);
            select(tabs[next]);
        })
    };
    use_effect({
        let (reveal, open) = (reveal.clone(), props.open);
        move || {
            if std::mem::take(&mut *reveal.borrow_mut()) {
                bring_into_view(open);
            }
        }
    });
    html! {
        <div class="tab-list" role="tablist" aria-label="Panels" {onkeydown}>
            for tab in props.tabs.iter().copied() {
                <button type="button" role="tab" id={format!("tab-{}", tab.key())}
                    class="tab"
                    aria-selected={(props.open == tab).to_string()}
                    aria-controls={format!("panel-{}", tab.key())}
                    tabindex={if props.open == tab { "0" } else { "-1" }}
                    onclick={
                        let (select, reveal) = (select.clone(), reveal.clone());
                        move |_: MouseEvent| {
                            *reveal.borrow_mut() = true;
                            select(tab);
                        }
                    }>
                    { tab.label() }
                </button>
            }
        </div>
    }
}

/// The panel of `tab`, shown only when it is the open one (every panel stays in the document).
pub fn tab_panel(tab: Tab, open: Tab, content: Html) -> Html {
    html! {
        <div role="tabpanel" class="tab-panel" id={format!("panel-{}", tab.key())}
            aria-labelledby={format!("tab-{}", tab.key())} hidden={open != tab}>
            { content }
        </div>
    }
}

fn element(id: &str) -> Option<web_sys::Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

fn focus_tab(tab: Tab) {
    use wasm_bindgen::JsCast;
    if let Some(button) = element(&format!("tab-{}", tab.key()))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = button.focus();
    }
}

/// Scrolls the page just enough to show the open panel's end, never so far that the tab row
/// leaves the top of the view.
fn bring_into_view(tab: Tab) {
    let (Some(window), Some(list), Some(panel)) = (
        web_sys::window(),
        element(&format!("tab-{}", tab.key())),
        element(&format!("panel-{}", tab.key())),
    ) else {
        return;
    };
    let height = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or_default();
    let by = (panel.get_bounding_client_rect().bottom() - height)
        .min(list.get_bounding_client_rect().top());
    if by > 0.0 {
        window.scroll_by_with_x_and_y(0.0, by);
    }
}

/// Writes `tab=<key>` into the page's address (keeping the rest of it).
fn remember_tab(tab: Tab) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(url) = window
        .location()
        .href()
        .and_then(|href| web_sys::Url::new(&href))
    else {
        return;
    };
    url.search_params().set("tab", tab.key());
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url.href()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tab_is_found_by_its_key() {
        for tab in Tab::ALL {
            assert_eq!(Tab::from_key(tab.key()), Some(tab));
        }
        assert_eq!(Tab::from_key("chart"), None);
        assert_eq!(
            Tab::keys(),
            "log|story|depth|effects|settings|producer|share"
        );
    }
}
