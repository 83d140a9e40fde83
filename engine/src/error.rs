//! SQS errors, named and worded as AWS names and words them (semantics reference §1.1).

use serde::{Deserialize, Serialize};
use std::fmt;

/// Every error an SQS action can answer with. The variant name is the JSON `__type` shape name
/// (`com.amazonaws.sqs#QueueDoesNotExist`); [`ErrorCode::query_code`] is the code SDKs show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ErrorCode {
    /// The queue named by a URL or name does not exist.
    QueueDoesNotExist,
    /// A parameter's value is out of range or malformed (an unmodelled coral error).
    InvalidParameterValueException,
    /// A required parameter is missing (an unmodelled coral error).
    MissingRequiredParameterException,
    /// CreateQueue with an existing name and a different attribute value.
    QueueNameExists,
    /// CreateQueue within 60 s of deleting a queue of that name.
    QueueDeletedRecently,
    /// An attribute name that does not apply.
    InvalidAttributeName,
    /// An attribute value that is out of range or not allowed.
    InvalidAttributeValue,
    /// A receipt handle that SQS never issued.
    ReceiptHandleIsInvalid,
    /// Modelled by AWS but not observed in practice (semantics §6).
    MessageNotInflight,
    /// Two batch entries share an Id.
    BatchEntryIdsNotDistinct,
    /// A batch whose total size is over 1 MiB.
    BatchRequestTooLong,
    /// A batch without entries.
    EmptyBatchRequest,
    /// A batch entry Id with illegal characters or over 80 long.
    InvalidBatchEntryId,
    /// More than 10 entries in a batch.
    TooManyEntriesInBatchRequest,
    /// A second PurgeQueue within 60 s.
    PurgeQueueInProgress,
    /// A quota is exceeded (in-flight messages on a short poll).
    OverLimit,
    /// A body with characters outside SQS's allowed set.
    InvalidMessageContents,
    /// A move task or its queue does not exist.
    ResourceNotFoundException,
    /// The action is not supported for this queue.
    UnsupportedOperation,
}

impl ErrorCode {
    /// The query-protocol error code SDKs surface as `Error.Code`
    /// (`AWS.SimpleQueueService.NonExistentQueue`).
    pub fn query_code(self) -> &'static str {
        use ErrorCode::*;
        match self {
            QueueDoesNotExist => "AWS.SimpleQueueService.NonExistentQueue",
            InvalidParameterValueException => "InvalidParameterValue",
            MissingRequiredParameterException => "MissingParameter",
            QueueNameExists => "QueueAlreadyExists",
            QueueDeletedRecently => "AWS.SimpleQueueService.QueueDeletedRecently",
            InvalidAttributeName => "InvalidAttributeName",
            InvalidAttributeValue => "InvalidAttributeValue",
            ReceiptHandleIsInvalid => "ReceiptHandleIsInvalid",
            MessageNotInflight => "AWS.SimpleQueueService.MessageNotInflight",
            BatchEntryIdsNotDistinct => "AWS.SimpleQueueService.BatchEntryIdsNotDistinct",
            BatchRequestTooLong => "AWS.SimpleQueueService.BatchRequestTooLong",
            EmptyBatchRequest => "AWS.SimpleQueueService.EmptyBatchRequest",
            InvalidBatchEntryId => "AWS.SimpleQueueService.InvalidBatchEntryId",
            TooManyEntriesInBatchRequest => "AWS.SimpleQueueService.TooManyEntriesInBatchRequest",
            PurgeQueueInProgress => "AWS.SimpleQueueService.PurgeQueueInProgress",
            OverLimit => "OverLimit",
            InvalidMessageContents => "InvalidMessageContents",
            ResourceNotFoundException => "ResourceNotFoundException",
            UnsupportedOperation => "AWS.SimpleQueueService.UnsupportedOperation",
        }
    }

    /// The JSON protocol's `__type` (`com.amazonaws.sqs#QueueDoesNotExist`).
    pub fn type_name(self) -> String {
        let namespace = match self {
            ErrorCode::InvalidParameterValueException
            | ErrorCode::MissingRequiredParameterException => "com.amazon.coral.service",
            _ => "com.amazonaws.sqs",
        };
        format!("{namespace}#{self:?}")
    }

    /// The HTTP status AWS answers with.
    pub fn status(self) -> u16 {
        match self {
            ErrorCode::PurgeQueueInProgress | ErrorCode::OverLimit => 403,
            ErrorCode::ResourceNotFoundException => 404,
            _ => 400,
        }
    }
}

/// An error answer: the code and AWS's message text. A failed call changes nothing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SqsError {
    /// Which error.
    pub code: ErrorCode,
    /// The message, worded as AWS words it.
    pub message: String,
}

impl SqsError {
    /// An error with that code and message. Cold, as are the constructors below: errors are
    /// the rare path of every check.
    #[cold]
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        SqsError {
            code,
            message: message.into(),
        }
    }
}

impl fmt::Display for SqsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.query_code(), self.message)
    }
}

impl std::error::Error for SqsError {}

/// Constructors for the errors many actions share, worded once.
impl SqsError {
    /// `InvalidParameterValue` with `message`.
    #[cold]
    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        SqsError::new(ErrorCode::InvalidParameterValueException, message)
    }

    /// `InvalidParameterValue` "Value <v> for parameter <p> is invalid. Reason: <r>".
    #[cold]
    pub(crate) fn invalid_value(parameter: &str, value: &dyn fmt::Display, reason: &str) -> Self {
        SqsError::invalid(format!(
            "Value {value} for parameter {parameter} is invalid. Reason: {reason}"
        ))
    }

    /// `MissingParameter` "The request must contain the parameter <p>."
    #[cold]
    pub(crate) fn missing(parameter: &str) -> Self {
        SqsError::new(
            ErrorCode::MissingRequiredParameterException,
            format!("The request must contain the parameter {parameter}."),
        )
    }

    /// `QueueDoesNotExist` (semantics §1.1).
    #[cold]
    pub(crate) fn no_queue() -> Self {
        SqsError::new(
            ErrorCode::QueueDoesNotExist,
            "The specified queue does not exist.",
        )
    }

    /// `ReceiptHandleIsInvalid` for `handle` (semantics §5).
    #[cold]
    pub(crate) fn bad_handle(handle: &dyn fmt::Display) -> Self {
        SqsError::new(
            ErrorCode::ReceiptHandleIsInvalid,
            format!("The input receipt handle \"{handle}\" is not a valid receipt handle."),
        )
    }

    /// `InvalidAttributeName` "Unknown Attribute <name>."
    #[cold]
    pub(crate) fn unknown_attribute(name: &str) -> Self {
        SqsError::new(
            ErrorCode::InvalidAttributeName,
            format!("Unknown Attribute {name}."),
        )
    }

    /// `InvalidAttributeValue` "Invalid value for the parameter <name>." plus an optional reason.
    #[cold]
    pub(crate) fn attribute_value(name: &str, reason: Option<&str>) -> Self {
        let message = match reason {
            Some(reason) => format!("Invalid value for the parameter {name}. Reason: {reason}"),
            None => format!("Invalid value for the parameter {name}."),
        };
        SqsError::new(ErrorCode::InvalidAttributeValue, message)
    }
}
