//! Who made a request, as the live view names its lanes: the access key id of the request's
//! credentials (signatures are not checked, so any string works: give each worker its own,
//! `AWS_ACCESS_KEY_ID=billing-worker`), else its address and the first word of its User-Agent
//! (`127.0.0.1 Boto3/1.44.0`).

use hyper::header::{HeaderMap, AUTHORIZATION, USER_AGENT};
use std::net::IpAddr;

/// The caller's name for the request with these headers, from `peer`.
pub fn client_name(headers: &HeaderMap, query: Option<&str>, peer: IpAddr) -> String {
    let authorization = headers.get(AUTHORIZATION).and_then(|h| h.to_str().ok());
    let presigned = query.and_then(|q| {
        form_urlencoded::parse(q.as_bytes())
            .find(|(name, _)| name == "X-Amz-Credential")
            .map(|(_, value)| value.into_owned())
    });
    let key = authorization.and_then(access_key_id).or_else(|| {
        presigned
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

/// The access key id of an `Authorization` header: Signature Version 4
/// (`AWS4-HMAC-SHA256 Credential=AKID/20261202/us-east-1/sqs/aws4_request, ...`) or 2
/// (`AWS AKID:signature`).
fn access_key_id(authorization: &str) -> Option<String> {
    if let Some(v2) = authorization.strip_prefix("AWS ") {
        let key = v2.split(':').next()?.trim();
        return (!key.is_empty()).then(|| key.to_string());
    }
    let credential = authorization
        .split([',', ' '])
        .find_map(|part| part.trim().strip_prefix("Credential="))?;
    credential_key(credential).map(str::to_string)
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
}
