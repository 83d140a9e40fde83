//! The query protocol (older SDKs, AWS CLI v1 with an older botocore): form-encoded
//! `Action=…&Version=2012-11-05&…` parameters in the body or the URL, XML answers and
//! `<ErrorResponse>` errors.
//!
//! Parameters are read into the JSON protocol's members (`Attribute.1.Name` / `Attribute.1.Value`
//! become `Attributes`, `SendMessageBatchRequestEntry.2.Id` the second of `Entries`, …), so both
//! protocols share one path into the engine; answers are the JSON answer written as XML.

use crate::wire::WireError;
use serde_json::{Map, Value};
use sqs_engine::{ErrorCode, Request};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The XML namespace of SQS's answers.
const NAMESPACE: &str = "http://queue.amazonaws.com/doc/2012-11-05/";

/// Members whose values are integers (all others are strings).
const INTEGERS: &[&str] = &[
    "DelaySeconds",
    "MaxNumberOfMessages",
    "VisibilityTimeout",
    "WaitTimeSeconds",
    "MaxResults",
    "MaxNumberOfMessagesPerSecond",
];

/// Flattened lists of strings: the parameter's name and the member's.
const LISTS: &[(&str, &str)] = &[
    ("AttributeName", "AttributeNames"),
    ("MessageAttributeName", "MessageAttributeNames"),
    ("MessageSystemAttributeName", "MessageSystemAttributeNames"),
    ("TagKey", "TagKeys"),
    ("AWSAccountId", "AWSAccountIds"),
    ("ActionName", "Actions"),
];

/// Flattened lists of batch entries (each becomes an entry of `Entries`).
const ENTRIES: &[&str] = &[
    "SendMessageBatchRequestEntry",
    "DeleteMessageBatchRequestEntry",
    "ChangeMessageVisibilityBatchRequestEntry",
];

/// Flattened maps: the parameter's name, the member's, and the key and value parameters' names.
/// `Tag.N.Key` is CreateQueue's lower-case `tags`, and TagQueue's `Tags` ([`TAGS_MEMBER`]).
const MAPS: &[(&str, &str, &str, &str)] = &[
    ("Attribute", "Attributes", "Name", "Value"),
    ("Tag", "tags", "Key", "Value"),
    ("MessageAttribute", "MessageAttributes", "Name", "Value"),
    (
        "MessageSystemAttribute",
        "MessageSystemAttributes",
        "Name",
        "Value",
    ),
];

/// The actions whose answer has no members: written without a `<{Action}Result>` element (every
/// other answer has one, empty or not: SDKs look for it).
const NO_RESULT: &[&str] = &[
    "DeleteQueue",
    "SetQueueAttributes",
    "PurgeQueue",
    "DeleteMessage",
    "ChangeMessageVisibility",
    "TagQueue",
    "UntagQueue",
    "AddPermission",
    "RemovePermission",
];

/// TagQueue's member for the `Tag.N.Key` map (CreateQueue's is `tags`).
const TAGS_MEMBER: (&str, &str) = ("TagQueue", "Tags");

/// QueueDoesNotExist as the query protocol words it (the JSON protocol's message lacks the
/// last words) [LS-snap:test_non_existent_queue; moto:test_tag_queue_errors].
const NO_QUEUE: &str = "The specified queue does not exist for this wsdl version.";

/// Parameter names as `A.1.B` paths, read into a tree.
#[derive(Debug)]
enum Node {
    Leaf(String),
    Branch(BTreeMap<String, Node>),
}

impl Node {
    fn insert(&mut self, path: &str, value: String) {
        let Node::Branch(members) = self else { return };
        match path.split_once('.') {
            None => {
                members.entry(path.into()).or_insert(Node::Leaf(value));
            }
            Some((head, rest)) => members
                .entry(head.into())
                .or_insert_with(|| Node::Branch(BTreeMap::new()))
                .insert(rest, value),
        }
    }

    /// A flattened list's items (`.1`, `.2`, …) in index order; a leaf is a list of one.
    fn items(&self) -> Vec<&Node> {
        match self {
            Node::Leaf(_) => vec![self],
            Node::Branch(members) => {
                let mut items: Vec<(u64, &Node)> = members
                    .iter()
                    .filter_map(|(index, node)| Some((index.parse().ok()?, node)))
                    .collect();
                items.sort_by_key(|(index, _)| *index);
                items.into_iter().map(|(_, node)| node).collect()
            }
        }
    }

    fn text(&self) -> Option<&str> {
        match self {
            Node::Leaf(text) => Some(text),
            Node::Branch(_) => None,
        }
    }

    fn member(&self, name: &str) -> Option<&Node> {
        match self {
            Node::Branch(members) => members.get(name),
            Node::Leaf(_) => None,
        }
    }
}

/// The parameters of a query request (`params`: the URL's and the body's, in order) as the
/// action they name and its members.
pub fn parse(params: Vec<(String, String)>) -> Result<(&'static str, Value), WireError> {
    let mut action = None;
    let mut tree = Node::Branch(BTreeMap::new());
    for (name, value) in params {
        if name == "Action" {
            action = Some(value);
        } else {
            tree.insert(&name, value);
        }
    }
    let name = action.unwrap_or_default();
    let action = Request::ACTIONS
        .iter()
        .find(|known| **known == name)
        .ok_or_else(|| WireError::unknown_action(&name))?;
    let mut input = members(&tree)?;
    if *action == TAGS_MEMBER.0 {
        if let Some(tags) = input.remove("tags") {
            input.insert(TAGS_MEMBER.1.into(), tags);
        }
    }
    Ok((action, Value::Object(input)))
}

/// A branch's parameters as JSON members.
fn members(node: &Node) -> Result<Map<String, Value>, WireError> {
    let mut out = Map::new();
    let Node::Branch(params) = node else {
        return Ok(out);
    };
    for (name, node) in params {
        let name = name.as_str();
        // An empty list or map is sent as its member's name with an empty value (`Entries=`).
        if node.text() == Some("") {
            let lists = LISTS.iter().map(|l| l.1).chain(["Entries"]);
            if lists.clone().any(|member| member == name) {
                out.insert(name.into(), Value::Array(Vec::new()));
                continue;
            }
            if MAPS.iter().any(|m| m.1 == name) {
                out.insert(name.into(), Value::Object(Map::new()));
                continue;
            }
        }
        if let Some((_, member)) = LISTS.iter().find(|(param, _)| *param == name) {
            let items = node.items().into_iter().filter_map(Node::text);
            out.insert((*member).into(), items.map(Value::from).collect());
        } else if ENTRIES.contains(&name) {
            let entries = node.items().into_iter().map(members);
            let entries = entries.map(|e| e.map(Value::Object));
            out.insert("Entries".into(), entries.collect::<Result<_, _>>()?);
        } else if let Some((_, member, key, value)) = MAPS.iter().find(|m| m.0 == name) {
            let mut map = Map::new();
            for item in node.items() {
                let (Some(k), Some(v)) = (item.member(key), item.member(value)) else {
                    continue;
                };
                let v = match v {
                    Node::Leaf(text) => Value::from(text.as_str()),
                    branch => Value::Object(members(branch)?),
                };
                map.insert(k.text().unwrap_or_default().into(), v);
            }
            out.insert((*member).into(), Value::Object(map));
        } else if let Some(text) = node.text() {
            let value = if INTEGERS.contains(&name) {
                let number: i64 = text.trim().parse().map_err(|_| {
                    WireError::invalid_parameter(format!(
                        "Value {text} for parameter {name} is invalid. Reason: must be an integer."
                    ))
                })?;
                Value::from(number)
            } else {
                Value::from(text)
            };
            out.insert(name.into(), value);
        }
    }
    Ok(out)
}

/// The answer to `action` as SQS writes it.
/// A result without members is written as an empty element, `<ReceiveMessageResult/>`.
pub fn response_body(action: &str, output: &Value, request_id: &str) -> Vec<u8> {
    let mut xml = format!("<?xml version=\"1.0\"?><{action}Response xmlns=\"{NAMESPACE}\">");
    if !NO_RESULT.contains(&action) {
        match output {
            Value::Object(members) if !members.is_empty() => {
                let _ = write!(xml, "<{action}Result>");
                write_members(&mut xml, action, members);
                let _ = write!(xml, "</{action}Result>");
            }
            _ => {
                let _ = write!(xml, "<{action}Result/>");
            }
        }
    }
    let _ = write!(
        xml,
        "<ResponseMetadata><RequestId>{request_id}</RequestId></ResponseMetadata></{action}Response>"
    );
    xml.into_bytes()
}

/// An error as SQS writes it.
pub fn error_body(error: &WireError, request_id: &str) -> Vec<u8> {
    let fault = if error.status >= 500 {
        "Receiver"
    } else {
        "Sender"
    };
    let no_queue = ErrorCode::QueueDoesNotExist.query_code();
    let message = if error.code == no_queue {
        NO_QUEUE
    } else {
        &error.message
    };
    format!(
        "<?xml version=\"1.0\"?><ErrorResponse xmlns=\"{NAMESPACE}\"><Error><Type>{fault}</Type>\
         <Code>{}</Code><Message>{}</Message><Detail/></Error><RequestId>{request_id}</RequestId>\
         </ErrorResponse>",
        escape(&error.code),
        escape(message)
    )
    .into_bytes()
}

/// Writes JSON members as the query protocol's elements: lists flattened (one element per
/// item, named as SQS names them), maps as `<Attribute><Name/><Value/></Attribute>` items.
fn write_members(xml: &mut String, action: &str, members: &Map<String, Value>) {
    for (name, value) in members {
        match (name.as_str(), value) {
            ("Attributes", Value::Object(map)) => write_map(xml, action, "Attribute", map),
            ("Tags", Value::Object(map)) => {
                for (key, value) in map {
                    let _ = write!(xml, "<Tag><Key>{}</Key>", escape(key));
                    write_element(xml, action, "Value", value);
                    let _ = write!(xml, "</Tag>");
                }
            }
            ("MessageAttributes", Value::Object(map)) => {
                write_map(xml, action, "MessageAttribute", map)
            }
            (_, Value::Array(items)) => {
                let element = match name.as_str() {
                    "QueueUrls" | "queueUrls" => "QueueUrl",
                    "Messages" => "Message",
                    "Failed" => "BatchResultErrorEntry",
                    "Results" => "ListMessageMoveTasksResultEntry",
                    "Successful" => match action {
                        "SendMessageBatch" => "SendMessageBatchResultEntry",
                        "DeleteMessageBatch" => "DeleteMessageBatchResultEntry",
                        _ => "ChangeMessageVisibilityBatchResultEntry",
                    },
                    other => other,
                };
                for item in items {
                    write_element(xml, action, element, item);
                }
            }
            _ => write_element(xml, action, name, value),
        }
    }
}

fn write_map(xml: &mut String, action: &str, element: &str, map: &Map<String, Value>) {
    for (key, value) in map {
        let _ = write!(xml, "<{element}><Name>{}</Name>", escape(key));
        write_element(xml, action, "Value", value);
        let _ = write!(xml, "</{element}>");
    }
}

fn write_element(xml: &mut String, action: &str, name: &str, value: &Value) {
    let _ = write!(xml, "<{name}>");
    match value {
        Value::Object(members) => write_members(xml, action, members),
        Value::String(text) => xml.push_str(&escape(text)),
        Value::Null => {}
        other => {
            let _ = write!(xml, "{other}");
        }
    }
    let _ = write!(xml, "</{name}>");
}

/// Text as XML character data; a carriage return as a reference, so that XML's line-end
/// normalisation does not turn `\r\n` into `\n` (the body's MD5 would no longer match).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\r' => out.push_str("&#xD;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn params(text: &str) -> Vec<(String, String)> {
        form_urlencoded::parse(text.as_bytes())
            .into_owned()
            .collect()
    }

    #[test]
    fn flattened_parameters_become_the_json_members() {
        let (action, input) = parse(params(
            "Action=SendMessageBatch&Version=2012-11-05&QueueUrl=u\
             &SendMessageBatchRequestEntry.2.Id=b&SendMessageBatchRequestEntry.2.MessageBody=y\
             &SendMessageBatchRequestEntry.10.Id=c&SendMessageBatchRequestEntry.10.MessageBody=z\
             &SendMessageBatchRequestEntry.1.Id=a&SendMessageBatchRequestEntry.1.MessageBody=x\
             &SendMessageBatchRequestEntry.1.DelaySeconds=5\
             &SendMessageBatchRequestEntry.1.MessageAttribute.1.Name=n\
             &SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.DataType=String\
             &SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.StringValue=v",
        ))
        .unwrap();
        assert_eq!(action, "SendMessageBatch");
        assert_eq!(
            input,
            json!({"QueueUrl": "u", "Version": "2012-11-05", "Entries": [
                {"Id": "a", "MessageBody": "x", "DelaySeconds": 5,
                 "MessageAttributes": {"n": {"DataType": "String", "StringValue": "v"}}},
                {"Id": "b", "MessageBody": "y"},
                {"Id": "c", "MessageBody": "z"},
            ]})
        );
        let (_, input) = parse(params(
            "Action=CreateQueue&QueueName=q&Attribute.1.Name=DelaySeconds&Attribute.1.Value=3\
             &Tag.1.Key=team&Tag.1.Value=a",
        ))
        .unwrap();
        assert_eq!(
            input,
            json!({"QueueName": "q", "Attributes": {"DelaySeconds": "3"}, "tags": {"team": "a"}})
        );
        let (_, input) = parse(params(
            "Action=ReceiveMessage&AttributeName.1=All&WaitTimeSeconds=2",
        ))
        .unwrap();
        assert_eq!(
            input,
            json!({"AttributeNames": ["All"], "WaitTimeSeconds": 2})
        );
    }

    #[test]
    fn an_unknown_action_or_a_mistyped_integer_is_refused() {
        let error = parse(params("Action=Explode")).unwrap_err();
        assert_eq!((error.code.as_str(), error.status), ("InvalidAction", 400));
        let error = parse(params("Action=SendMessage&DelaySeconds=soon")).unwrap_err();
        assert_eq!(error.code, "InvalidParameterValue");
    }

    #[test]
    fn answers_are_written_with_flattened_lists_and_maps() {
        let output = json!({"Messages": [{"MessageId": "m", "Body": "a<b\r\n",
            "Attributes": {"SenderId": "s"},
            "MessageAttributes": {"n": {"DataType": "String", "StringValue": "v"}}}]});
        let xml = String::from_utf8(response_body("ReceiveMessage", &output, "r")).unwrap();
        assert_eq!(
            xml,
            format!(
                "<?xml version=\"1.0\"?><ReceiveMessageResponse xmlns=\"{NAMESPACE}\"><ReceiveMessageResult>\
                 <Message><Attributes_placeholder/></Message></ReceiveMessageResult>\
                 <ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></ReceiveMessageResponse>"
            )
            .replace(
                "<Attributes_placeholder/>",
                "<Attribute><Name>SenderId</Name><Value>s</Value></Attribute><Body>a&lt;b&#xD;\n</Body>\
                 <MessageAttribute><Name>n</Name><Value><DataType>String</DataType><StringValue>v</StringValue></Value></MessageAttribute>\
                 <MessageId>m</MessageId>"
            )
        );
        let empty = String::from_utf8(response_body("DeleteMessage", &json!({}), "r")).unwrap();
        assert!(empty.contains("<DeleteMessageResponse") && !empty.contains("Result"));
        let none = String::from_utf8(response_body("ReceiveMessage", &json!({}), "r")).unwrap();
        assert!(none.contains("<ReceiveMessageResponse xmlns=\"http://queue.amazonaws.com/doc/2012-11-05/\"><ReceiveMessageResult/><ResponseMetadata>"));
        let tags = json!({"Tags": {"env": "prod", "team": "a&b"}});
        let xml = String::from_utf8(response_body("ListQueueTags", &tags, "r")).unwrap();
        assert!(xml.contains(
            "<ListQueueTagsResult><Tag><Key>env</Key><Value>prod</Value></Tag>\
             <Tag><Key>team</Key><Value>a&amp;b</Value></Tag></ListQueueTagsResult>"
        ));
        let untagged = String::from_utf8(response_body("ListQueueTags", &json!({}), "r")).unwrap();
        assert!(untagged.contains("<ListQueueTagsResult/>"));
        let tagged = String::from_utf8(response_body("TagQueue", &json!({}), "r")).unwrap();
        assert!(tagged.contains("<TagQueueResponse") && !tagged.contains("Result"));
    }

    #[test]
    fn queue_does_not_exist_is_worded_for_the_query_protocol() {
        let no_queue = WireError::from(sqs_engine::SqsError::new(
            ErrorCode::QueueDoesNotExist,
            "The specified queue does not exist.",
        ));
        let xml = String::from_utf8(error_body(&no_queue, "r")).unwrap();
        assert!(xml.contains(
            "<Code>AWS.SimpleQueueService.NonExistentQueue</Code>\
             <Message>The specified queue does not exist for this wsdl version.</Message>"
        ));
        let other = WireError::unknown_action("Explode");
        let xml = String::from_utf8(error_body(&other, "r")).unwrap();
        assert!(
            xml.contains("<Message>The action Explode is not valid for this endpoint.</Message>")
        );
    }

    #[test]
    fn tag_and_permission_parameters_become_the_json_members() {
        let (action, input) = parse(params(
            "Action=TagQueue&QueueUrl=u&Tag.1.Key=team&Tag.1.Value=a&Tag.2.Key=env&Tag.2.Value=",
        ))
        .unwrap();
        assert_eq!(action, "TagQueue");
        assert_eq!(
            input,
            json!({"QueueUrl": "u", "Tags": {"team": "a", "env": ""}})
        );
        let (_, input) = parse(params(
            "Action=UntagQueue&QueueUrl=u&TagKey.1=team&TagKey.2=env",
        ))
        .unwrap();
        assert_eq!(input, json!({"QueueUrl": "u", "TagKeys": ["team", "env"]}));
        let (_, input) = parse(params(
            "Action=AddPermission&QueueUrl=u&Label=l&AWSAccountId.1=111111111111\
             &AWSAccountId.2=222222222222&ActionName.1=SendMessage",
        ))
        .unwrap();
        assert_eq!(
            input,
            json!({"QueueUrl": "u", "Label": "l", "AWSAccountIds": ["111111111111", "222222222222"],
                   "Actions": ["SendMessage"]})
        );
    }
}
