//! What the user (or a link, a host page, the clock, the live server) asks the playground for:
//! the one message every component sends up the one `Callback<Action>` the root hands out.

use super::components::controls::Clock;
use super::components::settings::Typed;
use super::components::tabs::Tab;
use super::components::worker_policy::Editing;
use super::drag::Press;
use super::lesson::Answer;
use super::session::{SendForm, Slot};
#[cfg(feature = "live")]
use crate::live::Signal;
use crate::share::session::Session as SharedSession;
use sqs_engine::Request;
use sqs_sim::command::SimAction;

/// See the module documentation.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Play, Pause, Step, Speed or Seek.
    Clock(Clock),
    /// Open a scenario by id.
    Open(String),
    /// The picker's choice: fetch this library scenario's file, then open it.
    Fetch(String),
    /// The picked scenario's file could not be read or opened (why).
    FetchFailed(String),
    /// SendMessage from the form.
    Send(SendForm),
    /// The send form as typed so far.
    EditSend(SendForm),
    /// What the user typed into a setting's field.
    Type(Typed),
    /// A worker's policy as edited.
    EditPolicy(Editing),
    /// SetQueueAttributes with one attribute.
    SetAttribute {
        /// Attribute name.
        name: String,
        /// Value as typed.
        value: String,
    },
    /// A simulation action on a worker.
    Worker {
        /// Which worker (errors show on its lane).
        worker: String,
        /// What.
        action: SimAction,
    },
    /// A new lane.
    AddWorker,
    /// Hand a message to a worker (drop or keyboard pick).
    Deliver {
        /// Which worker.
        worker: String,
        /// Which message.
        message_id: String,
    },
    /// An SQS call by hand; its error shows at `slot`.
    Call {
        /// Where an error shows.
        slot: Slot,
        /// The call.
        request: Request,
    },
    /// Show this queue and its lanes (when lanes consume several queues).
    ShowQueue(String),
    /// Open this panel below the stage.
    ShowTab(Tab),
    /// Select a message (its history opens), or none.
    Select(Option<String>),
    /// Open (or close) the keyboard hand-over bar for a waiting message.
    Pick(Option<String>),
    /// A press on a waiting message (may become a drag).
    Press(Press),
    /// The pointer moved to a point (viewport coordinates).
    PointerMove((f64, f64)),
    /// The pointer was released: a drag over a lane delivers its message there.
    PointerUp,
    /// The pointer's gesture was cancelled.
    PointerCancel,
    /// An animation frame at this wall time (milliseconds): the clock moves.
    Frame(f64),
    /// Opens a session read from a file.
    Import(SharedSession),
    /// Lesson mode on or off.
    Lesson(bool),
    /// An answer to the open question (`None`: Skip).
    Answer(Answer),
    /// Jump to the answered question's reveal.
    RevealNow,
    /// Put the shown answer away and play on.
    Continue,
    /// Live mode: what the browser heard of the server's stream.
    #[cfg(feature = "live")]
    Live(Signal),
    /// Live mode: show a client under another name (empty: its own).
    Rename {
        /// Its own name (its access key id, or address and User-Agent).
        client: String,
        /// The name to show.
        name: String,
    },
    /// Live mode, "Save as scenario": download the run recorded (`false`) or the one before the
    /// server started again (`true`) as a scenario file.
    #[cfg(feature = "live")]
    SaveRun(bool),
    /// A request the page made failed: the live server refused one of the page's requests (or
    /// could not be reached), or the scenario file the address names did not open.
    Refused {
        /// Where the refusal shows.
        slot: Slot,
        /// What the server said.
        error: String,
    },
}
