//! Small inline icons (stroke drawings in `currentColor`), so that each message state has a
//! shape as well as a colour, without fonts or emoji that a projector laptop may lack.

use yew::prelude::*;

/// Which icon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Icon {
    /// A message waiting to be received.
    Envelope,
    /// A delay.
    Clock,
    /// In flight: a countdown ring (the card draws its live ring; a count draws this).
    Ring,
    /// A FIFO group lock.
    Lock,
    /// Deleted.
    Check,
    /// A warning (lease expired, dead worker).
    Warning,
    /// Play.
    Play,
    /// Pause.
    Pause,
    /// Step to the next event.
    Step,
}

impl Icon {
    /// The path data of its strokes, in a 24×24 view box.
    fn paths(self) -> &'static [&'static str] {
        match self {
            Icon::Envelope => &["M3 6h18v12H3z", "M3 7l9 6 9-6"],
            Icon::Clock => &["M12 3a9 9 0 1 0 0.01 0", "M12 7v5l3.5 2"],
            Icon::Ring => &["M12 3a9 9 0 1 1 -9 9"],
            Icon::Lock => &["M5 11h14v10H5z", "M8 11V8a4 4 0 0 1 8 0v3"],
            Icon::Check => &["M4 12.5l5 5L20 6.5"],
            Icon::Warning => &["M12 3l10 18H2z", "M12 10v5", "M12 18v0.5"],
            Icon::Play => &["M7 4l13 8-13 8z"],
            Icon::Pause => &["M7 4v16", "M17 4v16"],
            Icon::Step => &["M5 4l10 8-10 8z", "M19 4v16"],
        }
    }
}

/// An icon, hidden from assistive technology (the text next to it says the same).
pub fn icon(which: Icon) -> Html {
    html! {
        <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            for d in which.paths() {
                <path d={*d} />
            }
        </svg>
    }
}
