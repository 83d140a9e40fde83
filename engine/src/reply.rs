//! What [`crate::Engine::call`] answers: a response now, or a long poll answered later under its
//! [`PollId`].

use crate::api::Response;
use crate::error::SqsError;

/// Identifies a long poll left pending by [`crate::Engine::call`].
pub type PollId = u64;

/// The answer to [`crate::Engine::call`].
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// Answered now.
    Done(Result<Response, SqsError>),
    /// A ReceiveMessage with a wait found nothing yet; its answer comes from
    /// [`crate::Engine::take_completed_polls`] when a message becomes receivable or the wait ends.
    Pending(PollId),
}
