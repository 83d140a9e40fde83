//! Who made a request, and where: the access key id of the request's credentials, as the live
//! view names its lanes (signatures are not checked, so any string works: give each worker its
//! own, `AWS_ACCESS_KEY_ID=billing-worker`), else its address and the first word of its
//! User-Agent (`127.0.0.1 Boto3/1.44.0`); and the region it was signed for
//! ([`signing_region`]), which selects the queues it sees.

use hyper::header::{HeaderMap, AUTHORIZATION, USER_AGENT};
use std::net::IpAddr;

/// The caller's name for the request with these headers, from `peer`.
pub fn client_name(headers: &HeaderMap, query: Option<&str>, peer: IpAddr) -> String {
    let authorization = headers.get(AUTHORIZATION).and_then(|h| h.to_str().ok());
    let key = authorization.and_then(access_key_id).or_else(|| {
        presigned_credential(query)
            .as_deref()
            .and_then(credential_key)
            .map(str::to_string)
    });
    if let Some(key) = key {
        return key;
    }
    let agent = headers
        .get(USER_AGENT)
        .and_then(|h| h.to_str().ok())
        .and_then(|ua| ua.split_whitespace().next())
        .unwrap_or("unknown client");
    format!("{peer} {agent}")
}

/// The region a request was signed for: the third part of its SigV4 credential scope
/// (`Authorization: AWS4-HMAC-SHA256 Credential=AKID/20260101/eu-west-1/sqs/aws4_request, ...`,
/// or a presigned URL's `X-Amz-Credential`). `None` for an unsigned or SigV2 request: the
/// server's `--region` applies ([`crate::addressing::Addressing::inbound`]).
pub fn signing_region(headers: &HeaderMap, query: Option<&str>) -> Option<String> {
    let authorization = headers.get(AUTHORIZATION).and_then(|h| h.to_str().ok());
    let credential = authorization
        .and_then(v4_credential)
        .map(str::to_string)
        .or_else(|| presigned_credential(query))?;
    let region = credential.split('/').nth(2)?.trim();
    let plain = !region.is_empty()
        && region
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-');
    plain.then(|| region.to_string())
}

/// A presigned URL's `X-Amz-Credential`.
fn presigned_credential(query: Option<&str>) -> Option<String> {
    form_urlencoded::parse(query?.as_bytes())
        .find(|(name, _)| name == "X-Amz-Credential")
        .map(|(_, value)| value.into_owned())
}

/// The credential scope of a SigV4 `Authorization` header.
fn v4_credential(authorization: &str) -> Option<&str> {
    // Parts end at a comma or a space (bytes, not chars: this runs for every call).
    let mut rest = authorization;
    loop {
        let end = rest.bytes().position(|b| b == b',' || b == b' ');
        let part = &rest[..end.unwrap_or(rest.len())];
        if let Some(scope) = part.trim().strip_prefix("Credential=") {
            return Some(scope);
        }
        rest = &rest[end? + 1..];
    }
}

/// The access key id of an `Authorization` header: Signature Version 4
/// (`AWS4-HMAC-SHA256 Credential=AKID/20261202/us-east-1/sqs/aws4_request, ...`) or 2
/// (`AWS AKID:signature`).
fn access_key_id(authorization: &str) -> Option<String> {
    if let Some(v2) = authorization.strip_prefix("AWS ") {
        let key = v2.split(':').next()?.trim();
        return (!key.is_empty()).then(|| key.to_string());
    }
    credential_key(v4_credential(authorization)?).map(str::to_string)
}

/// The key of a credential scope `AKID/date/region/service/aws4_request`.
fn credential_key(credential: &str) -> Option<&str> {
    let key = credential.split('/').next()?.trim();
    (!key.is_empty()).then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    fn named(headers: &[(&'static str, &'static str)], query: Option<&str>) -> String {
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            map.insert(*name, HeaderValue::from_static(value));
        }
        client_name(&map, query, "127.0.0.1".parse().unwrap())
    }

    #[test]
    fn a_caller_is_named_by_its_access_key_else_by_address_and_agent() {
        let v4 = "AWS4-HMAC-SHA256 Credential=billing-worker/20261202/us-east-1/sqs/aws4_request, SignedHeaders=host, Signature=ab";
        assert_eq!(named(&[("authorization", v4)], None), "billing-worker");
        assert_eq!(
            named(&[("authorization", "AWS old-key:c2ln")], None),
            "old-key"
        );
        let presigned =
            "Action=ListQueues&X-Amz-Credential=report%2F20261202%2Fus-east-1%2Fsqs%2Faws4_request";
        assert_eq!(named(&[], Some(presigned)), "report");
        let agent = "Boto3/1.44.0 md/Botocore#1.44.0 ua/2.1 os/linux";
        assert_eq!(
            named(&[("user-agent", agent)], None),
            "127.0.0.1 Boto3/1.44.0"
        );
        assert_eq!(named(&[], None), "127.0.0.1 unknown client");
        // A header that names no key falls back to the address.
        assert_eq!(
            named(&[("authorization", "Bearer x")], None),
            "127.0.0.1 unknown client"
        );
    }

    #[test]
    fn the_region_is_the_credential_scopes() {
        let region = |headers: &[(&'static str, &'static str)], query: Option<&str>| {
            let mut map = HeaderMap::new();
            for (name, value) in headers {
                map.insert(*name, HeaderValue::from_static(value));
            }
            signing_region(&map, query)
        };
        let v4 = "AWS4-HMAC-SHA256 Credential=AKID/20260101/eu-west-1/sqs/aws4_request, SignedHeaders=host, Signature=ab";
        assert_eq!(
            region(&[("authorization", v4)], None).as_deref(),
            Some("eu-west-1")
        );
        let presigned =
            "Action=ListQueues&X-Amz-Credential=AKID%2F20260101%2Fap-south-1%2Fsqs%2Faws4_request";
        assert_eq!(region(&[], Some(presigned)).as_deref(), Some("ap-south-1"));
        assert_eq!(region(&[("authorization", "AWS old-key:c2ln")], None), None);
        assert_eq!(region(&[], None), None);
        let odd = "AWS4-HMAC-SHA256 Credential=AKID/20260101/../sqs/aws4_request";
        assert_eq!(region(&[("authorization", odd)], None), None);
    }
}
