//! The AWS JSON 1.0 protocol (current SDKs and AWS CLI v2): `POST /` with
//! `X-Amz-Target: AmazonSQS.<Action>` and a JSON body of the action's members; answers are JSON,
//! errors `{"__type": …, "message": …}` with the query code in `x-amzn-query-error`.

use crate::wire::WireError;
use serde_json::Value;
use sqs_engine::Request;

/// The content type of requests and answers.
pub const CONTENT_TYPE: &str = "application/x-amz-json-1.0";

/// The action an `X-Amz-Target` names and the request's members.
pub fn parse(target: &str, body: &[u8]) -> Result<(&'static str, Value), WireError> {
    let name = target.strip_prefix("AmazonSQS.").unwrap_or(target);
    let action = Request::ACTIONS
        .iter()
        .find(|known| **known == name)
        .ok_or_else(|| WireError::unknown_action(name))?;
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok((action, Value::Object(Default::default())));
    }
    match serde_json::from_slice(body) {
        Ok(input @ Value::Object(_)) => Ok((action, input)),
        Ok(_) => Err(WireError::serialization(
            "Start of structure or map expected.",
        )),
        Err(error) => Err(WireError::serialization(format!(
            "The request body is not valid JSON: {error}"
        ))),
    }
}

/// An error's body.
pub fn error_body(error: &WireError) -> Vec<u8> {
    let body = serde_json::json!({"__type": error.shape, "message": error.message});
    serde_json::to_vec(&body).expect("JSON")
}

/// The `x-amzn-query-error` header's value.
pub fn query_error_header(error: &WireError) -> String {
    let fault = if error.status >= 500 {
        "Receiver"
    } else {
        "Sender"
    };
    format!("{};{fault}", error.code)
}
