//! SQS actions as data: one request type and one response type per action, with AWS's JSON member
//! names (AWS JSON 1.0 protocol, `X-Amz-Target: AmazonSQS.<Action>`), so that a request serialises
//! exactly as an SDK sends it and a response exactly as SQS answers.
//!
//! A [`Request`] serialises adjacently tagged, `{"call": "SendMessage", "input": {...}}`, which is
//! also the step format of `sqs-sim run` scenario files.
//!
//! Modules: `ids` ([`MessageId`], [`QueueUrl`]), `body` ([`Body`], [`Md5`]), `json` (the JSON
//! readers and writers every type here goes through), `request` ([`Request`] and the inputs),
//! `response` ([`Response`] and the outputs).

use std::collections::BTreeMap;

pub use crate::receipt::{AnyReceiptHandle, ReceiptHandle};

/// A string-to-string attribute map (queue attributes, message system attributes), sorted so that
/// output is deterministic.
pub type Attributes = BTreeMap<String, String>;

/// `impl Serialize` as the text (`Deref<Target = str>`) and `impl Deserialize` from it
/// (`From<&str>`), for the text types that any text makes.
macro_rules! serde_as_text {
    ($($ty:ty),*) => {
        $(impl ::serde::Serialize for $ty {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self)
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $ty {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str>as ::serde::Deserialize>::deserialize(deserializer)?;
                Ok(<$ty>::from(&*text))
            }
        })*
    };
}

mod body;
mod ids;
mod json;
mod request;
mod response;

pub use body::{Body, Md5};
pub use ids::MessageId;
pub use ids::QueueUrl;
pub use json::{split_tagged, FromJson, Input, Output, ToJson};
pub use request::*;
pub use response::*;
