//! Every library scenario, run to its end: its checked outcomes hold, and the seeds' numbers
//! (duplicates, notices, dead-lettered messages) are asserted here too, in plain Rust.

use sqs_sim::scenario::{find, library, LIBRARY, LIBRARY_FILES};
use sqs_sim::{WorkerStatus, World};

/// Runs a library scenario to its end and checks its `expect`.
fn run(id: &str) -> World {
    let scenario = find(id).unwrap_or_else(|| panic!("no scenario {id}"));
    let mut world = scenario.run().unwrap_or_else(|e| panic!("{id}: {e}"));
    if std::env::var_os("SHOW_EVENTS").is_some() {
        for e in world.drain_events() {
            println!("{} {:?}: {}", sqs_sim::clock(e.at), e.actor, e.text);
        }
    }
    let misses = scenario.check(&world);
    assert!(
        misses.is_empty(),
        "{id}: {misses:#?}\nsummary: {:#?}",
        world.summary()
    );
    world
}

fn notices(world: &World) -> u64 {
    world.ledger().performed_named("send staff notice")
}

#[test]
fn the_library_lists_every_file_in_scenarios() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".json").map(str::to_string))
        .collect();
    files.sort();
    let mut listed: Vec<String> = LIBRARY_FILES.iter().map(|(id, _)| id.to_string()).collect();
    listed.sort();
    assert_eq!(files, listed);
    for scenario in library() {
        assert!(!scenario.title.is_empty(), "{} has no title", scenario.id);
        assert!(
            !scenario.narrative.is_empty(),
            "{} has no narrative",
            scenario.id
        );
        assert!(
            !scenario.watch.is_empty(),
            "{} has nothing to watch",
            scenario.id
        );
        assert!(scenario.expect.is_some(), "{} checks nothing", scenario.id);
    }
}

/// The titles the browser lists without fetching the files (`build.rs`) are the files' titles,
/// in the same order.
#[test]
fn the_listed_titles_are_the_files_titles() {
    let listed: Vec<(String, String)> = LIBRARY
        .iter()
        .map(|(id, title)| (id.to_string(), title.to_string()))
        .collect();
    let read: Vec<(String, String)> = library().into_iter().map(|s| (s.id, s.title)).collect();
    assert_eq!(listed, read);
}

#[test]
fn crash_before_delete_follows_the_twelve_oclock_timeline() {
    let world = run("crash-before-delete");
    let workers = world.workers();
    assert_eq!(workers[0].status, WorkerStatus::Dead);
    let summary = world.summary();
    assert_eq!(
        (summary.deliveries, summary.redeliveries, summary.deleted),
        (2, 1, 1)
    );
}

#[test]
fn a_slow_worker_and_a_second_worker_both_charge() {
    let world = run("slow-worker");
    assert_eq!(world.ledger().performed_named("charge the customer"), 2);
    assert_eq!(world.summary().duplicate_effects, 1);
}

#[test]
fn a_lost_delete_response_makes_the_handler_repeat_its_effect() {
    let world = run("lost-delete-response");
    assert_eq!(world.summary().deliveries, 1);
    assert_eq!(world.summary().duplicate_effects, 1);
}

#[test]
fn a_heartbeat_keeps_the_job_with_one_worker() {
    let world = run("heartbeat");
    assert_eq!(world.metrics().api_calls()["ChangeMessageVisibility"], 2);
    assert_eq!(world.summary().redeliveries, 0);
}

#[test]
fn r021_needs_no_retry() {
    let world = run("r-021");
    assert_eq!(notices(&world), 1);
    assert_eq!(world.summary().redeliveries, 0);
}

#[test]
fn r022_without_the_ledger_sends_two_notices() {
    let world = run("r-022");
    assert_eq!(notices(&world), 2);
    assert_eq!(world.summary().duplicate_effects, 2);
}

#[test]
fn r022_with_the_ledger_sends_one_notice() {
    let world = run("r-022-ledger");
    assert_eq!(notices(&world), 1);
    assert_eq!(world.summary().duplicate_effects, 0);
    assert_eq!(world.summary().prevented_effects, 2);
}

#[test]
fn r023_crashes_after_commit_and_is_redelivered_with_a_duplicate_notice() {
    let world = run("r-023");
    assert_eq!(world.summary().redeliveries, 1);
    assert_eq!(notices(&world), 2);
}

#[test]
fn r023_with_the_ledger_is_redelivered_without_a_duplicate() {
    let world = run("r-023-ledger");
    assert_eq!(world.summary().redeliveries, 1);
    assert_eq!(notices(&world), 1);
    assert_eq!(world.summary().duplicate_effects, 0);
}

#[test]
fn a_poison_message_is_dead_lettered_after_max_receive_count() {
    let world = run("poison-to-dlq");
    assert_eq!(world.summary().dead_lettered, 1);
    assert_eq!(world.summary().by_state["dead_letter"], 1);
}

#[test]
fn a_redriven_message_is_processed_once_the_bug_is_fixed() {
    let world = run("dlq-redrive");
    assert_eq!(world.summary().by_state["dead_letter"], 0);
    assert_eq!(world.ledger().performed_named("ship the order"), 3);
}

#[test]
fn fifo_a_stuck_message_blocks_its_group_only() {
    // At 25 s, before A1's 30-second visibility timeout: Worker 1 hangs holding A1, A2 and A3
    // wait behind it, and B1, in the other group, has been received and deleted by Worker 2.
    // An engine that held back every group while A1 is in flight would leave B1 waiting too.
    let scenario = find("fifo-group-blocking").unwrap();
    let mut world = World::load(&scenario).unwrap();
    world.advance_to(25_000);
    let depth = world.queue_depth("tickets.fifo");
    assert_eq!((depth["visible"], depth["in_flight"]), (2, 1), "{depth:?}");
    assert_eq!(world.summary().deleted, 1);
    let workers = world.workers();
    assert_eq!(workers[0].status, WorkerStatus::Hung);
    assert_eq!(workers[0].holding.len(), 1);
    assert_eq!(workers[1].deliveries, 1);
    assert!(workers[1].holding.is_empty());

    // Once A1's visibility timeout runs out, the group moves again.
    let world = run("fifo-group-blocking");
    assert_eq!(world.workers()[0].status, WorkerStatus::Hung);
}

#[test]
fn fifo_one_group_for_everything_serialises_the_work() {
    let world = run("fifo-single-group");
    let one = world.queue_depth("repairs-one-group.fifo");
    let per = world.queue_depth("repairs-per-workshop.fifo");
    assert_eq!(one["visible"] + one["in_flight"], 3);
    assert_eq!(per["visible"] + per["in_flight"], 0);
}

#[test]
fn delay_and_timer_hide_before_the_first_receive_visibility_after_it() {
    let world = run("delay-vs-visibility");
    assert_eq!(world.summary().redeliveries, 1);
}

#[test]
fn long_polling_makes_far_fewer_empty_receives_than_short_polling() {
    let world = run("short-vs-long-polling");
    let workers = world.workers();
    let (short, long) = (&workers[0], &workers[1]);
    assert!(
        short.empty_receives > 10 * long.empty_receives.max(1),
        "{} vs {}",
        short.empty_receives,
        long.empty_receives
    );
    assert!(
        short.api_calls > 5 * long.api_calls,
        "{} vs {}",
        short.api_calls,
        long.api_calls
    );
}

#[test]
fn lambda_under_six_times_the_function_timeout_processes_twice() {
    let world = run("lambda-6x");
    let workers = world.workers();
    assert!(
        workers[0].warnings[0].contains("6x"),
        "{:?}",
        workers[0].warnings
    );
    assert!(workers[1].warnings.is_empty());
    assert!(world.ledger().performed_named("fulfil order (1x)") > 5);
    assert_eq!(world.ledger().performed_named("fulfil order (6x)"), 5);
}

#[test]
fn a_lambda_batching_window_invokes_every_ten_seconds_or_when_full() {
    let mut world = run("lambda-batching-window");
    let invocations: Vec<(u64, usize, bool)> = world
        .drain_events()
        .into_iter()
        .filter(|e| e.text.starts_with("Lambda invoked"))
        .map(|e| {
            let messages = e.text.matches("order-").count() + e.text.matches("burst-").count();
            (e.at / 1000, messages, e.text.contains("gathered over 10 s"))
        })
        .collect();
    let (quiet, burst): (Vec<_>, Vec<_>) = invocations.iter().partition(|i| i.0 <= 40);
    assert_eq!(quiet.len(), 4, "{invocations:?}");
    assert!(quiet.iter().all(|&&(_, n, window)| n == 5 && window));
    let full = burst.iter().find(|i| i.1 == 50).expect("a full batch");
    assert!(full.0 < 44 && !full.2, "invoked when full: {invocations:?}");
}

/// Every event of every library scenario, written by hand (`ToJson`) and read back by serde's
/// derived reader: a member or variant spelt differently on either side would not round-trip.
#[test]
fn every_event_reads_back_what_it_writes() {
    use sqs_engine::api::ToJson;
    let mut kinds = std::collections::BTreeSet::new();
    for scenario in library() {
        let mut world = scenario.run().unwrap();
        for event in world.drain_events() {
            let json = event.to_json();
            let read: sqs_sim::WorldEvent = serde_json::from_value(json.clone()).unwrap();
            assert_eq!(read, event, "{json}");
            if let Some(kind) = &event.engine {
                let engine = sqs_engine::Event {
                    at: event.at,
                    kind: kind.clone(),
                };
                let read: sqs_engine::Event = serde_json::from_value(engine.to_json()).unwrap();
                assert_eq!(read, engine);
                kinds.insert(json["engine"]["event"].as_str().unwrap().to_string());
            }
        }
    }
    assert!(kinds.len() >= 14, "only {kinds:?}");
}
