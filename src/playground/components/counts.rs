//! Counts instead of cards, for a stage with more messages than can be drawn legibly: a tile per
//! state (its colour, its shape and its words, as on a card) and the note that says why.

use super::message::badge;
use crate::playground::format::{group, plural};
use crate::playground::stage::{Crowd, Look, MAX_CARDS};
use yew::prelude::*;

/// A tile per look (`5,010 visible`), each named by its number and words.
pub fn count_tiles(counts: &[(Look, usize)], label: String) -> Html {
    html! {
        <ul class="counts" aria-label={label}>
            { for counts.iter().map(|(look, n)| html! {
                <li class="count-tile" data-look={look.key()}>
                    <span class="count-badge" aria-hidden="true">{ badge(*look) }</span>
                    <span class="count-n">{ group(*n as u64) }</span>
                    { " " }
                    <span class="count-label">{ look.words() }</span>
                </li>
            }) }
        </ul>
    }
}

/// Why the stage shows counts, and every message of the stage per state (they add up to the
/// total the note gives).
pub fn crowd_view(crowd: &Crowd) -> Html {
    html! {
        <div class="crowd">
            <p class="note crowd-note">
                <strong>{ plural(crowd.total(), "message") }</strong>
                { format!(
                    ": too many to draw one by one, so the stage shows how many are in each \
                     state and how many each worker holds. The cards come back when {MAX_CARDS} \
                     or fewer are left."
                ) }
            </p>
            { count_tiles(&crowd.by_look(), "Messages by state".into()) }
        </div>
    }
}
