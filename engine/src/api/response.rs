//! [`Response`], the successful answer to a request, and the output types.

use super::{Attributes, Body, Md5, MessageAttributes, MessageId, QueueUrl, ReceiptHandle, ToJson};
use crate::{write_by_hand, writers};
use serde::Deserialize;
use serde_json::Value;

/// The successful answer to a [`Request`](super::Request); serialises untagged, as AWS's response body.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
#[allow(missing_docs)]
pub enum Response {
    CreateQueue(QueueUrlOutput),
    GetQueueUrl(QueueUrlOutput),
    ListQueues(ListQueuesOutput),
    GetQueueAttributes(GetQueueAttributesOutput),
    SendMessage(SendMessageOutput),
    SendMessageBatch(SendMessageBatchOutput),
    ReceiveMessage(ReceiveMessageOutput),
    /// DeleteMessageBatch and ChangeMessageVisibilityBatch.
    Batch(BatchOutput),
    ListDeadLetterSourceQueues(ListDeadLetterSourceQueuesOutput),
    StartMessageMoveTask(StartMessageMoveTaskOutput),
    ListMessageMoveTasks(ListMessageMoveTasksOutput),
    CancelMessageMoveTask(CancelMessageMoveTaskOutput),
    ListQueueTags(ListQueueTagsOutput),
    /// Actions whose AWS response has no members (`{}`).
    Empty(Empty),
}

/// As AWS's response body: the output's members.
impl ToJson for Response {
    fn to_json(&self) -> Value {
        match self {
            Response::CreateQueue(output) | Response::GetQueueUrl(output) => output.to_json(),
            Response::ListQueues(output) => output.to_json(),
            Response::GetQueueAttributes(output) => output.to_json(),
            Response::SendMessage(output) => output.to_json(),
            Response::SendMessageBatch(output) => output.to_json(),
            Response::ReceiveMessage(output) => output.to_json(),
            Response::Batch(output) => output.to_json(),
            Response::ListDeadLetterSourceQueues(output) => output.to_json(),
            Response::StartMessageMoveTask(output) => output.to_json(),
            Response::ListMessageMoveTasks(output) => output.to_json(),
            Response::CancelMessageMoveTask(output) => output.to_json(),
            Response::ListQueueTags(output) => output.to_json(),
            Response::Empty(output) => output.to_json(),
        }
    }
}

write_by_hand!(Response, Empty);

impl ToJson for Empty {
    fn to_json(&self) -> Value {
        Value::Object(serde_json::Map::new())
    }
}

writers! {
    QueueUrlOutput { queue_url: field("QueueUrl") }
    ListQueuesOutput { queue_urls: optional("QueueUrls"), next_token: optional("NextToken") }
    GetQueueAttributesOutput { attributes: optional("Attributes") }
    SendMessageOutput {
        message_id: field("MessageId"),
        md5_of_message_body: field("MD5OfMessageBody"),
        md5_of_message_attributes: optional("MD5OfMessageAttributes"),
        md5_of_message_system_attributes: optional("MD5OfMessageSystemAttributes"),
        sequence_number: optional("SequenceNumber"),
    }
    SendMessageBatchOutput { successful: non_empty("Successful"), failed: non_empty("Failed") }
    SendMessageBatchResultEntry {
        id: field("Id"),
        message_id: field("MessageId"),
        md5_of_message_body: field("MD5OfMessageBody"),
        md5_of_message_attributes: optional("MD5OfMessageAttributes"),
        md5_of_message_system_attributes: optional("MD5OfMessageSystemAttributes"),
        sequence_number: optional("SequenceNumber"),
    }
    BatchResultErrorEntry {
        id: field("Id"),
        sender_fault: field("SenderFault"),
        code: field("Code"),
        message: optional("Message"),
    }
    ReceiveMessageOutput { messages: optional("Messages") }
    Message {
        message_id: field("MessageId"),
        receipt_handle: field("ReceiptHandle"),
        md5_of_body: field("MD5OfBody"),
        body: field("Body"),
        attributes: optional("Attributes"),
        md5_of_message_attributes: optional("MD5OfMessageAttributes"),
        message_attributes: optional("MessageAttributes"),
    }
    BatchOutput { successful: non_empty("Successful"), failed: non_empty("Failed") }
    BatchResultEntry { id: field("Id") }
    ListDeadLetterSourceQueuesOutput { queue_urls: field("queueUrls"), next_token: optional("NextToken") }
    StartMessageMoveTaskOutput { task_handle: field("TaskHandle") }
    ListMessageMoveTasksOutput { results: field("Results") }
    MessageMoveTask {
        task_handle: optional("TaskHandle"),
        status: field("Status"),
        source_arn: field("SourceArn"),
        destination_arn: optional("DestinationArn"),
        max_number_of_messages_per_second: optional("MaxNumberOfMessagesPerSecond"),
        approximate_number_of_messages_moved: field("ApproximateNumberOfMessagesMoved"),
        approximate_number_of_messages_to_move: field("ApproximateNumberOfMessagesToMove"),
        failure_reason: optional("FailureReason"),
        started_timestamp: field("StartedTimestamp"),
    }
    CancelMessageMoveTaskOutput {
        approximate_number_of_messages_moved: field("ApproximateNumberOfMessagesMoved"),
    }
    ListQueueTagsOutput { tags: optional("Tags") }
}

/// `{}`: the response of DeleteQueue, SetQueueAttributes, PurgeQueue, DeleteMessage,
/// ChangeMessageVisibility, TagQueue, UntagQueue, AddPermission and RemovePermission.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Empty {}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct QueueUrlOutput {
    pub queue_url: QueueUrl,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct ListQueuesOutput {
    #[serde(default)]
    pub queue_urls: Option<Vec<String>>,
    #[serde(default)]
    pub next_token: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct GetQueueAttributesOutput {
    #[serde(default)]
    pub attributes: Option<Attributes>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct SendMessageOutput {
    pub message_id: MessageId,
    #[serde(rename = "MD5OfMessageBody")]
    pub md5_of_message_body: Md5,
    #[serde(rename = "MD5OfMessageAttributes", default)]
    pub md5_of_message_attributes: Option<String>,
    #[serde(rename = "MD5OfMessageSystemAttributes", default)]
    pub md5_of_message_system_attributes: Option<String>,
    #[serde(default)]
    pub sequence_number: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct SendMessageBatchOutput {
    #[serde(default)]
    pub successful: Vec<SendMessageBatchResultEntry>,
    #[serde(default)]
    pub failed: Vec<BatchResultErrorEntry>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct SendMessageBatchResultEntry {
    pub id: String,
    pub message_id: MessageId,
    #[serde(rename = "MD5OfMessageBody")]
    pub md5_of_message_body: Md5,
    #[serde(rename = "MD5OfMessageAttributes", default)]
    pub md5_of_message_attributes: Option<String>,
    #[serde(rename = "MD5OfMessageSystemAttributes", default)]
    pub md5_of_message_system_attributes: Option<String>,
    #[serde(default)]
    pub sequence_number: Option<String>,
}

/// A per-entry failure of a batch action (HTTP 200 overall).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct BatchResultErrorEntry {
    pub id: String,
    pub sender_fault: bool,
    pub code: String,
    #[serde(default)]
    pub message: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct ReceiveMessageOutput {
    /// Absent (not empty) when no message was received, as AWS answers.
    #[serde(default)]
    pub messages: Option<Vec<Message>>,
}

/// A received message.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct Message {
    pub message_id: MessageId,
    /// A value, written as its text: a client hands it back to DeleteMessage as it is.
    pub receipt_handle: ReceiptHandle,
    #[serde(rename = "MD5OfBody")]
    pub md5_of_body: Md5,
    pub body: Body,
    #[serde(default)]
    pub attributes: Option<Attributes>,
    #[serde(rename = "MD5OfMessageAttributes", default)]
    pub md5_of_message_attributes: Option<String>,
    #[serde(default)]
    pub message_attributes: Option<MessageAttributes>,
}

/// The answer of DeleteMessageBatch and ChangeMessageVisibilityBatch.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct BatchOutput {
    #[serde(default)]
    pub successful: Vec<BatchResultEntry>,
    #[serde(default)]
    pub failed: Vec<BatchResultErrorEntry>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct BatchResultEntry {
    pub id: String,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[allow(missing_docs)]
pub struct ListDeadLetterSourceQueuesOutput {
    /// Lower-case on the wire, as AWS answers.
    #[serde(rename = "queueUrls")]
    pub queue_urls: Vec<String>,
    #[serde(rename = "NextToken", default)]
    pub next_token: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct StartMessageMoveTaskOutput {
    pub task_handle: String,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct ListMessageMoveTasksOutput {
    pub results: Vec<MessageMoveTask>,
}

/// One entry of ListMessageMoveTasks.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct MessageMoveTask {
    /// Only while the task is RUNNING.
    #[serde(default)]
    pub task_handle: Option<String>,
    /// RUNNING, COMPLETED, CANCELLING, CANCELLED or FAILED.
    pub status: String,
    pub source_arn: String,
    #[serde(default)]
    pub destination_arn: Option<String>,
    #[serde(default)]
    pub max_number_of_messages_per_second: Option<i64>,
    pub approximate_number_of_messages_moved: i64,
    pub approximate_number_of_messages_to_move: i64,
    #[serde(default)]
    pub failure_reason: Option<String>,
    /// Epoch milliseconds.
    pub started_timestamp: i64,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct CancelMessageMoveTaskOutput {
    pub approximate_number_of_messages_moved: i64,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "PascalCase")]
#[allow(missing_docs)]
pub struct ListQueueTagsOutput {
    /// Absent when the queue has no tags.
    #[serde(default)]
    pub tags: Option<Attributes>,
}
