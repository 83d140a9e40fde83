//! `sqs-sim serve` as a compose file or a test suite starts it: the binary with its flags
//! (declared queues, a seed), `/health`, the message listing, and `--help` on every subcommand.

mod common;

use common::{call, call_as, send, Answer};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};

/// A `sqs-sim serve --port 0 ARGS...` process, stopped when dropped.
struct Server {
    child: Child,
    at: SocketAddr,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        Server::start_with(args, Stdio::null())
    }

    /// [`Server::start`] with its log (stderr) going to `stderr`.
    fn start_with(args: &[&str], stderr: Stdio) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sqs-sim"))
            .args(["serve", "--port", "0"])
            .args(args)
            .env_remove("RUST_LOG")
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let at = line
            .trim()
            .strip_prefix("listening on http://")
            .unwrap_or_else(|| panic!("not the listening line: {line:?}"))
            .parse()
            .unwrap();
        Server { child, at }
    }

    /// SIGTERM, as `docker stop` sends: how it exited, and what it wrote on stderr (if piped).
    fn terminate(mut self) -> (std::process::ExitStatus, String) {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(sent.success());
        let mut log = String::new();
        if let Some(mut stderr) = self.child.stderr.take() {
            stderr.read_to_string(&mut log).unwrap();
        }
        (self.child.wait().unwrap(), log)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn get(at: SocketAddr, path: &str) -> Answer {
    send(at, "GET", path, &[], b"")
}

/// A config file of its own, named `name`, holding `text`.
fn config_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sqs-sim-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const QUEUES: &str = r#"
[queues.orders]
VisibilityTimeout = 45
DelaySeconds = "2"
RedrivePolicy = { deadLetterQueue = "orders-dlq", maxReceiveCount = 5 }
tags = { team = "billing" }

[queues.orders-dlq]
MessageRetentionPeriod = 1209600
RedriveAllowPolicy = { redrivePermission = "byQueue", sourceQueues = ["orders"] }

[queues."jobs.fifo"]
FifoQueue = true
ContentBasedDeduplication = true
"#;

#[test]
fn declared_queues_exist_with_their_attributes_and_come_back_after_a_reset() {
    let file = config_file("queues.toml", QUEUES);
    let server = Server::start(&["--config", file.to_str().unwrap()]);
    let at = server.at;
    let listed = get(at, "/_sqs-sim/queues").json();
    let queues = listed["queues"].as_array().unwrap();
    let names: Vec<&str> = queues.iter().map(|q| q["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["jobs.fifo", "orders", "orders-dlq"]);
    let orders = &queues[1]["attributes"];
    assert_eq!(orders["VisibilityTimeout"], "45");
    assert_eq!(orders["DelaySeconds"], "2");
    let policy: Value = serde_json::from_str(orders["RedrivePolicy"].as_str().unwrap()).unwrap();
    assert_eq!(
        policy,
        json!({"deadLetterTargetArn": "arn:aws:sqs:us-east-1:000000000000:orders-dlq", "maxReceiveCount": 5})
    );
    let dlq = &queues[2]["attributes"];
    assert_eq!(dlq["MessageRetentionPeriod"], "1209600");
    let allow: Value = serde_json::from_str(dlq["RedriveAllowPolicy"].as_str().unwrap()).unwrap();
    assert_eq!(
        allow,
        json!({"redrivePermission": "byQueue", "sourceQueueArns": ["arn:aws:sqs:us-east-1:000000000000:orders"]})
    );
    assert_eq!(queues[0]["attributes"]["FifoQueue"], "true");
    assert_eq!(queues[0]["attributes"]["ContentBasedDeduplication"], "true");
    // An SDK finds them by name, on this server's address.
    let url = call(at, "GetQueueUrl", &json!({"QueueName": "orders"})).json();
    assert_eq!(url["QueueUrl"], format!("http://{at}/000000000000/orders"));
    // A reset starts again from the declared queues.
    call(at, "DeleteQueue", &json!({"QueueUrl": url["QueueUrl"]}));
    let reset = send(
        at,
        "POST",
        "/_sqs-sim/reset",
        &["Content-Type: application/json"],
        b"",
    );
    assert_eq!(reset.status, 200, "{}", reset.body);
    assert_eq!(reset.json()["queues"].as_array().unwrap().len(), 3);
}

#[test]
fn a_bad_config_names_the_queue_and_the_attribute_and_the_server_does_not_start() {
    let cases = [
        (
            "[queues.orders]\nVisibilityTimeout = 99999\n",
            &["\"orders\"", "VisibilityTimeout", "InvalidAttributeValue"][..],
        ),
        (
            "[queues.orders]\nRedrivePolicy = { deadLetterQueue = \"nowhere\", maxReceiveCount = 5 }\n",
            &["\"orders\"", "RedrivePolicy", "\"nowhere\""],
        ),
        (
            "[queues.orders]\nSlowness = \"1\"\n",
            &["\"orders\"", "Slowness"],
        ),
        ("[queues.orders\n", &["bad.toml", "line 1"]),
        ("[queue.orders]\n", &["unknown field `queue`"]),
    ];
    for (text, said) in cases {
        let file = config_file("bad.toml", text);
        let output = Command::new(env!("CARGO_BIN_EXE_sqs-sim"))
            .args(["serve", "--port", "0", "--config", file.to_str().unwrap()])
            .output()
            .unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
        );
        assert_eq!(output.status.code(), Some(2), "{text}: {stderr}");
        assert!(!stdout.contains("listening"), "{text}: {stdout}");
        for words in said {
            assert!(stderr.contains(words), "{text}: {words} not in {stderr}");
        }
    }
}

/// SendMessage of `body` to the queue at `url` (JSON protocol, the server's own region).
fn send_message(at: SocketAddr, url: &Value, body: &str) -> Answer {
    call(
        at,
        "SendMessage",
        &json!({"QueueUrl": url, "MessageBody": body}),
    )
}

/// The same calls on a server: their answers, without the request ids of the JSON protocol's
/// headers (the query protocol's body holds its own).
fn session(at: SocketAddr) -> Vec<String> {
    let created = call(at, "CreateQueue", &json!({"QueueName": "q"})).json();
    let url = created["QueueUrl"].as_str().unwrap().to_string();
    let mut answers = vec![created.to_string()];
    for body in ["one", "two"] {
        answers.push(send_message(at, &json!(url), body).body);
    }
    let received = call(
        at,
        "ReceiveMessage",
        &json!({"QueueUrl": url, "MaxNumberOfMessages": 10}),
    );
    answers.push(received.body);
    let form = "Action=SendMessage&MessageBody=three&Version=2012-11-05";
    let path = format!("/000000000000/q?{form}");
    answers.push(get(at, &path).body);
    answers
}

#[test]
fn the_same_seed_gives_the_same_answers() {
    let first = session(Server::start(&["--seed", "42"]).at);
    let second = session(Server::start(&["--seed", "42"]).at);
    let other = session(Server::start(&["--seed", "43"]).at);
    let strip = |answers: &[String]| -> Vec<String> {
        // Queue URLs name each server's own port.
        let port = regex_free_port(&answers[0]);
        answers.iter().map(|a| a.replace(&port, "PORT")).collect()
    };
    assert!(first[3].contains("ReceiptHandle"), "{}", first[3]);
    assert_eq!(strip(&first), strip(&second));
    assert_ne!(
        strip(&first)[1],
        strip(&other)[1],
        "another seed, other ids"
    );
    let big = Command::new(env!("CARGO_BIN_EXE_sqs-sim"))
        .args(["serve", "--seed", "9007199254740992"])
        .output()
        .unwrap();
    assert_eq!(big.status.code(), Some(2), "beyond 2^53 - 1");
}

/// The port in the queue URL of a CreateQueue answer.
fn regex_free_port(created: &str) -> String {
    let url: Value = serde_json::from_str(created).unwrap();
    let url = url["QueueUrl"].as_str().unwrap();
    let host = url.trim_start_matches("http://").split('/').next().unwrap();
    format!(":{}/", host.rsplit(':').next().unwrap())
}

#[test]
fn health_answers_with_the_version_uptime_and_counts() {
    let file = config_file("health.toml", "[queues.a]\n[queues.b]\n");
    let server = Server::start(&["--config", file.to_str().unwrap()]);
    let at = server.at;
    let url = call(at, "GetQueueUrl", &json!({"QueueName": "a"})).json()["QueueUrl"].clone();
    send_message(at, &url, "x");
    let health = get(at, "/health");
    assert_eq!(health.status, 200);
    assert_eq!(health.header("content-type"), Some("application/json"));
    let health = health.json();
    assert_eq!(health["status"], "ok");
    assert_eq!(health["version"], env!("CARGO_PKG_VERSION"));
    assert!(health["uptime_seconds"].as_f64().is_some_and(|s| s >= 0.0));
    assert_eq!(
        (health["queues"].as_u64(), health["messages"].as_u64()),
        (Some(2), Some(1))
    );
}

#[test]
fn the_listing_shows_every_message_in_its_state_without_changing_it() {
    let server = Server::start(&["--seed", "1"]);
    let at = server.at;
    let control = |body: Value| {
        send(
            at,
            "POST",
            "/_sqs-sim/clock",
            &["Content-Type: application/json"],
            body.to_string().as_bytes(),
        )
    };
    assert_eq!(control(json!({"pause": true})).status, 200);
    let created = call(
        at,
        "CreateQueue",
        &json!({"QueueName": "q", "Attributes": {"VisibilityTimeout": "30"}}),
    );
    let url = created.json()["QueueUrl"].clone();
    let attribute = json!({"team": {"DataType": "String", "StringValue": "billing"}});
    let send_one = |body: &str, delay: u64| {
        let input = json!({"QueueUrl": url, "MessageBody": body, "DelaySeconds": delay, "MessageAttributes": attribute});
        call(at, "SendMessage", &input).json()["MessageId"].clone()
    };
    let held = send_one("held", 0);
    let waiting = send_one("waiting", 0);
    let later = send_one("later", 10);
    let received = call(
        at,
        "ReceiveMessage",
        &json!({"QueueUrl": url, "MaxNumberOfMessages": 1}),
    )
    .json();
    assert_eq!(received["Messages"][0]["MessageId"], held);
    control(json!({"advance": 4}));

    let look = || get(at, "/_sqs-sim/queues/q/messages").json();
    let listed = look();
    let messages = listed["messages"].as_array().unwrap();
    let by_id = |id: &Value| messages.iter().find(|m| m["MessageId"] == *id).unwrap();
    let (h, w, l) = (by_id(&held), by_id(&waiting), by_id(&later));
    assert_eq!(
        (
            h["state"].as_str(),
            h["seconds_left"].as_f64(),
            h["receive_count"].as_u64()
        ),
        (Some("in_flight"), Some(26.0), Some(1))
    );
    assert_eq!(h["Body"], "held");
    assert_eq!(h["ReceiptHandle"], received["Messages"][0]["ReceiptHandle"]);
    assert_eq!(h["Attributes"]["ApproximateReceiveCount"], "1");
    assert_eq!(h["MessageAttributes"]["team"]["StringValue"], "billing");
    assert_eq!(
        (
            w["state"].as_str(),
            w["seconds_left"].clone(),
            w["receive_count"].as_u64()
        ),
        (Some("visible"), Value::Null, Some(0))
    );
    assert!(w["Attributes"]["SentTimestamp"].is_string());
    assert_eq!(
        (l["state"].as_str(), l["seconds_left"].as_f64()),
        (Some("delayed"), Some(6.0))
    );
    assert_eq!(look(), listed, "looking changes nothing");
    let next = call(at, "ReceiveMessage", &json!({"QueueUrl": url}));
    assert_eq!(
        next.json()["Messages"][0]["MessageId"],
        waiting,
        "still visible, never received"
    );
    let missing = get(at, "/_sqs-sim/queues/nope/messages");
    assert_eq!(missing.status, 404);
}

/// A client in another region (`call_as` signs for eu-west-1; the server's is us-east-1): its
/// queues are counted and listed with their region, its messages listed by naming the region;
/// the server's own are still listed without one after that client's calls.
#[test]
fn queues_of_every_region_are_counted_and_listed() {
    let server = Server::start(&["--seed", "1"]);
    let at = server.at;
    let home = call(at, "CreateQueue", &json!({"QueueName": "jobs"})).json()["QueueUrl"].clone();
    send_message(at, &home, "home");
    let away = call_as(at, "AKID", "CreateQueue", &json!({"QueueName": "orders"})).json();
    let input = json!({"QueueUrl": away["QueueUrl"], "MessageBody": "away"});
    call_as(at, "AKID", "SendMessage", &input);

    let health = get(at, "/health").json();
    assert_eq!(
        (&health["queues"], &health["messages"]),
        (&json!(2), &json!(2))
    );
    let listed = get(at, "/_sqs-sim/queues").json();
    let places: Vec<_> = listed["queues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            (
                q["name"].clone(),
                q["region"].clone(),
                q["attributes"]["QueueArn"].clone(),
            )
        })
        .collect();
    assert_eq!(
        places,
        [
            (
                json!("jobs"),
                json!("us-east-1"),
                json!("arn:aws:sqs:us-east-1:000000000000:jobs")
            ),
            (
                json!("orders"),
                json!("eu-west-1"),
                json!("arn:aws:sqs:eu-west-1:000000000000:orders")
            ),
        ]
    );
    let state = get(at, "/_sqs-sim/state").json();
    assert_eq!(state["queues"][1]["region"], "eu-west-1");

    let bodies = |path: &str| {
        let answer = get(at, path);
        (answer.status, answer.json()["messages"][0]["Body"].clone())
    };
    assert_eq!(
        bodies("/_sqs-sim/queues/jobs/messages"),
        (200, json!("home"))
    );
    assert_eq!(
        bodies("/_sqs-sim/queues/orders/messages?region=eu-west-1"),
        (200, json!("away"))
    );
    let elsewhere = get(at, "/_sqs-sim/queues/orders/messages");
    assert_eq!(elsewhere.status, 404);
    assert_eq!(
        elsewhere.json()["error"],
        "no queue named \"orders\" in account 000000000000 in us-east-1; \
         there is one at ?region=eu-west-1&account=000000000000"
    );
    let nowhere = get(at, "/_sqs-sim/queues/invoices/messages");
    assert_eq!(
        nowhere.json()["error"],
        "no queue named \"invoices\" in account 000000000000 in us-east-1"
    );
    let bad = get(at, "/_sqs-sim/queues/orders/messages?zone=eu-west-1");
    assert_eq!(bad.status, 400);
    assert!(bad.json()["error"]
        .as_str()
        .unwrap()
        .contains("unknown field `zone`"));
}

#[test]
fn every_subcommand_has_its_help() {
    for subcommand in [
        &[][..],
        &["run"],
        &["bench"],
        &["bench", "day"],
        &["bench", "seek"],
        &["serve"],
        &["load"],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_sqs-sim"))
            .args(subcommand)
            .arg("--help")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{subcommand:?}");
        assert!(text.contains("Usage: sqs-sim"), "{subcommand:?}: {text}");
    }
    let serve = Command::new(env!("CARGO_BIN_EXE_sqs-sim"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&serve.stdout);
    for flag in [
        "--seed",
        "--config",
        "SQS_SIM_PORT",
        "SQS_SIM_HOST",
        "--cors-origin",
        "--log-level",
    ] {
        assert!(text.contains(flag), "{flag} not in {text}");
    }
    let wrong = Command::new(env!("CARGO_BIN_EXE_sqs-sim"))
        .args(["serve", "--port", "many"])
        .output()
        .unwrap();
    assert_eq!(wrong.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("--port"));
}

#[test]
fn each_call_is_one_line_of_the_request_log() {
    let server = Server::start_with(&["--log-level", "info"], Stdio::piped());
    let at = server.at;
    assert_eq!(
        call(at, "CreateQueue", &json!({"QueueName": "orders"})).status,
        200
    );
    assert_eq!(
        call(at, "GetQueueUrl", &json!({"QueueName": "nope"})).status,
        400
    );
    // SIGTERM: the server stops and its log writes what is left.
    let (status, log) = server.terminate();
    assert!(status.success(), "{status}");
    let lines: Vec<&str> = log.lines().filter(|l| l.contains(" call ")).collect();
    assert_eq!(lines.len(), 2, "{log}");
    for (line, fields) in lines.iter().zip([
        [
            "method=POST",
            "action=CreateQueue",
            "queue=orders",
            "status=200",
        ],
        [
            "method=POST",
            "action=GetQueueUrl",
            "queue=nope",
            "status=400",
        ],
    ]) {
        for field in fields {
            assert!(line.contains(field), "{field} not in {line}");
        }
        assert!(line.contains("latency_us="), "{line}");
    }
}
