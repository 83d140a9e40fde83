//! [`Request`], one SQS action with its input, and the input types.

use super::{AnyReceiptHandle, Attributes, Body, FromJson, Input, Output, QueueUrl, ToJson};
use crate::{members, read_by_hand, write_by_hand};
use serde::de;
use serde_json::Value;
use std::collections::BTreeMap;

/// The actions, each listed once with its input type: [`Request`], [`Request::action`] and
/// [`Request::from_input`] come from this.
macro_rules! actions {
    ($($action:ident($input:ident)),* $(,)?) => {
        /// One SQS action with its input; written adjacently tagged (see [`ToJson`]).
        #[derive(Clone, Debug, PartialEq)]
        #[allow(missing_docs)]
        pub enum Request {
            $($action($input),)*
        }

        impl Request {
            /// The action's name as AWS spells it (`"ReceiveMessage"`).
            pub fn action(&self) -> &'static str {
                match self {
                    $(Request::$action(_) => stringify!($action),)*
                }
            }

            /// Every action's name, in the order of [`Request::action_index`].
            pub const ACTIONS: &'static [&'static str] = &[$(stringify!($action)),*];

            /// Where [`Request::action`] is in [`Request::ACTIONS`]: a caller counting calls
            /// per action indexes an array rather than hashing or comparing names.
            pub fn action_index(&self) -> usize {
                enum Index {
                    $($action,)*
                }
                match self {
                    $(Request::$action(_) => Index::$action as usize,)*
                }
            }

            /// The input as JSON.
            fn input_json(&self) -> Value {
                match self {
                    $(Request::$action(input) => input.to_json(),)*
                }
            }

            /// Reads `input` as the input of the action named `action` (`"SendMessage"`).
            pub fn from_input(action: &str, input: Value) -> Result<Request, serde_json::Error> {
                match action {
                    $(stringify!($action) => Ok(Request::$action($input::from_json(input)?)),)*
                    _ => Err(de::Error::unknown_variant(action, Self::ACTIONS)),
                }
            }
        }
    };
}

actions!(
    CreateQueue(CreateQueueInput),
    DeleteQueue(QueueUrlInput),
    ListQueues(ListQueuesInput),
    GetQueueUrl(GetQueueUrlInput),
    GetQueueAttributes(GetQueueAttributesInput),
    SetQueueAttributes(SetQueueAttributesInput),
    PurgeQueue(QueueUrlInput),
    SendMessage(SendMessageInput),
    SendMessageBatch(SendMessageBatchInput),
    ReceiveMessage(ReceiveMessageInput),
    DeleteMessage(DeleteMessageInput),
    DeleteMessageBatch(DeleteMessageBatchInput),
    ChangeMessageVisibility(ChangeMessageVisibilityInput),
    ChangeMessageVisibilityBatch(ChangeMessageVisibilityBatchInput),
    ListDeadLetterSourceQueues(ListDeadLetterSourceQueuesInput),
    StartMessageMoveTask(StartMessageMoveTaskInput),
    ListMessageMoveTasks(ListMessageMoveTasksInput),
    CancelMessageMoveTask(CancelMessageMoveTaskInput),
    TagQueue(TagQueueInput),
    UntagQueue(UntagQueueInput),
    ListQueueTags(QueueUrlInput),
    AddPermission(AddPermissionInput),
    RemovePermission(RemovePermissionInput),
);

/// `{"call": "SendMessage", "input": {...}}`.
impl ToJson for Request {
    fn to_json(&self) -> Value {
        let mut out = Output::default();
        out.field("call", self.action());
        out.value("input", self.input_json());
        out.into()
    }
}

write_by_hand!(Request);

members! {
    QueueUrlInput { queue_url: field("QueueUrl") }
    CreateQueueInput {
        queue_name: field("QueueName"),
        attributes: optional("Attributes"),
        tags: optional("tags"),
    }
    ListQueuesInput {
        queue_name_prefix: optional("QueueNamePrefix"),
        next_token: optional("NextToken"),
        max_results: optional("MaxResults"),
    }
    GetQueueUrlInput {
        queue_name: field("QueueName"),
        queue_owner_a_w_s_account_id: optional("QueueOwnerAWSAccountId"),
    }
    GetQueueAttributesInput {
        queue_url: field("QueueUrl"),
        attribute_names: optional("AttributeNames"),
    }
    SetQueueAttributesInput { queue_url: field("QueueUrl"), attributes: field("Attributes") }
    MessageAttributeValue {
        data_type: field("DataType"),
        string_value: optional("StringValue"),
        binary_value: optional("BinaryValue"),
    }
    SendMessageInput {
        queue_url: field("QueueUrl"),
        message_body: field("MessageBody"),
        delay_seconds: optional("DelaySeconds"),
        message_attributes: optional("MessageAttributes"),
        message_system_attributes: optional("MessageSystemAttributes"),
        message_deduplication_id: optional("MessageDeduplicationId"),
        message_group_id: optional("MessageGroupId"),
    }
    SendMessageBatchInput { queue_url: field("QueueUrl"), entries: field("Entries") }
    ReceiveMessageInput {
        queue_url: field("QueueUrl"),
        attribute_names: optional("AttributeNames"),
        message_system_attribute_names: optional("MessageSystemAttributeNames"),
        message_attribute_names: optional("MessageAttributeNames"),
        max_number_of_messages: optional("MaxNumberOfMessages"),
        visibility_timeout: optional("VisibilityTimeout"),
        wait_time_seconds: optional("WaitTimeSeconds"),
        receive_request_attempt_id: optional("ReceiveRequestAttemptId"),
    }
    DeleteMessageInput { queue_url: field("QueueUrl"), receipt_handle: field("ReceiptHandle") }
    DeleteMessageBatchInput { queue_url: field("QueueUrl"), entries: field("Entries") }
    DeleteMessageBatchEntry { id: field("Id"), receipt_handle: field("ReceiptHandle") }
    ChangeMessageVisibilityInput {
        queue_url: field("QueueUrl"),
        receipt_handle: field("ReceiptHandle"),
        visibility_timeout: field("VisibilityTimeout"),
    }
    ChangeMessageVisibilityBatchInput { queue_url: field("QueueUrl"), entries: field("Entries") }
    ChangeMessageVisibilityBatchEntry {
        id: field("Id"),
        receipt_handle: field("ReceiptHandle"),
        visibility_timeout: optional("VisibilityTimeout"),
    }
    ListDeadLetterSourceQueuesInput {
        queue_url: field("QueueUrl"),
        next_token: optional("NextToken"),
        max_results: optional("MaxResults"),
    }
    StartMessageMoveTaskInput {
        source_arn: field("SourceArn"),
        destination_arn: optional("DestinationArn"),
        max_number_of_messages_per_second: optional("MaxNumberOfMessagesPerSecond"),
    }
    ListMessageMoveTasksInput {
        source_arn: field("SourceArn"),
        max_results: optional("MaxResults"),
    }
    CancelMessageMoveTaskInput { task_handle: field("TaskHandle") }
    TagQueueInput { queue_url: field("QueueUrl"), tags: field("Tags") }
    UntagQueueInput { queue_url: field("QueueUrl"), tag_keys: field("TagKeys") }
    AddPermissionInput {
        queue_url: field("QueueUrl"),
        label: field("Label"),
        a_w_s_account_ids: field("AWSAccountIds"),
        actions: field("Actions"),
    }
    RemovePermissionInput { queue_url: field("QueueUrl"), label: field("Label") }
}

/// Input of the actions that only name a queue (DeleteQueue, PurgeQueue, ListQueueTags).
#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct QueueUrlInput {
    pub queue_url: QueueUrl,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct CreateQueueInput {
    pub queue_name: String,
    pub attributes: Option<Attributes>,
    /// Lower-case on the wire, as in AWS's model.
    pub tags: Option<Attributes>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct ListQueuesInput {
    pub queue_name_prefix: Option<String>,
    pub next_token: Option<String>,
    pub max_results: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct GetQueueUrlInput {
    pub queue_name: String,
    pub queue_owner_a_w_s_account_id: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct GetQueueAttributesInput {
    pub queue_url: QueueUrl,
    pub attribute_names: Option<Vec<String>>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct SetQueueAttributesInput {
    pub queue_url: QueueUrl,
    pub attributes: Attributes,
}

/// A message attribute value: `{"DataType": "String", "StringValue": "..."}`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct MessageAttributeValue {
    pub data_type: String,
    pub string_value: Option<String>,
    /// Base64 on the wire.
    pub binary_value: Option<String>,
}

/// Message attributes by name, sorted (the MD5 of attributes is computed in name order anyway).
pub type MessageAttributes = BTreeMap<String, MessageAttributeValue>;

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct SendMessageInput {
    pub queue_url: QueueUrl,
    pub message_body: Body,
    pub delay_seconds: Option<i64>,
    pub message_attributes: Option<MessageAttributes>,
    pub message_system_attributes: Option<MessageAttributes>,
    pub message_deduplication_id: Option<String>,
    pub message_group_id: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct SendMessageBatchInput {
    pub queue_url: QueueUrl,
    pub entries: Vec<SendMessageBatchEntry>,
}

/// One message of a SendMessageBatch. The members an entry rarely carries are boxed together
/// ([`SendMessageBatchEntryExtras`], absent when none is set), so that ten entries take under
/// 1 KiB: a larger buffer takes glibc's allocator down its slow path on every batch.
#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct SendMessageBatchEntry {
    pub id: String,
    pub message_body: Body,
    pub delay_seconds: Option<i64>,
    /// MessageAttributes, MessageSystemAttributes and MessageDeduplicationId, written in
    /// their place among the members.
    pub extras: Option<Box<SendMessageBatchEntryExtras>>,
    pub message_group_id: Option<String>,
}

/// The members of a [`SendMessageBatchEntry`] that are seldom set.
#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct SendMessageBatchEntryExtras {
    pub message_attributes: Option<MessageAttributes>,
    pub message_system_attributes: Option<MessageAttributes>,
    pub message_deduplication_id: Option<String>,
}

impl SendMessageBatchEntry {
    /// Its MessageAttributes, if any.
    pub fn message_attributes(&self) -> Option<&MessageAttributes> {
        self.extras.as_ref()?.message_attributes.as_ref()
    }

    /// Its MessageDeduplicationId, if any.
    pub fn message_deduplication_id(&self) -> Option<&str> {
        self.extras.as_ref()?.message_deduplication_id.as_deref()
    }

    fn read(mut input: Input) -> Result<Self, serde_json::Error> {
        let (id, message_body, delay_seconds) = (
            input.field("Id")?,
            input.field("MessageBody")?,
            input.optional("DelaySeconds")?,
        );
        let extras = SendMessageBatchEntryExtras {
            message_attributes: input.optional("MessageAttributes")?,
            message_system_attributes: input.optional("MessageSystemAttributes")?,
            message_deduplication_id: input.optional("MessageDeduplicationId")?,
        };
        Ok(SendMessageBatchEntry {
            id,
            message_body,
            delay_seconds,
            // Boxed only when set: most entries have none of them.
            extras: (extras != SendMessageBatchEntryExtras::default()).then(|| Box::new(extras)),
            message_group_id: input.optional("MessageGroupId")?,
        })
    }
}

read_by_hand!(SendMessageBatchEntry);

/// Written with the extras' members in their place, as AWS's shape has them.
impl ToJson for SendMessageBatchEntry {
    fn to_json(&self) -> Value {
        let mut out = Output::default();
        out.field("Id", &self.id);
        out.field("MessageBody", &self.message_body);
        out.optional("DelaySeconds", &self.delay_seconds);
        if let Some(extras) = &self.extras {
            out.optional("MessageAttributes", &extras.message_attributes);
            out.optional("MessageSystemAttributes", &extras.message_system_attributes);
            out.optional("MessageDeduplicationId", &extras.message_deduplication_id);
        }
        out.optional("MessageGroupId", &self.message_group_id);
        out.into()
    }
}

write_by_hand!(SendMessageBatchEntry);

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct ReceiveMessageInput {
    pub queue_url: QueueUrl,
    /// Deprecated by AWS in favour of `MessageSystemAttributeNames`; the union of both applies.
    pub attribute_names: Option<Vec<String>>,
    pub message_system_attribute_names: Option<Vec<String>>,
    pub message_attribute_names: Option<Vec<String>>,
    pub max_number_of_messages: Option<i64>,
    pub visibility_timeout: Option<i64>,
    pub wait_time_seconds: Option<i64>,
    pub receive_request_attempt_id: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct DeleteMessageInput {
    pub queue_url: QueueUrl,
    pub receipt_handle: AnyReceiptHandle,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct DeleteMessageBatchInput {
    pub queue_url: QueueUrl,
    pub entries: Vec<DeleteMessageBatchEntry>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct DeleteMessageBatchEntry {
    pub id: String,
    pub receipt_handle: AnyReceiptHandle,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct ChangeMessageVisibilityInput {
    pub queue_url: QueueUrl,
    pub receipt_handle: AnyReceiptHandle,
    pub visibility_timeout: i64,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct ChangeMessageVisibilityBatchInput {
    pub queue_url: QueueUrl,
    pub entries: Vec<ChangeMessageVisibilityBatchEntry>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct ChangeMessageVisibilityBatchEntry {
    pub id: String,
    pub receipt_handle: AnyReceiptHandle,
    pub visibility_timeout: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct ListDeadLetterSourceQueuesInput {
    pub queue_url: QueueUrl,
    pub next_token: Option<String>,
    pub max_results: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct StartMessageMoveTaskInput {
    pub source_arn: String,
    pub destination_arn: Option<String>,
    pub max_number_of_messages_per_second: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct ListMessageMoveTasksInput {
    pub source_arn: String,
    pub max_results: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct CancelMessageMoveTaskInput {
    pub task_handle: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct TagQueueInput {
    pub queue_url: QueueUrl,
    pub tags: Attributes,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct UntagQueueInput {
    pub queue_url: QueueUrl,
    pub tag_keys: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct AddPermissionInput {
    pub queue_url: QueueUrl,
    pub label: String,
    pub a_w_s_account_ids: Vec<String>,
    pub actions: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
#[allow(missing_docs)]
pub struct RemovePermissionInput {
    pub queue_url: QueueUrl,
    pub label: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_actions_are_sqss_twenty_three_as_aws_spells_them() {
        let mut names = Request::ACTIONS.to_vec();
        names.sort_unstable();
        assert_eq!(
            names,
            [
                "AddPermission",
                "CancelMessageMoveTask",
                "ChangeMessageVisibility",
                "ChangeMessageVisibilityBatch",
                "CreateQueue",
                "DeleteMessage",
                "DeleteMessageBatch",
                "DeleteQueue",
                "GetQueueAttributes",
                "GetQueueUrl",
                "ListDeadLetterSourceQueues",
                "ListMessageMoveTasks",
                "ListQueueTags",
                "ListQueues",
                "PurgeQueue",
                "ReceiveMessage",
                "RemovePermission",
                "SendMessage",
                "SendMessageBatch",
                "SetQueueAttributes",
                "StartMessageMoveTask",
                "TagQueue",
                "UntagQueue",
            ]
        );
        let receive = Request::ReceiveMessage(Default::default());
        assert_eq!(Request::ACTIONS[receive.action_index()], "ReceiveMessage");
    }

    #[test]
    fn ten_send_entries_fit_the_allocators_fast_path() {
        // glibc serves requests up to 1000 bytes from its small bins; larger ones, on every
        // batch, cost several times more (see SendMessageBatchEntry).
        assert!(10 * std::mem::size_of::<SendMessageBatchEntry>() <= 1000);
    }

    /// Every member of every input, written and read back: each member's name checked against
    /// AWS's spelling in the JSON below.
    #[test]
    fn every_input_member_reads_back_what_it_writes() {
        let attributes = serde_json::json!({"a": {"DataType": "String", "StringValue": "x", "BinaryValue": "eA=="}});
        let entry = serde_json::json!({
            "Id": "e1", "MessageBody": "b", "DelaySeconds": 1, "MessageAttributes": attributes,
            "MessageSystemAttributes": attributes, "MessageDeduplicationId": "d", "MessageGroupId": "g"
        });
        let handle = serde_json::json!({"Id": "e1", "ReceiptHandle": "rh", "VisibilityTimeout": 5});
        let mut send = entry.clone();
        send.as_object_mut().unwrap().remove("Id");
        send["QueueUrl"] = "q".into();
        let inputs = [
            (
                "CreateQueue",
                serde_json::json!({"QueueName": "q", "Attributes": {"DelaySeconds": "1"}, "tags": {"t": "v"}}),
            ),
            ("DeleteQueue", serde_json::json!({"QueueUrl": "q"})),
            (
                "ListQueues",
                serde_json::json!({"QueueNamePrefix": "p", "NextToken": "n", "MaxResults": 5}),
            ),
            (
                "GetQueueUrl",
                serde_json::json!({"QueueName": "q", "QueueOwnerAWSAccountId": "1"}),
            ),
            (
                "GetQueueAttributes",
                serde_json::json!({"QueueUrl": "q", "AttributeNames": ["All"]}),
            ),
            (
                "SetQueueAttributes",
                serde_json::json!({"QueueUrl": "q", "Attributes": {"DelaySeconds": "1"}}),
            ),
            ("PurgeQueue", serde_json::json!({"QueueUrl": "q"})),
            ("SendMessage", send),
            (
                "SendMessageBatch",
                serde_json::json!({"QueueUrl": "q", "Entries": [entry]}),
            ),
            (
                "ReceiveMessage",
                serde_json::json!({
                    "QueueUrl": "q", "AttributeNames": ["All"], "MessageSystemAttributeNames": ["SenderId"],
                    "MessageAttributeNames": ["a"], "MaxNumberOfMessages": 2, "VisibilityTimeout": 3,
                    "WaitTimeSeconds": 4, "ReceiveRequestAttemptId": "r"
                }),
            ),
            (
                "DeleteMessage",
                serde_json::json!({"QueueUrl": "q", "ReceiptHandle": "rh"}),
            ),
            (
                "DeleteMessageBatch",
                serde_json::json!({"QueueUrl": "q", "Entries": [{"Id": "e1", "ReceiptHandle": "rh"}]}),
            ),
            (
                "ChangeMessageVisibility",
                serde_json::json!({"QueueUrl": "q", "ReceiptHandle": "rh", "VisibilityTimeout": 5}),
            ),
            (
                "ChangeMessageVisibilityBatch",
                serde_json::json!({"QueueUrl": "q", "Entries": [handle]}),
            ),
            (
                "ListDeadLetterSourceQueues",
                serde_json::json!({"QueueUrl": "q", "NextToken": "n", "MaxResults": 5}),
            ),
            (
                "StartMessageMoveTask",
                serde_json::json!({"SourceArn": "s", "DestinationArn": "d", "MaxNumberOfMessagesPerSecond": 5}),
            ),
            (
                "ListMessageMoveTasks",
                serde_json::json!({"SourceArn": "s", "MaxResults": 5}),
            ),
            (
                "CancelMessageMoveTask",
                serde_json::json!({"TaskHandle": "t"}),
            ),
            (
                "TagQueue",
                serde_json::json!({"QueueUrl": "q", "Tags": {"k": "v"}}),
            ),
            (
                "UntagQueue",
                serde_json::json!({"QueueUrl": "q", "TagKeys": ["k"]}),
            ),
            ("ListQueueTags", serde_json::json!({"QueueUrl": "q"})),
            (
                "AddPermission",
                serde_json::json!({
                    "QueueUrl": "q", "Label": "l", "AWSAccountIds": ["111111111111"],
                    "Actions": ["SendMessage"]
                }),
            ),
            (
                "RemovePermission",
                serde_json::json!({"QueueUrl": "q", "Label": "l"}),
            ),
        ];
        for (action, input) in inputs {
            let request = Request::from_input(action, input.clone()).unwrap();
            assert_eq!(request.action(), action);
            let written = serde_json::to_value(&request).unwrap();
            assert_eq!(written, serde_json::json!({"call": action, "input": input}));
        }
    }

    #[test]
    fn input_errors_are_those_serde_gives() {
        let error = |action: &str, input: Value| {
            Request::from_input(action, input).unwrap_err().to_string()
        };
        let q = || serde_json::json!("q");
        assert_eq!(
            error("SendMessage", serde_json::json!({"QueueUrl": q()})),
            "missing field `MessageBody`"
        );
        assert_eq!(
            error(
                "SendMessage",
                serde_json::json!({"QueueUrl": q(), "MessageBody": "b", "DelaySeconds": "1"})
            ),
            "invalid type: string \"1\", expected i64"
        );
        assert_eq!(
            error(
                "SendMessageBatch",
                serde_json::json!({"QueueUrl": q(), "Entries": [{"Id": "e1"}]})
            ),
            "missing field `MessageBody`"
        );
        assert_eq!(error("ListQueues", Value::Null), "expected a JSON object");
        assert!(error("Explode", serde_json::json!({}))
            .starts_with("unknown variant `Explode`, expected one of `CreateQueue`"));
        // Members an action does not have are left for the script reader to report.
        let request =
            Request::from_input("PurgeQueue", serde_json::json!({"QueueUrl": q(), "X": 1}))
                .unwrap();
        assert_eq!(
            request,
            Request::PurgeQueue(QueueUrlInput {
                queue_url: "q".into()
            })
        );
    }
}
