//! `sqs-sim serve --data-dir`: state that survives a `kill -9`, the clock resuming where it
//! stopped, a reset that clears the directory, a directory of another format refused.

mod common;

use common::{call, call_as, control, events, follow, send, steps};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A `sqs-sim serve --data-dir DIR` process, and what it printed before listening.
struct Durable {
    child: Child,
    at: SocketAddr,
    printed: Vec<String>,
}

impl Durable {
    fn start(dir: &Path) -> Durable {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sqs-sim"))
            .args(["serve", "--port", "0", "--speed", "1", "--data-dir"])
            .arg(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut printed = Vec::new();
        for line in BufReader::new(child.stdout.take().unwrap()).lines() {
            let line = line.unwrap();
            if let Some(at) = line.strip_prefix("listening on http://") {
                let at = at.parse().unwrap();
                return Durable { child, at, printed };
            }
            printed.push(line);
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!("the server did not start: {printed:?}");
    }

    /// SIGKILL, as a crash or `kill -9` would.
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// SIGTERM, as `docker stop` sends: the server stops by itself.
    fn terminate(mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(sent.success());
        self.child.wait().unwrap()
    }

    fn state(&self) -> Value {
        send(self.at, "GET", "/_sqs-sim/state", &[], b"").json()
    }
}

/// A test that fails midway does not leave its server running.
impl Drop for Durable {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn queue_url(at: SocketAddr) -> String {
    let created = call(at, "CreateQueue", &json!({"QueueName": "kept"})).json();
    created["QueueUrl"].as_str().unwrap().to_string()
}

#[test]
fn a_killed_server_starts_again_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let server = Durable::start(dir.path());
    assert!(
        server.printed[0].contains("(new, --fsync second)"),
        "{:?}",
        server.printed
    );
    let url = queue_url(server.at);
    for body in ["one", "two"] {
        let sent = call(
            server.at,
            "SendMessage",
            &json!({"QueueUrl": url, "MessageBody": body}),
        );
        assert_eq!(sent.status, 200, "{}", sent.body);
    }
    control(server.at, "/_sqs-sim/clock", &json!({"advance": 100}));
    let received = call(server.at, "ReceiveMessage", &json!({"QueueUrl": url})).json();
    let handle = received["Messages"][0]["ReceiptHandle"].clone();
    server.kill();

    let server = Durable::start(dir.path());
    let report = &server.printed[0];
    assert!(report.contains("restarted in"), "{report}");
    assert!(report.contains("with 1 queue and 2 messages"), "{report}");
    let state = server.state();
    // The clock resumed past the 100 s jump, and the received message is still in flight.
    assert!(state["now_ms"].as_u64().unwrap() >= 100_000, "{state}");
    let queue = &state["queues"][0];
    assert_eq!(
        (queue["visible"].as_u64(), queue["in_flight"].as_u64()),
        (Some(1), Some(1))
    );
    // Its receipt handle is still the latest: the delete takes it.
    let deleted = call(
        server.at,
        "DeleteMessage",
        &json!({"QueueUrl": url, "ReceiptHandle": handle}),
    );
    assert_eq!(deleted.status, 200, "{}", deleted.body);
    server.kill();

    let server = Durable::start(dir.path());
    assert_eq!(server.state()["queues"][0]["in_flight"], 0);
    let reset = control(server.at, "/_sqs-sim/reset", &json!({})).json();
    assert_eq!(reset["data_dir"]["cleared"], true, "{reset}");
    server.kill();
    let server = Durable::start(dir.path());
    assert_eq!(server.state()["queues"], json!([]));
    server.kill();
}

#[test]
fn a_directory_of_another_format_is_refused_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("journal-000000000000.log"), b"not ours").unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_sqs-sim"))
        .args(["serve", "--port", "0", "--data-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("not a file of a sqs-sim data directory"),
        "{stderr}"
    );
    assert!(stderr.contains("--data-dir"), "{stderr}");
}

#[test]
fn a_queue_of_another_region_comes_back_in_its_region() {
    let dir = tempfile::tempdir().unwrap();
    let server = Durable::start(dir.path());
    // call_as signs for eu-west-1; the server's own region is us-east-1.
    let input = json!({"QueueName": "abroad"});
    let created = call_as(server.at, "AKIDEXAMPLE", "CreateQueue", &input);
    assert_eq!(created.status, 200, "{}", created.body);
    server.kill();

    let server = Durable::start(dir.path());
    let listed = |signed: bool| {
        let answer = match signed {
            true => call_as(server.at, "AKIDEXAMPLE", "ListQueues", &json!({})),
            false => call(server.at, "ListQueues", &json!({})),
        };
        answer.json()["QueueUrls"].clone()
    };
    let abroad = listed(true);
    assert!(abroad[0].as_str().unwrap().ends_with("/abroad"), "{abroad}");
    assert_eq!(listed(false), Value::Null, "the home region has no queue");
    server.kill();
}

#[test]
fn sigterm_stops_the_server_and_keeps_its_state() {
    let dir = tempfile::tempdir().unwrap();
    let server = Durable::start(dir.path());
    let url = queue_url(server.at);
    let input = json!({"QueueUrl": url, "MessageBody": "kept"});
    assert_eq!(call(server.at, "SendMessage", &input).status, 200);
    let status = server.terminate();
    assert!(status.success(), "{status}");
    let server = Durable::start(dir.path());
    let report = &server.printed[0];
    assert!(report.contains("with 1 queue and 1 message"), "{report}");
    server.kill();
}

#[test]
fn a_page_that_connects_after_a_restart_follows_the_state_recovered() {
    let dir = tempfile::tempdir().unwrap();
    let server = Durable::start(dir.path());
    let url = queue_url(server.at);
    for body in ["one", "two"] {
        let input = json!({"QueueUrl": url, "MessageBody": body});
        assert_eq!(call(server.at, "SendMessage", &input).status, 200);
    }
    let receive = json!({"QueueUrl": url, "MaxNumberOfMessages": 1, "VisibilityTimeout": 600});
    let received = call(server.at, "ReceiveMessage", &receive);
    assert_eq!(received.json()["Messages"].as_array().unwrap().len(), 1);
    server.kill();

    let server = Durable::start(dir.path());
    let told = events(server.at, None, |e| e.iter().any(|e| e.name != "hello"));
    assert!(told[0].data.get("start").is_some(), "{:?}", told[0]);
    let depth = |world: &sqs_sim::World| {
        let depth = world.queue_depth("kept");
        (depth["visible"], depth["in_flight"])
    };
    assert_eq!(depth(&follow(&told)), (1, 1), "not an empty copy");
    // It goes on following the calls after the restart.
    let input = json!({"QueueUrl": url, "MessageBody": "three"});
    assert_eq!(call(server.at, "SendMessage", &input).status, 200);
    let last = told.last().unwrap().id.clone();
    let mut all = told;
    all.extend(events(server.at, Some(&last), |e| !steps(e).is_empty()));
    assert_eq!(depth(&follow(&all)), (2, 1));
    server.kill();
}
