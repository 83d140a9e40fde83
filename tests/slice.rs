//! Host tests of the vertical slice's model (plain Rust over the engine, no browser).
#![cfg(not(target_arch = "wasm32"))]

use sqs_engine::view::MessageState;
use sqs_playground::slice::{
    seconds, seconds_ceil, state_label, SliceModel, QUEUE_NAME, VISIBILITY_TIMEOUT_S,
};

#[test]
fn countdown_formatting_rounds_up_and_clock_rounds_down() {
    assert_eq!(seconds_ceil(3000), "3.0 s");
    assert_eq!(seconds_ceil(2901), "3.0 s");
    assert_eq!(seconds_ceil(2900), "2.9 s");
    assert_eq!(seconds_ceil(1), "0.1 s");
    assert_eq!(seconds_ceil(0), "0.0 s");
    assert_eq!(seconds(1299), "1.2 s");
    assert_eq!(seconds(61_000), "61.0 s");
}

#[test]
fn starts_with_an_empty_queue() {
    let m = SliceModel::new();
    assert_eq!(m.now(), 0);
    assert!(m.messages().is_empty());
    assert!(m.last_action().contains(QUEUE_NAME));
    assert!(!m.last_failed());
}

#[test]
fn received_message_counts_down_and_reappears() {
    let mut m = SliceModel::new();
    m.send();
    let msgs = m.messages();
    assert_eq!(msgs.len(), 1);
    assert_eq!(msgs[0].body, "message 1");
    assert_eq!(msgs[0].state, MessageState::Visible);

    m.tick(500);
    m.receive();
    assert!(!m.last_failed(), "{}", m.last_action());
    let msg = &m.messages()[0];
    let until = 500 + VISIBILITY_TIMEOUT_S as u64 * 1000;
    assert!(matches!(msg.state, MessageState::InFlight { until: u, .. } if u == until));
    assert_eq!(msg.receive_count, 1);
    assert_eq!(
        state_label(msg, m.now()),
        ("inflight", "in flight · 3.0 s".into())
    );

    // A second receive finds nothing while it is in flight.
    m.receive();
    assert!(m.last_action().contains("nothing"), "{}", m.last_action());

    m.tick(1000);
    assert_eq!(
        state_label(&m.messages()[0], m.now()).1,
        "in flight · 2.0 s"
    );

    // Just before the deadline it is still hidden; at the deadline it is visible again.
    m.tick(until - m.now() - 1);
    assert!(matches!(
        m.messages()[0].state,
        MessageState::InFlight { .. }
    ));
    m.tick(1);
    let msg = &m.messages()[0];
    assert_eq!(msg.state, MessageState::Visible);
    assert_eq!(state_label(msg, m.now()), ("visible", "visible".into()));
}

#[test]
fn skip_jumps_to_the_visibility_deadline() {
    let mut m = SliceModel::new();
    m.send();
    m.receive();
    m.skip_to_next_deadline();
    assert_eq!(m.now(), VISIBILITY_TIMEOUT_S as u64 * 1000);
    assert_eq!(m.messages()[0].state, MessageState::Visible);
    // Received again, it counts a second receive.
    m.receive();
    assert_eq!(m.messages()[0].receive_count, 2);
}
