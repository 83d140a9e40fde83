//! Motion that explains cause: when a message changes place (its timeout runs out and it goes
//! back to the queue, it moves to the dead-letter queue, a worker receives it), its new card
//! starts where the old one was and glides over (FLIP: first, last, invert, play). Skipped when
//! the user prefers reduced motion, and when too many cards move at once to follow.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

/// Above this many cards the stage does not animate moves (nobody can follow them anyway).
const MAX_ANIMATED: u32 = 150;
/// The glide.
const TRANSITION: &str = "transform 700ms cubic-bezier(0.2, 0.7, 0.2, 1)";

/// Where each card (by message id) was drawn, in page coordinates: at most a few hundred cards,
/// in a list, searched.
pub type Positions = Vec<(String, (f64, f64))>;

/// Animates the cards (`[data-msg-id]`) under `container` from their `positions` to where they
/// are now (which become the positions). The root calls it after a render that moved cards.
pub fn glide_under(container: &NodeRef, positions: &mut Positions) {
    if let Some(root) = container.cast::<Element>() {
        *positions = glide(&root, positions);
    }
}

fn glide(root: &Element, before: &Positions) -> Positions {
    let mut after = Vec::new();
    let Ok(cards) = root.query_selector_all("[data-msg-id]") else {
        return after;
    };
    let window = web_sys::window();
    let animate = cards.length() <= MAX_ANIMATED && !reduced_motion();
    let (sx, sy) = window.as_ref().map_or((0.0, 0.0), |w| {
        (w.scroll_x().unwrap_or(0.0), w.scroll_y().unwrap_or(0.0))
    });
    for i in 0..cards.length() {
        let Some(card) = cards.item(i).and_then(|n| n.dyn_into::<HtmlElement>().ok()) else {
            continue;
        };
        let Some(id) = card.get_attribute("data-msg-id") else {
            continue;
        };
        let rect = card.get_bounding_client_rect();
        let here = (rect.left() + sx, rect.top() + sy);
        let was = before
            .iter()
            .find(|(known, _)| *known == id)
            .map(|(_, at)| at);
        if let (true, Some(was)) = (animate, was) {
            let (dx, dy) = (was.0 - here.0, was.1 - here.1);
            if dx.abs() + dy.abs() > 2.0 {
                let style = card.style();
                let _ = style.set_property("transition", "none");
                let _ =
                    style.set_property("transform", &format!("translate({dx:.2}px, {dy:.2}px)"));
                // Reading layout commits the inverted position before the transition starts.
                let _ = card.offset_width();
                let _ = style.set_property("transition", TRANSITION);
                let _ = style.set_property("transform", "");
            }
        }
        after.push((id, here));
    }
    after
}

/// Whether the user asked the system for less motion.
pub fn reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|q| q.matches())
}
