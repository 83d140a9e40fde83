//! A look at every stored message with all that a receive could show of it, without receiving
//! it: for a test or a tool that must see a queue without changing it.

use crate::api::{Attributes, MessageAttributes};
use crate::message::{received, Selection};
use crate::view::MessageView;
use crate::{Engine, Namespace};

/// One stored message, its state and everything a receive asking for `All` would show.
#[derive(Clone, Debug, PartialEq)]
pub struct MessageDetails {
    /// MessageId, body, state (with its deadline), receive count, group.
    pub view: MessageView,
    /// MD5OfBody.
    pub md5_of_body: String,
    /// The system attributes (SentTimestamp, ApproximateReceiveCount, SequenceNumber, ...).
    pub attributes: Attributes,
    /// The message attributes.
    pub message_attributes: MessageAttributes,
    /// MD5OfMessageAttributes, when it has any.
    pub md5_of_message_attributes: Option<String>,
}

impl Engine {
    /// The stored messages of queue `name` (delayed, visible and in flight), oldest first, with
    /// their attributes; `None`: no such queue. Reads only: no receive count, receipt handle or
    /// state changes.
    pub fn message_details(&self, name: &str) -> Option<Vec<MessageDetails>> {
        self.message_details_in(&Namespace::DEFAULT, name)
    }

    /// [`Engine::message_details`] of the queue `name` in `namespace`.
    pub fn message_details_in(
        &self,
        namespace: &Namespace,
        name: &str,
    ) -> Option<Vec<MessageDetails>> {
        let q = self.named_in(namespace, name)?;
        let all = Selection::new(vec!["All".into()], vec!["All".into()]);
        let details = q
            .oldest_first()
            .zip(self.messages_in(namespace, name))
            .map(|((slot, msg), view)| {
                let shown = received(msg, self.handle_of(q, slot), &all);
                MessageDetails {
                    view,
                    md5_of_body: shown.md5_of_body.to_string(),
                    attributes: shown.attributes.unwrap_or_default(),
                    message_attributes: shown.message_attributes.unwrap_or_default(),
                    md5_of_message_attributes: shown.md5_of_message_attributes,
                }
            })
            .collect();
        Some(details)
    }
}

#[cfg(test)]
mod tests {
    use super::MessageDetails;
    use crate::{Engine, Namespace, Reply, Request};
    use serde_json::json;

    fn call(engine: &mut Engine, action: &str, input: serde_json::Value) -> Reply {
        engine.call(Request::from_input(action, input).unwrap())
    }

    #[test]
    fn details_show_every_message_and_its_attributes_without_changing_it() {
        let mut engine = Engine::new(7);
        call(&mut engine, "CreateQueue", json!({"QueueName": "q"}));
        let url = engine.queue_url("q").unwrap().to_string();
        let attribute = json!({"k": {"DataType": "String", "StringValue": "v"}});
        let send = json!({"QueueUrl": url, "MessageBody": "a", "MessageAttributes": attribute});
        call(&mut engine, "SendMessage", send);
        call(
            &mut engine,
            "SendMessage",
            json!({"QueueUrl": url, "MessageBody": "b", "DelaySeconds": 5}),
        );
        call(&mut engine, "ReceiveMessage", json!({"QueueUrl": url}));
        let before = engine.message_details("q").unwrap();
        assert_eq!(before.len(), 2);
        let a = &before[0];
        assert_eq!(a.view.body, "a");
        assert_eq!(a.view.receive_count, 1);
        assert!(matches!(
            a.view.state,
            crate::view::MessageState::InFlight { until: 30_000, .. }
        ));
        assert_eq!(a.attributes["ApproximateReceiveCount"], "1");
        assert!(a.attributes.contains_key("SentTimestamp"));
        assert_eq!(a.message_attributes["k"].string_value.as_deref(), Some("v"));
        assert!(a.md5_of_message_attributes.is_some());
        assert_eq!(a.md5_of_body, "0cc175b9c0f1b6a831c399e269772661");
        assert!(matches!(
            before[1].view.state,
            crate::view::MessageState::Delayed { until: 5_000 }
        ));
        assert!(before[1].message_attributes.is_empty());
        assert_eq!(
            engine.message_details("q").unwrap(),
            before,
            "looking changes nothing"
        );
        assert_eq!(engine.message_details("nope"), None);
    }

    /// The default namespace's queues are looked at whatever namespace the last call was
    /// made in; another namespace's, by naming it.
    #[test]
    fn details_look_in_the_namespace_named() {
        let mut engine = Engine::new(7);
        let ireland = Namespace::new("000000000000", "eu-west-1");
        call(&mut engine, "CreateQueue", json!({"QueueName": "q"}));
        let url = engine.queue_url("q").unwrap().to_string();
        call(
            &mut engine,
            "SendMessage",
            json!({"QueueUrl": url, "MessageBody": "home"}),
        );
        let create = Request::from_input("CreateQueue", json!({"QueueName": "other"})).unwrap();
        engine.call_in(&ireland, create);
        let bodies = |details: Option<Vec<MessageDetails>>| {
            details.map(|d| d.into_iter().map(|m| m.view.body).collect::<Vec<_>>())
        };
        assert_eq!(
            bodies(engine.message_details("q")),
            Some(vec!["home".into()])
        );
        assert_eq!(bodies(engine.message_details("other")), None);
        assert_eq!(
            bodies(engine.message_details_in(&ireland, "other")),
            Some(vec![])
        );
        assert_eq!(bodies(engine.message_details_in(&ireland, "q")), None);
        assert_eq!(engine.namespaces(), [ireland.clone(), Namespace::DEFAULT]);
        assert_eq!(engine.depths_in(&ireland), [("other", [0, 0, 0])]);
        assert!(engine.attributes_in(&ireland, "other").is_some());
        // By name in a namespace: its names, a queue's URL (which names its region) and depth.
        assert_eq!(engine.queue_names_in(&ireland), ["other"]);
        assert_eq!(
            engine.queue_url_in(&ireland, "other").unwrap().to_string(),
            "https://sqs.eu-west-1.amazonaws.com/000000000000/other"
        );
        assert_eq!(engine.depth_in(&ireland, "other"), Some([0, 0, 0]));
        assert_eq!(engine.depth_in(&ireland, "q"), None);
        // Everywhere: the messages stored and their bodies.
        let other = engine.queue_url_in(&ireland, "other").unwrap().to_string();
        let send = json!({"QueueUrl": other, "MessageBody": "abroad"});
        engine.call_in(&ireland, Request::from_input("SendMessage", send).unwrap());
        assert_eq!(engine.stored_messages(), 2);
        assert_eq!(engine.queue_count(), 2);
        assert!(engine.has_queues_in(&ireland));
        assert!(!engine.has_queues_in(&Namespace::new("000000000000", "ap-south-1")));
        let mut bodies: Vec<&str> = engine.stored_bodies().map(|(_, body)| body).collect();
        bodies.sort_unstable();
        assert_eq!(bodies, ["abroad", "home"]);
    }
}
