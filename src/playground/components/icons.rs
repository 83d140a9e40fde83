//! Small inline icons (stroke drawings in `currentColor`), so that each message state has a
//! shape as well as a colour, without fonts or emoji that a projector laptop may lack.

use yew::Html;

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

/// An icon's `<svg>` with these path data.
macro_rules! svg {
    ($($d:literal),*) => {
        concat!(
            r#"<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">"#,
            $(r#"<path d=""#, $d, r#""/>"#,)*
            "</svg>"
        )
    };
}

/// An icon's markup, hidden from assistive technology (the text next to it says the same).
/// Static text, so that a view writing markup ([`super::markup_built`]) can include it.
pub fn icon_markup(which: Icon) -> &'static str {
    match which {
        Icon::Envelope => svg!("M3 6h18v12H3z", "M3 7l9 6 9-6"),
        Icon::Clock => svg!("M12 3a9 9 0 1 0 0.01 0", "M12 7v5l3.5 2"),
        Icon::Ring => svg!("M12 3a9 9 0 1 1 -9 9"),
        Icon::Lock => svg!("M5 11h14v10H5z", "M8 11V8a4 4 0 0 1 8 0v3"),
        Icon::Check => svg!("M4 12.5l5 5L20 6.5"),
        Icon::Warning => svg!("M12 3l10 18H2z", "M12 10v5", "M12 18v0.5"),
        Icon::Play => svg!("M7 4l13 8-13 8z"),
        Icon::Pause => svg!("M7 4v16", "M17 4v16"),
        Icon::Step => svg!("M5 4l10 8-10 8z", "M19 4v16"),
    }
}

/// Draws an icon (see [`icon_markup`]).
pub fn icon(which: Icon) -> Html {
    super::markup(icon_markup(which))
}
