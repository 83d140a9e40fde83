//! A stored message and how ReceiveMessage presents it (semantics §4.1–§4.2).

use crate::api::{self, Attributes, Body, Md5, MessageAttributes, MessageId};
use crate::hash;
use crate::Millis;
use md5::Digest;
use serde::{Deserialize, Serialize};

/// SenderId every message reports: a fixed fake IAM user id.
pub(crate) const SENDER_ID: &str = "AIDAEXAMPLESIMULATOR";

/// Where a message is in its lifecycle (§13.1). `since` drives FIFO group order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum State {
    Delayed { until: Millis },
    Visible { since: Millis },
    InFlight { until: Millis, received_at: Millis },
}

/// What a message keeps besides its body; boxed so that a plain message stays small.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Extras {
    pub attributes: MessageAttributes,
    pub trace_header: Option<String>,
    pub dedup_id: Option<String>,
    /// DeadLetterQueueSourceArn, once moved to a dead-letter queue.
    pub dlq_source_arn: Option<String>,
}

/// One stored message.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Message {
    pub id: MessageId,
    pub body: Body,
    /// MD5 of the body, formatted as hex only where a response shows it.
    pub md5_of_body: Md5,
    pub extras: Option<Box<Extras>>,
    pub group: Option<String>,
    /// Internal send order (FIFO SequenceNumber and standard tie-break).
    pub seq: u64,
    /// SentTimestamp (kept across a dead-letter move).
    pub sent_at: Millis,
    /// Enqueue time: retention and standard order (reset by a FIFO dead-letter move).
    pub enqueued_at: Millis,
    pub state: State,
    pub receive_count: u32,
    pub first_receive: Option<Millis>,
    /// Receive generation: which receipt handle is the latest.
    pub receipt_gen: u32,
    /// Random part of the latest receipt handle.
    pub receipt_nonce: u64,
    /// ChangeMessageVisibility calls since the last receive (ReceiveRequestAttemptId retries).
    pub visibility_changes: u32,
    /// Knob `duplicate_delivery`: in flight but still receivable by another consumer.
    pub duplicate: bool,
    /// Index of its FIFO group in the queue's group table.
    pub group_slot: u32,
}

impl Message {
    /// A message as it is first stored (sent, redriven or moved): never received, no receipt
    /// handle yet, no extras.
    pub(crate) fn new(
        id: MessageId,
        body: Body,
        md5_of_body: Md5,
        group: Option<String>,
        seq: u64,
        now: Millis,
        state: State,
    ) -> Message {
        Message {
            id,
            body,
            md5_of_body,
            extras: None,
            group,
            seq,
            sent_at: now,
            enqueued_at: now,
            state,
            receive_count: 0,
            first_receive: None,
            receipt_gen: 0,
            receipt_nonce: 0,
            visibility_changes: 0,
            duplicate: false,
            group_slot: 0,
        }
    }

    pub(crate) fn extras(&self) -> Option<&Extras> {
        self.extras.as_deref()
    }

    pub(crate) fn extras_mut(&mut self) -> &mut Extras {
        self.extras.get_or_insert_with(Box::default)
    }

    /// Whether a receive may return it: visible, or in flight but still offered to another
    /// consumer (knob `duplicate_delivery`).
    pub(crate) fn receivable(&self) -> bool {
        matches!(self.state, State::Visible { .. }) || self.duplicate
    }

    pub(crate) fn dedup_id(&self) -> Option<&str> {
        self.extras()?.dedup_id.as_deref()
    }
}

/// The FIFO SequenceNumber: a large, increasing, non-consecutive decimal (§3.4),
/// 18×10¹⁸ + 7,919 × `seq`. Computed in `u64`s, as (`high` × 10⁹ + `low`): formatting a `u128`
/// cost the browser bundle ~900 bytes.
pub(crate) fn sequence_number(seq: u64) -> String {
    const E9: u64 = 1_000_000_000;
    let low = seq % E9 * 7_919;
    let high = 18 * E9 + seq / E9 * 7_919 + low / E9;
    format!("{high}{:09}", low % E9)
}

/// The system attributes a receive can show, each with how its value is built (`None`: the
/// message has none).
type SystemAttribute = (&'static str, fn(&Message) -> Option<String>);

const SYSTEM_ATTRIBUTES: [SystemAttribute; 9] = [
    ("ApproximateFirstReceiveTimestamp", |m| {
        m.first_receive.map(|t| decimal(crate::EPOCH_MS + t))
    }),
    ("ApproximateReceiveCount", |m| {
        Some(decimal(m.receive_count.into()))
    }),
    ("AWSTraceHeader", |m| m.extras()?.trace_header.clone()),
    ("SenderId", |_| Some(SENDER_ID.into())),
    ("SentTimestamp", |m| {
        Some(decimal(crate::EPOCH_MS + m.sent_at))
    }),
    ("MessageDeduplicationId", |m| m.dedup_id().map(String::from)),
    ("MessageGroupId", |m| m.group.clone()),
    // FIFO messages, and only they, carry a deduplication id.
    ("SequenceNumber", |m| {
        m.dedup_id().map(|_| sequence_number(m.seq))
    }),
    ("DeadLetterQueueSourceArn", |m| {
        m.extras()?.dlq_source_arn.clone()
    }),
];

/// `n` in decimal, without the formatting machinery (a worker may ask for the receive count on
/// every receive).
fn decimal(n: u64) -> String {
    itoa::Buffer::new().format(n).to_owned()
}

/// Which system attributes a ReceiveMessage asked for (the union of AttributeNames and
/// MessageSystemAttributeNames, §4.1), and which message attributes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Selection {
    /// Bit `i` set: [`SYSTEM_ATTRIBUTES`]`[i]` was asked for (matched once per receive call,
    /// not once per message and name).
    system: u16,
    message: Vec<String>,
}

impl Selection {
    pub(crate) fn new(system: Vec<String>, message: Vec<String>) -> Self {
        let system = system.iter().fold(0, |mask, asked| {
            let all = asked == "All";
            SYSTEM_ATTRIBUTES
                .iter()
                .enumerate()
                .filter(|(_, (name, _))| all || asked == name)
                .fold(mask, |mask, (i, _)| mask | 1 << i)
        });
        Selection { system, message }
    }

    /// Whether MessageAttributeNames selects the attribute `name` (§4.1, as AWS answered in
    /// LS-snap:test_receive_message_message_attribute_names_filters): `All`, `*` and `.*` select
    /// every name; `foo.*` every name that starts with `foo`, dot or no dot (`Hel.*` selects
    /// `Hello` and `Help.Me`); any other filter only the name equal to it. A filter that is no
    /// legal name (`AWS.`, `..foo`) selects nothing, without an error.
    fn wants_attribute(&self, name: &str) -> bool {
        self.message.iter().any(|filter| {
            filter == "All"
                || filter == "*"
                || filter == name
                || filter
                    .strip_suffix(".*")
                    .is_some_and(|prefix| name.starts_with(prefix))
        })
    }
}

/// Builds the received form of `msg` with `receipt_handle`, showing the selected attributes;
/// MD5OfMessageAttributes is recomputed over the returned subset (§4.1).
pub(crate) fn received(
    msg: &Message,
    receipt_handle: crate::ReceiptHandle,
    sel: &Selection,
) -> api::Message {
    // Inserted one by one, not `collect`ed: collecting into a map compiles a sort into the
    // browser bundle for this one map type. Only the wanted ones are copied.
    let attributes: Option<MessageAttributes> = msg
        .extras()
        .filter(|_| !sel.message.is_empty())
        .map(|e| {
            let mut attributes = MessageAttributes::new();
            for (name, value) in &e.attributes {
                if sel.wants_attribute(name) {
                    attributes.insert(name.clone(), value.clone());
                }
            }
            attributes
        })
        .filter(|a| !a.is_empty());
    api::Message {
        message_id: msg.id,
        receipt_handle,
        md5_of_body: msg.md5_of_body,
        body: msg.body.clone(),
        attributes: system_attributes(msg, sel),
        md5_of_message_attributes: attributes.as_ref().and_then(md5_of_attributes),
        message_attributes: attributes,
    }
}

/// MD5OfMessageAttributes: attributes in name order, each as length-prefixed name, length-prefixed
/// DataType, a transport byte (1 string/number, 2 binary) and the length-prefixed value bytes.
/// `None` for an empty map, since AWS then omits the member. Binary values are already checked
/// to be base64 by validation.
pub(crate) fn md5_of_attributes(attributes: &MessageAttributes) -> Option<String> {
    if attributes.is_empty() {
        return None;
    }
    let mut md5 = md5::Md5::new();
    let put = |md5: &mut md5::Md5, bytes: &[u8]| {
        md5.update((bytes.len() as u32).to_be_bytes());
        md5.update(bytes);
    };
    for (name, value) in attributes {
        put(&mut md5, name.as_bytes());
        put(&mut md5, value.data_type.as_bytes());
        let (transport, bytes) = crate::validate::attribute_value_bytes(value);
        md5.update([transport]);
        put(&mut md5, &bytes);
    }
    Some(hash::hex(&md5.finalize()))
}

/// The system attributes a receive asked for; `None` when none applies (this runs on every
/// receive, and most ask for none).
fn system_attributes(msg: &Message, sel: &Selection) -> Option<Attributes> {
    if sel.system == 0 {
        return None;
    }
    // Inserted one by one, as in `received`: collecting would compile a (stable) sort into the
    // browser bundle for this map type.
    let mut system = Attributes::new();
    for (i, (name, value)) in SYSTEM_ATTRIBUTES.iter().enumerate() {
        if sel.system & 1 << i != 0 {
            if let Some(value) = value(msg) {
                system.insert((*name).into(), value);
            }
        }
    }
    Some(system).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::MessageAttributeValue;

    /// The names MessageAttributeNames `filters` select among `names`.
    fn selected<'a>(filters: &[&str], names: &[&'a str]) -> Vec<&'a str> {
        let sel = Selection::new(vec![], filters.iter().map(|f| f.to_string()).collect());
        names
            .iter()
            .copied()
            .filter(|name| sel.wants_attribute(name))
            .collect()
    }

    #[test]
    fn attribute_filters_as_aws_answered() {
        // LS-snap:test_receive_message_message_attribute_names_filters (§4.1).
        let names = ["General", "Hello", "Help.Me"];
        assert_eq!(selected(&[], &names), [] as [&str; 0]);
        for all in ["All", "*", ".*"] {
            assert_eq!(selected(&[all], &names), names, "{all}");
        }
        assert_eq!(selected(&["Foo", "Help"], &names), [] as [&str; 0]);
        assert_eq!(
            selected(&["Hello", "General"], &names),
            ["General", "Hello"]
        );
        assert_eq!(selected(&["Foo", "Hello"], &names), ["Hello"]);
        assert_eq!(selected(&["Hel.*"], &names), ["Hello", "Help.Me"]);
        assert_eq!(selected(&["AWS."], &names), [] as [&str; 0]);
        assert_eq!(selected(&["..foo"], &names), [] as [&str; 0]);
    }

    #[test]
    fn prefix_filters_match_the_text_before_the_wildcard() {
        // §4.1: every name that starts with the text before `.*`, dot or no dot.
        let names = ["foo", "foo.bar", "foobar", "fo", "xfoo", "Foo.bar"];
        assert_eq!(selected(&["foo.*"], &names), ["foo", "foo.bar", "foobar"]);
        assert_eq!(selected(&["foo..*"], &names), ["foo.bar"]);
        // Case-sensitive, like every attribute name.
        assert_eq!(selected(&["Foo.*"], &names), ["Foo.bar"]);
        // Only a trailing `.*` is a wildcard: other forms are names, matched exactly.
        assert_eq!(selected(&["foo*", "*foo", "f.*o"], &names), [] as [&str; 0]);
        // `all` is not `All`.
        assert_eq!(selected(&["all"], &names), [] as [&str; 0]);
        // Filters add up.
        assert_eq!(
            selected(&["fo.*", "xfoo"], &names),
            ["foo", "foo.bar", "foobar", "fo", "xfoo"]
        );
    }

    #[test]
    fn system_attribute_names_select_by_name_or_all() {
        let names = |asked: &[&str]| {
            let sel = Selection::new(asked.iter().map(|n| n.to_string()).collect(), vec![]);
            let mut msg = Message::new(
                "m".into(),
                Body::default(),
                Md5::default(),
                None,
                1,
                5,
                State::Visible { since: 5 },
            );
            msg.receive_count = 2;
            system_attributes(&msg, &sel).map(|a| a.into_iter().collect::<Vec<_>>())
        };
        assert_eq!(names(&[]), None);
        assert_eq!(names(&["Unknown"]), None);
        // No wildcard or prefix forms, and names are case-sensitive: §4.1 lists only `All` and
        // the names, so anything else selects nothing (the engine's choice; AWS's answer to
        // these is not recorded).
        assert_eq!(
            names(&[".*", "*", "Approximate.*", "all", "senderid"]),
            None
        );
        // Asked for but absent on this message (a standard one, never received before).
        assert_eq!(names(&["MessageGroupId", "AWSTraceHeader"]), None);
        assert_eq!(
            names(&["ApproximateReceiveCount", "ApproximateReceiveCount"]),
            Some(vec![("ApproximateReceiveCount".into(), "2".into())])
        );
        let all = names(&["All"]).unwrap();
        let keys: Vec<&str> = all.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            ["ApproximateReceiveCount", "SenderId", "SentTimestamp"]
        );
    }

    #[test]
    fn sequence_numbers_are_large_and_increasing() {
        assert!(sequence_number(1).len() >= 20);
        assert!(sequence_number(2) > sequence_number(1));
        for seq in (0..2_000).chain([999_999_999, 1_000_000_000, 123_456_789_012, u64::MAX]) {
            let exact = (18_000_000_000_000_000_000u128 + u128::from(seq) * 7_919).to_string();
            assert_eq!(sequence_number(seq), exact, "{seq}");
        }
    }

    fn string_attr(name: &str, data_type: &str, value: &str) -> MessageAttributes {
        let mut map = MessageAttributes::new();
        map.insert(
            name.into(),
            MessageAttributeValue {
                data_type: data_type.into(),
                string_value: Some(value.into()),
                binary_value: None,
            },
        );
        map
    }

    #[test]
    fn attribute_md5_matches_the_reference_vectors() {
        // §3.1 verified vectors.
        let md5 = |m: MessageAttributes| md5_of_attributes(&m).unwrap();
        assert_eq!(
            md5(string_attr("MyAttribute", "String", "foobar")),
            "adb59cd4678ea5a855436b949cd07ab6"
        );
        assert_eq!(
            md5(string_attr("Foo", "String", "Bar")),
            "ae7155c6026991b6d54b11589678bf9c"
        );
        assert_eq!(
            md5(string_attr("timestamp", "Number", "1493147359900")),
            "235c5c510d26fb653d073faed50ae77c"
        );
        assert_eq!(md5_of_attributes(&MessageAttributes::new()), None);
    }
}
