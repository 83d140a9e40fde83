//! The SQS actions, one module per family, each an `impl Engine` block.

pub(crate) mod dead_letter;
pub(crate) mod handles;
pub(crate) mod move_tasks;
pub(crate) mod permissions;
pub(crate) mod queues;
pub(crate) mod receive;
pub(crate) mod send;
pub(crate) mod tags;

use crate::error::SqsError;
use crate::validate::BASE64;
use base64::Engine as _;

/// Pages a sorted list of queue URLs (ListQueues, ListDeadLetterSourceQueues): `MaxResults`
/// 1–1000; without it everything (up to 1000) and no token. The token is the base64 offset.
pub(crate) fn paginate(
    urls: Vec<String>,
    max_results: Option<i64>,
    next_token: Option<&str>,
) -> Result<(Vec<String>, Option<String>), SqsError> {
    if let Some(max) = max_results.filter(|m| !(1..=1000).contains(m)) {
        return Err(SqsError::invalid_value(
            "MaxResults",
            &max,
            "MaxResults must be an integer between 1 and 1000.",
        ));
    }
    let start = match next_token {
        None => 0,
        Some(token) => BASE64
            .decode(token)
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
            .and_then(|s| s.parse::<usize>().ok())
            .filter(|&n| n <= urls.len())
            .ok_or_else(|| SqsError::invalid("Invalid NextToken value."))?,
    };
    let page = max_results.unwrap_or(1000) as usize;
    let end = (start + page).min(urls.len());
    let token = (max_results.is_some() && end < urls.len()).then(|| BASE64.encode(end.to_string()));
    Ok((urls[start..end].to_vec(), token))
}
