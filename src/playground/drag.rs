//! Handing a message to a worker by hand. With a pointer (mouse, pen or touch, through pointer
//! events): press on a waiting message, move past a small threshold, drop on a lane. With the
//! keyboard: focus a message, press Enter, pick the worker from the bar that opens.

use wasm_bindgen::JsCast;
use web_sys::Element;

/// Pixels a press must travel before it becomes a drag (less is a click).
const THRESHOLD: f64 = 6.0;

/// A press on a message that may become a drag.
#[derive(Clone, Debug, PartialEq)]
pub struct Press {
    /// MessageId.
    pub id: String,
    /// Body (for the floating card).
    pub body: String,
    /// Where the press started.
    pub from: (f64, f64),
}

/// A drag in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct Drag {
    /// MessageId.
    pub id: String,
    /// Body.
    pub body: String,
    /// The pointer, in viewport coordinates.
    pub at: (f64, f64),
    /// The lane under the pointer, by worker name.
    pub over: Option<String>,
}

/// What the pointer is doing with messages.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Gesture {
    /// Nothing.
    #[default]
    Idle,
    /// Pressed, not moved far yet.
    Pressed(Press),
    /// Dragging.
    Dragging(Drag),
}

impl Gesture {
    /// The pointer moved to `at`: a press becomes a drag past the threshold; a drag follows.
    pub fn moved(&self, at: (f64, f64)) -> Option<Gesture> {
        match self {
            Gesture::Idle => None,
            Gesture::Pressed(p) => {
                let far = (at.0 - p.from.0).hypot(at.1 - p.from.1) >= THRESHOLD;
                far.then(|| {
                    Gesture::Dragging(Drag {
                        id: p.id.clone(),
                        body: p.body.clone(),
                        at,
                        over: lane_at(at),
                    })
                })
            }
            Gesture::Dragging(d) => Some(Gesture::Dragging(Drag {
                at,
                over: lane_at(at),
                ..d.clone()
            })),
        }
    }

    /// The pointer was released: the (worker, message) to deliver, if it was dropped on a lane.
    pub fn dropped(&self) -> Option<(String, String)> {
        match self {
            Gesture::Dragging(Drag {
                id, over: Some(w), ..
            }) => Some((w.clone(), id.clone())),
            _ => None,
        }
    }
}

/// The worker lane (`[data-worker]`) under a viewport point.
fn lane_at((x, y): (f64, f64)) -> Option<String> {
    let document = web_sys::window()?.document()?;
    let hit: Element = document.element_from_point(x as f32, y as f32)?;
    let lane = hit.closest("[data-worker]").ok()??;
    lane.dyn_ref::<Element>()?.get_attribute("data-worker")
}
