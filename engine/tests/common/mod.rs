//! Shared helpers for the engine's integration tests: typed calls with short names, and a state
//! snapshot to show that a failed call changes nothing.
#![allow(dead_code)]

use sqs_engine::api::*;
use sqs_engine::{Engine, Event, Reply, Request, Response, SqsError};

pub struct Sqs {
    pub e: Engine,
}

pub fn attrs(pairs: &[(&str, &str)]) -> Attributes {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

impl Sqs {
    pub fn new() -> Self {
        Sqs { e: Engine::new(42) }
    }

    pub fn at(&mut self, t: u64) -> &mut Self {
        self.e.advance_to(t);
        self
    }

    pub fn call(&mut self, request: Request) -> Result<Response, SqsError> {
        match self.e.call(request) {
            Reply::Done(result) => result,
            Reply::Pending(id) => panic!("unexpected pending poll {id}"),
        }
    }

    pub fn ok(&mut self, request: Request) -> Response {
        self.call(request).unwrap_or_else(|e| panic!("{e}"))
    }

    pub fn err(&mut self, request: Request) -> SqsError {
        self.call(request).expect_err("expected an error")
    }

    /// Asserts that `request` fails with `code` and leaves the engine's state and events as they
    /// were (the contract: a failed call changes nothing).
    pub fn rejects(&mut self, request: Request, code: sqs_engine::ErrorCode) -> SqsError {
        self.e.drain_events();
        let before = self.snapshot();
        let err = self.err(request);
        assert_eq!(err.code, code, "{err}");
        assert_eq!(self.snapshot(), before, "a failed call changed state");
        assert!(
            self.e.drain_events().is_empty(),
            "a failed call emitted events"
        );
        err
    }

    pub fn snapshot(&self) -> String {
        let queues: Vec<_> = self
            .e
            .queue_names()
            .into_iter()
            .map(|n| (self.e.messages(&n), self.e.attributes(&n)))
            .collect();
        format!("{queues:?} {:?}", self.e.next_deadline())
    }

    pub fn create(&mut self, name: &str, pairs: &[(&str, &str)]) -> QueueUrl {
        let request = Request::CreateQueue(CreateQueueInput {
            queue_name: name.into(),
            attributes: Some(attrs(pairs)).filter(|a| !a.is_empty()),
            tags: None,
        });
        match self.ok(request) {
            Response::CreateQueue(out) => out.queue_url,
            other => panic!("{other:?}"),
        }
    }

    pub fn send_input(url: &str, body: &str) -> SendMessageInput {
        SendMessageInput {
            queue_url: url.into(),
            message_body: body.into(),
            ..Default::default()
        }
    }

    pub fn send(&mut self, url: &str, body: &str) -> SendMessageOutput {
        self.send_with(Self::send_input(url, body))
    }

    pub fn send_with(&mut self, input: SendMessageInput) -> SendMessageOutput {
        match self.ok(Request::SendMessage(input)) {
            Response::SendMessage(out) => out,
            other => panic!("{other:?}"),
        }
    }

    /// A FIFO send with explicit group and deduplication ids.
    pub fn send_fifo(&mut self, url: &str, body: &str, group: &str) -> SendMessageOutput {
        self.send_with(SendMessageInput {
            message_group_id: Some(group.into()),
            message_deduplication_id: Some(body.into()),
            ..Self::send_input(url, body)
        })
    }

    pub fn receive_input(url: &str, max: i64) -> ReceiveMessageInput {
        ReceiveMessageInput {
            queue_url: url.into(),
            max_number_of_messages: Some(max),
            message_system_attribute_names: Some(vec!["All".into()]),
            ..Default::default()
        }
    }

    pub fn receive(&mut self, url: &str, max: i64) -> Vec<Message> {
        self.receive_with(Self::receive_input(url, max))
    }

    pub fn receive_with(&mut self, input: ReceiveMessageInput) -> Vec<Message> {
        match self.ok(Request::ReceiveMessage(input)) {
            Response::ReceiveMessage(out) => out.messages.unwrap_or_default(),
            other => panic!("{other:?}"),
        }
    }

    pub fn bodies(&mut self, url: &str, max: i64) -> Vec<String> {
        self.receive(url, max)
            .into_iter()
            .map(|m| m.body.to_string())
            .collect()
    }

    pub fn delete(
        &mut self,
        url: &str,
        handle: impl Into<AnyReceiptHandle>,
    ) -> Result<Response, SqsError> {
        self.call(Request::DeleteMessage(DeleteMessageInput {
            queue_url: url.into(),
            receipt_handle: handle.into(),
        }))
    }

    pub fn cmv_request(url: &str, handle: impl Into<AnyReceiptHandle>, timeout: i64) -> Request {
        Request::ChangeMessageVisibility(ChangeMessageVisibilityInput {
            queue_url: url.into(),
            receipt_handle: handle.into(),
            visibility_timeout: timeout,
        })
    }

    pub fn cmv(
        &mut self,
        url: &str,
        handle: impl Into<AnyReceiptHandle>,
        timeout: i64,
    ) -> Result<Response, SqsError> {
        self.call(Self::cmv_request(url, handle, timeout))
    }

    pub fn attributes(&mut self, url: &str) -> Attributes {
        let request = Request::GetQueueAttributes(GetQueueAttributesInput {
            queue_url: url.into(),
            attribute_names: Some(vec!["All".into()]),
        });
        match self.ok(request) {
            Response::GetQueueAttributes(out) => out.attributes.unwrap_or_default(),
            other => panic!("{other:?}"),
        }
    }

    /// (visible, not visible, delayed).
    pub fn counts(&mut self, url: &str) -> (String, String, String) {
        let a = self.attributes(url);
        (
            a["ApproximateNumberOfMessages"].clone(),
            a["ApproximateNumberOfMessagesNotVisible"].clone(),
            a["ApproximateNumberOfMessagesDelayed"].clone(),
        )
    }

    pub fn set(&mut self, url: &str, pairs: &[(&str, &str)]) -> Result<Response, SqsError> {
        self.call(Request::SetQueueAttributes(SetQueueAttributesInput {
            queue_url: url.into(),
            attributes: attrs(pairs),
        }))
    }

    pub fn events(&mut self) -> Vec<Event> {
        self.e.drain_events()
    }
}

pub fn counts(v: usize, nv: usize, d: usize) -> (String, String, String) {
    (v.to_string(), nv.to_string(), d.to_string())
}
