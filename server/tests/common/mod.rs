//! What the server's tests share: a server of their own on a free port, and raw HTTP/1.1 to it.
// Each test crate uses some of these.
#![allow(dead_code)]

use serde_json::Value;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::mpsc;

/// A server of its own, on a free loopback port.
pub fn start() -> SocketAddr {
    let (ready, address) = mpsc::channel();
    std::thread::spawn(move || {
        let config = sqs_server::Config {
            port: 0,
            account_id: "123456789012".into(),
            region: "eu-west-1".into(),
            ..Default::default()
        };
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime
            .block_on(sqs_server::serve(config, |at| ready.send(at).unwrap()))
            .unwrap();
    });
    address.recv().unwrap()
}

/// An answer: status, headers (names lower-cased), body.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        let found = self.headers.iter().find(|(n, _)| n == name);
        found.map(|(_, value)| value.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

/// Sends one request (`headers` as `Name: value` lines) and reads the whole answer.
pub fn send(at: SocketAddr, method: &str, path: &str, headers: &[&str], body: &[u8]) -> Answer {
    let mut stream = TcpStream::connect(at).unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {at}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for header in headers {
        head.push_str(header);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    // A server may answer before reading a body it refuses: a failed write is not the test's.
    let _ = stream.write_all(body);
    let mut text = Vec::new();
    stream.read_to_end(&mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|line| line.split_once(": "))
        .map(|(n, v)| (n.to_ascii_lowercase(), v.to_string()))
        .collect();
    Answer {
        status,
        headers,
        body: body.into(),
    }
}

/// A JSON-protocol call.
pub fn call(at: SocketAddr, action: &str, input: &Value) -> Answer {
    json_raw(
        at,
        &format!("AmazonSQS.{action}"),
        input.to_string().as_bytes(),
    )
}

pub fn json_raw(at: SocketAddr, target: &str, body: &[u8]) -> Answer {
    let target = format!("X-Amz-Target: {target}");
    let headers = [target.as_str(), "Content-Type: application/x-amz-json-1.0"];
    send(at, "POST", "/", &headers, body)
}

/// A JSON-protocol call signed (in form: signatures are not checked) with access key `key`.
pub fn call_as(at: SocketAddr, key: &str, action: &str, input: &Value) -> Answer {
    let target = format!("X-Amz-Target: AmazonSQS.{action}");
    let authorization = format!(
        "Authorization: AWS4-HMAC-SHA256 Credential={key}/20261202/us-east-1/sqs/aws4_request, SignedHeaders=host, Signature=0"
    );
    let headers = [
        target.as_str(),
        authorization.as_str(),
        "Content-Type: application/x-amz-json-1.0",
    ];
    send(at, "POST", "/", &headers, input.to_string().as_bytes())
}

/// A control API request with a JSON body.
pub fn control(at: SocketAddr, path: &str, body: &Value) -> Answer {
    let headers = ["Content-Type: application/json"];
    send(at, "POST", path, &headers, body.to_string().as_bytes())
}
