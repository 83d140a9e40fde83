//! Counts instead of cards, for a stage with more messages than can be drawn legibly: a tile per
//! state (its colour, its shape and its words, as on a card) and the note that says why. Written
//! as markup ([`markup_built`]): they show numbers only.

use super::message::badge;
use super::{markup_built, Escaped};
use crate::playground::format::{group, plural};
use crate::playground::stage::{Crowd, Look, MAX_CARDS};
use std::fmt::Write;
use yew::Html;

/// A tile per look (`5,010 visible`), each named by its number and words.
pub fn count_tiles(counts: &[(Look, usize)], label: &str) -> Html {
    let mut html = String::new();
    write_tiles(&mut html, counts, label);
    markup_built(html)
}

fn write_tiles(html: &mut String, counts: &[(Look, usize)], label: &str) {
    let _ = write!(
        html,
        r#"<ul class="counts" aria-label="{}">"#,
        Escaped(label)
    );
    for (look, n) in counts {
        let _ = write!(
            html,
            r#"<li class="count-tile" data-look="{}"><span class="count-badge" aria-hidden="true">{}</span><span class="count-n">{}</span> <span class="count-label">{}</span></li>"#,
            look.key(),
            badge(*look),
            group(*n as u64),
            look.words()
        );
    }
    html.push_str("</ul>");
}

/// Why the stage shows counts, and every message of the stage per state (they add up to the
/// total the note gives).
pub fn crowd_view(crowd: &Crowd) -> Html {
    let mut html = format!(
        r#"<div class="crowd"><p class="note crowd-note"><strong>{}</strong>: too many to draw one by one, so the stage shows how many are in each state and how many each worker holds. The cards come back when {MAX_CARDS} or fewer are left.</p>"#,
        plural(crowd.total(), "message")
    );
    write_tiles(&mut html, &crowd.by_look(), "Messages by state");
    html.push_str("</div>");
    markup_built(html)
}
