//! Counts instead of cards, for a stage with more messages than can be drawn legibly: a tile per
//! state (its colour, its shape and its words, as on a card) and the note that says why.

use super::message::badge;
use crate::playground::format::{group, plural};
use crate::playground::stage::{Crowd, Look, MAX_CARDS};
use yew::prelude::*;

/// Properties of [`CountTiles`].
#[derive(Properties, PartialEq)]
pub struct CountTilesProps {
    /// How many messages look each way.
    pub counts: Vec<(Look, usize)>,
    /// The list's accessible name.
    pub label: AttrValue,
}

/// A tile per look (`5,010 visible`), each named by its number and words.
#[component]
pub fn CountTiles(props: &CountTilesProps) -> Html {
    html! {
        <ul class="counts" aria-label={props.label.clone()}>
            for (look, n) in &props.counts {
                <li class="count-tile" data-look={look.key()}>
                    <span class="count-badge" aria-hidden="true">{ badge(*look) }</span>
                    <span class="count-n">{ group(*n as u64) }</span>
                    { " " }
                    <span class="count-label">{ look.words() }</span>
                </li>
            }
        </ul>
    }
}

/// Properties of [`CrowdView`].
#[derive(Properties, PartialEq)]
pub struct CrowdProps {
    /// Every message of the stage per state.
    pub crowd: Crowd,
}

/// Why the stage shows counts, and every message of the stage per state (they add up to the
/// total the note gives).
#[component]
pub fn CrowdView(props: &CrowdProps) -> Html {
    html! {
        <div class="crowd">
            <p class="note crowd-note">
                <strong>{ plural(props.crowd.total(), "message") }</strong>
                { format!(": too many to draw one by one, so the stage shows how many are in each \
                    state and how many each worker holds. The cards come back when {MAX_CARDS} or \
                    fewer are left.") }
            </p>
            <CountTiles counts={props.crowd.by_look()} label="Messages by state" />
        </div>
    }
}
