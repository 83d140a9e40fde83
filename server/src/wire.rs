//! Errors as the wire carries them: the JSON protocol's `__type` shape, the query code SDKs show
//! as `Error.Code`, the HTTP status and the message. The engine's [`SqsError`]s map one to one;
//! the rest are the protocol's own (a body that does not parse, an unknown action).

use sqs_engine::{ErrorCode, SqsError};

/// One error answer, in either protocol.
#[derive(Clone, Debug, PartialEq)]
pub struct WireError {
    /// The JSON protocol's `__type` (`com.amazonaws.sqs#QueueDoesNotExist`).
    pub shape: String,
    /// The query protocol's code (`AWS.SimpleQueueService.NonExistentQueue`), also sent in the
    /// JSON protocol's `x-amzn-query-error` header.
    pub code: String,
    /// The HTTP status.
    pub status: u16,
    /// The message.
    pub message: String,
}

impl From<SqsError> for WireError {
    fn from(error: SqsError) -> Self {
        WireError {
            shape: error.code.type_name(),
            code: error.code.query_code().into(),
            status: error.code.status(),
            message: error.message,
        }
    }
}

impl WireError {
    /// An action SQS does not have (JSON: `UnknownOperationException`; query: `InvalidAction`).
    pub fn unknown_action(action: &str) -> Self {
        WireError {
            shape: "com.amazon.coral.service#UnknownOperationException".into(),
            code: "InvalidAction".into(),
            status: 400,
            message: format!("The action {action} is not valid for this endpoint."),
        }
    }

    /// A JSON body that does not parse, or a member of the wrong type.
    pub fn serialization(message: impl Into<String>) -> Self {
        WireError {
            shape: "com.amazon.coral.service#SerializationException".into(),
            code: "SerializationException".into(),
            status: 400,
            message: message.into(),
        }
    }

    /// `InvalidParameterValue` with `message` (a query parameter that is not of its type).
    pub fn invalid_parameter(message: String) -> Self {
        SqsError::new(ErrorCode::InvalidParameterValueException, message).into()
    }

    /// A failure of the server's own (`InternalFailure`, 500: SQS's common error).
    pub fn internal(message: String) -> Self {
        WireError {
            shape: "com.amazon.coral.service#InternalFailure".into(),
            code: "InternalFailure".into(),
            status: 500,
            message,
        }
    }

    /// A request body over the server's limit.
    pub fn too_large(limit: usize) -> Self {
        WireError {
            shape: "com.amazon.coral.service#RequestEntityTooLargeException".into(),
            code: "RequestEntityTooLarge".into(),
            status: 413,
            message: format!("Request bodies cannot be longer than {limit} bytes."),
        }
    }

    /// The error for an input the engine's reader refused (`missing field `X``, or a member of
    /// the wrong type): `MissingParameter` for a missing member, else `type_error`'s.
    pub fn from_input(error: &serde_json::Error, type_error: fn(String) -> WireError) -> Self {
        let text = error.to_string();
        let missing = text
            .strip_prefix("missing field `")
            .and_then(|rest| rest.split('`').next());
        match missing {
            Some(member) => SqsError::new(
                ErrorCode::MissingRequiredParameterException,
                format!("The request must contain the parameter {member}."),
            )
            .into(),
            None => type_error(text),
        }
    }
}
