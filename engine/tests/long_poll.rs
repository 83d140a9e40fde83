//! Long polls: answered at the first receivable instant, or `{}` at the end of the wait.
mod common;

use common::*;
use sqs_engine::api::*;
use sqs_engine::event::EventKind;
use sqs_engine::{Reply, Request};

fn long_poll(s: &mut Sqs, url: &str, wait: Option<i64>, max: i64) -> u64 {
    let input = ReceiveMessageInput {
        wait_time_seconds: wait,
        ..Sqs::receive_input(url, max)
    };
    match s.e.call(Request::ReceiveMessage(input)) {
        Reply::Pending(id) => id,
        Reply::Done(r) => panic!("expected a pending poll, got {r:?}"),
    }
}

#[test]
fn a_send_one_second_into_a_ten_second_wait_answers_it() {
    // §4.3 AWS-recorded: a send 1 s into a 10 s wait returns the message.
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    let poll = long_poll(&mut s, &url, Some(10), 1);
    assert_eq!(s.e.next_deadline(), Some(10_000));
    s.at(1_000);
    assert!(s.e.take_completed_polls().is_empty());
    s.send(&url, "hello");
    let done = s.e.take_completed_polls();
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].0, poll);
    assert_eq!(done[0].1.messages.as_ref().unwrap()[0].body, "hello");
    let answered = s
        .events()
        .into_iter()
        .find(|e| matches!(e.kind, EventKind::LongPollAnswered { .. }));
    assert_eq!(answered.unwrap().at, 1_000);
    // The timeout entry is gone with the poll: nothing left but the message's own timers.
    assert_eq!(s.e.next_deadline(), Some(31_000));
}

#[test]
fn answered_polls_taken_into_a_buffer_come_after_what_it_holds_in_answer_order() {
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    let first = long_poll(&mut s, &url, Some(10), 1);
    let second = long_poll(&mut s, &url, Some(10), 1);
    let mut taken = Vec::new();
    s.e.take_completed_polls_into(&mut taken);
    assert!(taken.is_empty());
    s.send(&url, "a");
    s.e.take_completed_polls_into(&mut taken);
    s.send(&url, "b");
    s.e.take_completed_polls_into(&mut taken);
    let polls: Vec<u64> = taken.iter().map(|(poll, _)| *poll).collect();
    assert_eq!(polls, [first, second]);
    assert_eq!(taken[1].1.messages.as_ref().unwrap()[0].body, "b");
    assert!(s.e.take_completed_polls().is_empty());
}

#[test]
fn an_unanswered_poll_times_out_with_an_empty_object() {
    // §4.2/§4.3: empty response only when the wait expires, `{}` without Messages.
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    let poll = long_poll(&mut s, &url, Some(5), 1);
    s.at(4_999);
    assert!(s.e.take_completed_polls().is_empty());
    s.at(20_000);
    let done = s.e.take_completed_polls();
    assert_eq!(done, [(poll, ReceiveMessageOutput::default())]);
    assert_eq!(serde_json::to_string(&done[0].1).unwrap(), "{}");
    let timed_out = s
        .events()
        .into_iter()
        .find(|e| matches!(e.kind, EventKind::LongPollTimedOut { .. }));
    assert_eq!(timed_out.unwrap().at, 5_000);
}

#[test]
fn the_queue_wait_applies_when_the_parameter_is_omitted() {
    // §4.1: WaitTimeSeconds omitted -> ReceiveMessageWaitTimeSeconds.
    let mut s = Sqs::new();
    let url = s.create("q", &[("ReceiveMessageWaitTimeSeconds", "3")]);
    let input = ReceiveMessageInput {
        ..Sqs::receive_input(&url, 1)
    };
    assert!(matches!(
        s.e.call(Request::ReceiveMessage(input)),
        Reply::Pending(_)
    ));
    assert_eq!(s.e.next_deadline(), Some(3_000));
}

#[test]
fn pending_polls_are_served_in_arrival_order() {
    // §4.3 SIM CHOICE: arrival order; each takes what is receivable at that instant.
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    let p1 = long_poll(&mut s, &url, Some(20), 10);
    let p2 = long_poll(&mut s, &url, Some(20), 10);
    s.at(500);
    s.send(&url, "a");
    s.send(&url, "b");
    let done = s.e.take_completed_polls();
    assert_eq!(done.len(), 2);
    assert_eq!(done[0].0, p1);
    assert_eq!(done[0].1.messages.as_ref().unwrap().len(), 1);
    assert_eq!(done[1].0, p2);
    assert_eq!(done[1].1.messages.as_ref().unwrap()[0].body, "b");
}

#[test]
fn messages_becoming_visible_at_one_instant_answer_together() {
    // §4.3: a poll answered at an instant gets min(Max, receivable at that instant); a message
    // whose visibility expires during the wait answers it.
    let mut s = Sqs::new();
    let url = s.create("q", &[("VisibilityTimeout", "2")]);
    s.send(&url, "a");
    s.send(&url, "b");
    s.receive(&url, 10);
    let poll = long_poll(&mut s, &url, Some(10), 10);
    s.at(10_000);
    let done = s.e.take_completed_polls();
    assert_eq!(done[0].0, poll);
    assert_eq!(done[0].1.messages.as_ref().unwrap().len(), 2);
    let answered = s
        .events()
        .into_iter()
        .find(|e| matches!(e.kind, EventKind::LongPollAnswered { .. }));
    assert_eq!(answered.unwrap().at, 2_000);
}

#[test]
fn delay_end_answers_a_poll() {
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    s.send_with(SendMessageInput {
        delay_seconds: Some(4),
        ..Sqs::send_input(&url, "later")
    });
    long_poll(&mut s, &url, Some(20), 1);
    assert_eq!(s.e.next_deadline(), Some(4_000));
    s.at(30_000);
    let done = s.e.take_completed_polls();
    assert_eq!(done[0].1.messages.as_ref().unwrap()[0].body, "later");
}

#[test]
fn a_message_present_answers_at_once() {
    // §4.3: with messages present the call returns at once.
    let mut s = Sqs::new();
    let url = s.create("q", &[]);
    s.send(&url, "a");
    let input = ReceiveMessageInput {
        wait_time_seconds: Some(5),
        ..Sqs::receive_input(&url, 3)
    };
    assert!(matches!(
        s.e.call(Request::ReceiveMessage(input)),
        Reply::Done(Ok(_))
    ));
}

#[test]
fn without_implied_events_a_poll_answered_by_a_send_records_only_what_nothing_else_says() {
    let kinds = |implied: bool| {
        let mut s = Sqs::new();
        s.e.record_implied_events(implied);
        let url = s.create("q", &[]);
        long_poll(&mut s, &url, Some(10), 1);
        s.at(1_000);
        s.send(&url, "hello");
        s.events()
            .into_iter()
            .map(|e| match e.kind {
                EventKind::QueueCreated { .. } => "QueueCreated",
                EventKind::LongPollStarted { .. } => "LongPollStarted",
                EventKind::Sent { .. } => "Sent",
                EventKind::BecameVisible { .. } => "BecameVisible",
                EventKind::Received { .. } => "Received",
                EventKind::LongPollAnswered { .. } => "LongPollAnswered",
                other => panic!("{other:?}"),
            })
            .collect::<Vec<_>>()
    };
    let all = [
        "QueueCreated",
        "LongPollStarted",
        "Sent",
        "BecameVisible",
        "Received",
        "LongPollAnswered",
    ];
    assert_eq!(kinds(true), all);
    let told = ["QueueCreated", "Sent", "Received", "LongPollAnswered"];
    assert_eq!(kinds(false), told);
}
