//! The data directory against what a restart must find: the same state after a replay, a torn
//! last record dropped, a damaged snapshot passed over, another version refused.

use super::*;
use sqs_engine::api::{CreateQueueInput, QueueUrl, ReceiveMessageInput, SendMessageInput};
use std::io::Write;

const SEED: u64 = 7;

/// An engine with a store, driven as the server drives them: call, then record if accepted.
struct Run {
    engine: Engine,
    store: Store,
}

fn open(dir: &Path) -> Result<(Store, Recovered), StoreError> {
    let new = Snapshot {
        seed: SEED,
        engine: Engine::new(SEED),
    };
    Store::open(dir, Fsync::Always, new)
}

impl Run {
    fn open(dir: &Path) -> (Run, Recovered) {
        let (store, mut recovered) = open(dir).unwrap_or_else(|e| panic!("{e}"));
        let engine = std::mem::replace(&mut recovered.engine, Engine::new(0));
        (Run { engine, store }, recovered)
    }

    fn call(&mut self, at: Millis, request: Request) -> Reply {
        self.engine.advance_to(at);
        let reply = self.engine.call(request.clone());
        if !matches!(reply, Reply::Done(Err(_))) {
            let by = Caller::Client("tester".into());
            let namespace = Namespace::DEFAULT;
            self.store
                .append_call(self.engine.now(), &by, &namespace, &request);
        }
        self.engine.take_completed_polls();
        reply
    }

    /// A queue and `n` messages sent to it from `at` on, one a millisecond.
    fn sends(&mut self, at: Millis, n: u64) -> QueueUrl {
        self.call(
            at,
            Request::CreateQueue(CreateQueueInput {
                queue_name: "q".into(),
                ..Default::default()
            }),
        );
        let url = QueueUrl::from(self.engine.queue_url("q").expect("created").to_string());
        for i in 0..n {
            self.call(at + i, send(&url, &format!("m{i}")));
        }
        url
    }

    /// Takes a snapshot and waits until it is written.
    fn snapshot(&mut self) {
        self.store.snapshot(&self.engine, SEED);
        while self.store.writing.load(Ordering::Acquire) {
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn state(&self) -> String {
        state_of(&self.engine)
    }
}

fn send(url: &QueueUrl, body: &str) -> Request {
    Request::SendMessage(SendMessageInput {
        queue_url: url.clone(),
        message_body: body.into(),
        ..Default::default()
    })
}

fn receive(url: &QueueUrl, wait: i64) -> Request {
    Request::ReceiveMessage(ReceiveMessageInput {
        queue_url: url.clone(),
        max_number_of_messages: Some(3),
        wait_time_seconds: Some(wait),
        ..Default::default()
    })
}

/// What the engine shows of its state: its clock and next deadline, and each queue's messages
/// (ids, states, receive counts, timers) and attributes.
fn state_of(engine: &Engine) -> String {
    let mut out = format!("{} {:?}\n", engine.now(), engine.next_deadline());
    for queue in engine.queue_names() {
        out += &format!(
            "{:?}\n{:?}\n",
            engine.messages(&queue),
            engine.attributes(&queue)
        );
    }
    out
}

#[test]
fn a_restart_replays_to_the_same_state_and_carries_on_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let (mut run, recovered) = Run::open(dir.path());
    assert!(recovered.fresh);
    let url = run.sends(1_000, 50);
    run.call(2_000, receive(&url, 0));
    run.snapshot();
    run.call(3_000, receive(&url, 0));
    run.call(4_000, send(&url, "after the snapshot"));
    let before = run.state();
    let mut original = run.engine.clone();
    drop(run);

    let (mut again, recovered) = Run::open(dir.path());
    assert!(!recovered.fresh);
    assert_eq!(recovered.snapshot, 1);
    // Two calls after the snapshot.
    assert_eq!(recovered.replayed, 2);
    assert_eq!(again.state(), before);
    assert_eq!(again.engine.now(), 4_000);
    // It goes on as the first one would have: the same answers, receipt handles included.
    original.advance_to(5_000);
    let expected = original.call(receive(&url, 0));
    let next = again.call(5_000, receive(&url, 0));
    assert_eq!(next, expected);
    assert!(format!("{next:?}").contains("ReceiptHandle"), "{next:?}");
}

#[test]
fn a_long_poll_waiting_at_a_restart_is_ended_and_a_later_replay_ends_it_too() {
    let dir = tempfile::tempdir().unwrap();
    let (mut run, _) = Run::open(dir.path());
    run.call(
        0,
        Request::CreateQueue(CreateQueueInput {
            queue_name: "empty".into(),
            ..Default::default()
        }),
    );
    let url = QueueUrl::from(run.engine.queue_url("empty").unwrap().to_string());
    assert!(matches!(
        run.call(100, receive(&url, 20)),
        Reply::Pending(_)
    ));
    drop(run);

    // The restart ends the poll: a message sent after it stays for the next receive.
    let (mut run, _) = Run::open(dir.path());
    run.call(200, send(&url, "kept"));
    let after = run.state();
    drop(run);
    let (run, _) = Run::open(dir.path());
    assert_eq!(run.state(), after);
    assert_eq!(run.engine.messages("empty").len(), 1);
    assert_eq!(run.engine.depth("empty"), Some([1, 0, 0]));
}

#[test]
fn a_torn_last_record_is_dropped_and_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let (mut run, _) = Run::open(dir.path());
    let url = run.sends(0, 10);
    let before = run.state();
    drop(run);
    // A crash in the middle of the next record's write: its frame and half its payload.
    let mut record = Vec::new();
    Entry::Call {
        at: 50,
        by: Caller::Page,
        namespace: Namespace::DEFAULT,
        request: Box::new(send(&url, "torn")),
    }
    .encode(&mut record);
    let segment = segment_path(dir.path(), 0);
    let length = std::fs::metadata(&segment).unwrap().len();
    let mut file = File::options().append(true).open(&segment).unwrap();
    file.write_all(&record[..record.len() / 2]).unwrap();
    drop(file);

    let (run, recovered) = Run::open(dir.path());
    assert_eq!(run.state(), before);
    let note = recovered.notes.join("\n");
    assert!(note.contains("dropped a torn last record"), "{note}");
    drop(run);
    // Cut off, and the restart's own record appended after it: the next start finds no tear.
    assert!(std::fs::metadata(&segment).unwrap().len() > length);
    let (run, recovered) = Run::open(dir.path());
    assert!(recovered.notes.is_empty(), "{:?}", recovered.notes);
    assert_eq!(run.state(), before);
}

#[test]
fn a_damaged_snapshot_falls_back_to_the_one_before() {
    let dir = tempfile::tempdir().unwrap();
    let (mut run, _) = Run::open(dir.path());
    let url = run.sends(0, 10);
    run.snapshot();
    run.call(100, receive(&url, 0));
    run.snapshot();
    run.call(200, send(&url, "last"));
    let before = run.state();
    drop(run);
    // The two latest are kept (1 and 2), and the segments from 1 on.
    let (snapshots, segments) = list(dir.path()).unwrap();
    assert_eq!((snapshots, segments), (vec![1, 2], vec![1, 2]));
    let latest = snapshot_path(dir.path(), 2);
    let mut bytes = std::fs::read(&latest).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x20;
    std::fs::write(&latest, bytes).unwrap();

    let (run, recovered) = Run::open(dir.path());
    assert_eq!(recovered.snapshot, 1);
    let note = recovered.notes.join("\n");
    assert!(
        note.contains("is damaged: its checksum does not match"),
        "{note}"
    );
    assert!(
        note.contains("starting from the snapshot before it"),
        "{note}"
    );
    assert_eq!(run.state(), before);
    // Set aside, so that the next snapshots do not count it among the two kept.
    assert_eq!(list(dir.path()).unwrap().0, vec![1]);
    assert!(dir
        .path()
        .join("snapshot-000000000002.snap.damaged")
        .exists());
}

#[test]
fn a_directory_of_another_format_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (run, _) = Run::open(dir.path());
    drop(run);
    // The same files, from a later version of the store.
    let path = snapshot_path(dir.path(), 0);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[8..12].copy_from_slice(&(STORE_VERSION + 1).to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let error = open(dir.path()).err().expect("refused").to_string();
    assert!(
        error.contains(&format!("written with store format {}", STORE_VERSION + 1)),
        "{error}"
    );
    assert!(
        error.contains("Start it with another --data-dir"),
        "{error}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "the file was changed");

    // Not a sqs-sim file at all.
    let other = tempfile::tempdir().unwrap();
    std::fs::write(segment_path(other.path(), 0), b"some other program's log").unwrap();
    let error = open(other.path()).err().expect("refused").to_string();
    assert!(
        error.contains("not a file of a sqs-sim data directory"),
        "{error}"
    );
}

#[test]
fn a_reset_deletes_every_file_of_before() {
    let dir = tempfile::tempdir().unwrap();
    let (mut run, _) = Run::open(dir.path());
    run.sends(0, 5);
    run.snapshot();
    run.engine = Engine::new(SEED + 1);
    let reset = run.store.reset(&run.engine, SEED + 1);
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(reset.wait())
        .unwrap();
    assert_eq!(list(dir.path()).unwrap(), (vec![2], vec![2]));
    drop(run);
    let (run, recovered) = Run::open(dir.path());
    assert_eq!(recovered.seed, SEED + 1);
    assert!(run.engine.queue_names().is_empty());
    assert_eq!(state_of(&run.engine), state_of(&Engine::new(SEED + 1)));
}
