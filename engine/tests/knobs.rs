//! Realism knobs: off is the strict reference behaviour; on shows what AWS may do, seeded.
mod common;

use common::*;
use sqs_engine::{Engine, Knobs};

fn with(knobs: Knobs) -> Sqs {
    Sqs {
        e: Engine::with_knobs(9, knobs),
    }
}

#[test]
fn duplicate_delivery_leaves_a_received_message_receivable() {
    // §4.4: at-least-once delivery; both receipts work, the first delete wins.
    let mut s = with(Knobs {
        duplicate_delivery: 1.0,
        ..Knobs::default()
    });
    let url = s.create("q", &[]);
    s.send(&url, "a");
    let first = s.receive(&url, 1);
    let second = s.receive(&url, 1);
    assert_eq!(second[0].message_id, first[0].message_id);
    assert_ne!(second[0].receipt_handle, first[0].receipt_handle);
    assert_eq!(
        second[0].attributes.as_ref().unwrap()["ApproximateReceiveCount"],
        "2"
    );
    assert_eq!(s.counts(&url), counts(0, 1, 0));
    s.delete(&url, first[0].receipt_handle).unwrap();
    s.delete(&url, second[0].receipt_handle).unwrap();
    assert_eq!(s.counts(&url), counts(0, 0, 0));
}

#[test]
fn short_poll_sampling_returns_fewer_messages_on_short_polls_only() {
    let mut s = with(Knobs {
        short_poll_sampling: true,
        ..Knobs::default()
    });
    let url = s.create("q", &[]);
    for i in 0..100 {
        s.send(&url, &i.to_string());
    }
    let sizes: Vec<usize> = (0..5).map(|_| s.receive(&url, 10).len()).collect();
    assert!(sizes.iter().all(|&n| n <= 10));
    assert!(sizes.iter().any(|&n| n < 10), "{sizes:?}");
    // Long polls query all servers (§4.3).
    let long = sqs_engine::api::ReceiveMessageInput {
        wait_time_seconds: Some(1),
        ..Sqs::receive_input(&url, 10)
    };
    assert_eq!(s.receive_with(long).len(), 10);
}

#[test]
fn best_effort_ordering_shuffles_but_loses_nothing() {
    let mut s = with(Knobs {
        best_effort_ordering: true,
        ..Knobs::default()
    });
    let url = s.create("q", &[]);
    for i in 0..30 {
        s.send(&url, &format!("{i:02}"));
    }
    let mut got: Vec<String> = Vec::new();
    for _ in 0..3 {
        got.extend(s.bodies(&url, 10));
    }
    let mut sorted = got.clone();
    sorted.sort();
    assert_ne!(got, sorted);
    let expected: Vec<String> = (0..30).map(|i| format!("{i:02}")).collect();
    assert_eq!(sorted, expected);
}

#[test]
fn knobs_off_is_strict_and_fifo_ignores_them() {
    let all = Knobs {
        duplicate_delivery: 1.0,
        short_poll_sampling: true,
        best_effort_ordering: true,
    };
    let mut s = with(all);
    let url = s.create("q.fifo", &[("FifoQueue", "true")]);
    for body in ["a", "b", "c"] {
        s.send_fifo(&url, body, "g");
    }
    assert_eq!(s.bodies(&url, 10), ["a", "b", "c"]);
    assert!(s.receive(&url, 10).is_empty());

    let mut strict = Sqs::new();
    let url = strict.create("q", &[]);
    for i in 0..20 {
        strict.send(&url, &format!("{i:02}"));
    }
    let got = strict.bodies(&url, 10);
    let expected: Vec<String> = (0..10).map(|i| format!("{i:02}")).collect();
    assert_eq!(got, expected);
}
