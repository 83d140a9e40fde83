//! Properties over injected faults. With idempotency keys on, no side effect is ever done twice,
//! whatever faults hit the workers and whenever; and once the faults stop, every message is
//! processed: each effect exactly once. With the keys off, duplicates appear exactly in the
//! seeds' fault patterns (an expired lease, a crash after commit, a lost delete response) and
//! not without a fault.

use proptest::prelude::*;
use serde_json::json;
use sqs_sim::command::SimAction;
use sqs_sim::worker::{EffectStep, Heartbeat, ProcessingTime};
use sqs_sim::{Step, WorkerPolicy, World};

const QUEUE: &str = "work";

fn call(world: &mut World, action: &str, input: serde_json::Value) {
    let step: Step = serde_json::from_value(json!({"call": action, "input": input})).unwrap();
    world.apply(step).unwrap();
}

fn sim(world: &mut World, action: SimAction) {
    world.apply(Step::Sim(action)).unwrap();
}

/// A queue with `vt` seconds of visibility timeout holding `messages` distinct tickets.
fn queue(seed: u64, vt: u32, messages: usize) -> World {
    let mut world = World::new(seed);
    call(
        &mut world,
        "CreateQueue",
        json!({"QueueName": QUEUE, "Attributes": {"VisibilityTimeout": vt.to_string()}}),
    );
    let url = world.engine().queue_url(QUEUE).unwrap();
    for n in 0..messages {
        call(
            &mut world,
            "SendMessage",
            json!({"QueueUrl": url, "MessageBody": format!("ticket-{n}")}),
        );
    }
    world
}

fn effects(count: usize, idempotent: bool) -> Vec<EffectStep> {
    (0..count)
        .map(|n| EffectStep {
            name: format!("effect {n}"),
            idempotent,
        })
        .collect()
}

fn policy(processing: ProcessingTime, effects: Vec<EffectStep>) -> WorkerPolicy {
    WorkerPolicy {
        wait_time_seconds: 20,
        processing,
        effects,
        ..WorkerPolicy::new(QUEUE)
    }
}

fn add(world: &mut World, name: &str, policy: WorkerPolicy) {
    sim(
        world,
        SimAction::AddWorker {
            name: name.into(),
            policy,
        },
    );
}

/// A fault to inject: which one, into which worker, when.
#[derive(Clone, Debug)]
struct Fault {
    at: u64,
    worker: usize,
    kind: u8,
}

fn fault_action(kind: u8, worker: String) -> SimAction {
    match kind % 6 {
        0 => SimAction::Kill { worker },
        1 => SimAction::Hang { worker },
        2 => SimAction::Restart { worker },
        3 => SimAction::CrashAfterCommit { worker },
        4 => SimAction::LoseDeleteResponse { worker },
        _ => SimAction::FailJob { worker },
    }
}

fn faults() -> impl Strategy<Value = Vec<Fault>> {
    prop::collection::vec(
        (0u64..120_000, 0usize..3, 0u8..6).prop_map(|(at, worker, kind)| Fault {
            at,
            worker,
            kind,
        }),
        0..12,
    )
}

fn restart_all(world: &mut World) {
    for name in world.workers().into_iter().map(|w| w.name) {
        // A running worker refuses a restart; that is fine here.
        let _ = world.apply(Step::Sim(SimAction::Restart { worker: name }));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn with_idempotency_keys_no_effect_is_ever_duplicated(
        seed in any::<u64>(),
        vt in 5u32..40,
        messages in 1usize..6,
        workers in 1usize..4,
        slowest in 1u32..60,
        n_effects in 1usize..4,
        heartbeat in any::<bool>(),
        mut faults in faults(),
    ) {
        let mut world = queue(seed, vt, messages);
        for w in 0..workers {
            let mut p = policy(
                ProcessingTime::Uniform { min: 0.5, max: f64::from(slowest) },
                effects(n_effects, true),
            );
            if heartbeat && w == 0 {
                p.heartbeat = Some(Heartbeat { every: f64::from(vt) / 2.0, extend_by: vt, max_extensions: Some(3), max_total: None });
            }
            add(&mut world, &format!("W{w}"), p);
        }
        faults.sort_by_key(|f| f.at);
        for fault in faults {
            world.advance_to(fault.at);
            let name = format!("W{}", fault.worker % workers);
            // Faults that do not apply now (restarting a running worker) are refused: fine.
            let _ = world.apply(Step::Sim(fault_action(fault.kind, name)));
            prop_assert_eq!(world.ledger().duplicates(), 0);
        }
        // The faults stop: bring everyone back (twice: an armed fault may fire once more).
        for round in 1..=2u64 {
            world.advance_to(120_000 + round * 300_000);
            restart_all(&mut world);
        }
        world.advance_to(1_800_000);
        let summary = world.summary();
        prop_assert_eq!(summary.duplicate_effects, 0);
        prop_assert_eq!(summary.by_state["visible"] + summary.by_state["in_flight"], 0);
        for n in 0..n_effects {
            prop_assert_eq!(world.ledger().performed_named(&format!("effect {n}")), messages as u64);
        }
        // And the session, faults included, replays to the same world.
        let replayed = World::from_log(seed, world.log(), world.now()).unwrap();
        prop_assert_eq!(replayed.summary(), world.summary());
        prop_assert_eq!(replayed.ledger(), world.ledger());
    }

    #[test]
    fn without_keys_an_expired_lease_duplicates_every_effect(
        seed in any::<u64>(), vt in 5u32..30, extra in 1u32..30, n_effects in 1usize..4, keys in any::<bool>(),
    ) {
        let mut world = queue(seed, vt, 1);
        let slow = ProcessingTime::Fixed { seconds: f64::from(vt + extra) };
        add(&mut world, "A", policy(slow.clone(), effects(n_effects, keys)));
        add(&mut world, "B", policy(slow, effects(n_effects, keys)));
        world.advance_to(600_000);
        let expected = if keys { 0 } else { n_effects as u64 };
        prop_assert_eq!(world.summary().redeliveries, 1);
        prop_assert_eq!(world.ledger().duplicates(), expected);
        prop_assert_eq!(world.ledger().prevented(), n_effects as u64 - expected);
    }

    #[test]
    fn without_keys_a_crash_after_commit_duplicates_every_effect(
        seed in any::<u64>(), vt in 5u32..60, work in 1u32..5, n_effects in 1usize..4, keys in any::<bool>(),
    ) {
        let mut world = queue(seed, vt, 1);
        let quick = ProcessingTime::Fixed { seconds: f64::from(work) };
        add(&mut world, "A", policy(quick.clone(), effects(n_effects, keys)));
        sim(&mut world, SimAction::CrashAfterCommit { worker: "A".into() });
        add(&mut world, "B", policy(quick, effects(n_effects, keys)));
        world.advance_to(600_000);
        let expected = if keys { 0 } else { n_effects as u64 };
        prop_assert_eq!(world.summary().redeliveries, 1);
        prop_assert_eq!(world.ledger().duplicates(), expected);
        prop_assert_eq!(world.summary().deleted, 1);
    }

    #[test]
    fn without_keys_a_lost_delete_response_duplicates_every_effect(
        seed in any::<u64>(), vt in 5u32..60, work in 1u32..5, n_effects in 1usize..4, keys in any::<bool>(),
    ) {
        let mut world = queue(seed, vt, 1);
        let quick = ProcessingTime::Fixed { seconds: f64::from(work) };
        add(&mut world, "A", policy(quick, effects(n_effects, keys)));
        sim(&mut world, SimAction::LoseDeleteResponse { worker: "A".into() });
        world.advance_to(600_000);
        let expected = if keys { 0 } else { n_effects as u64 };
        prop_assert_eq!(world.summary().deliveries, 1);
        prop_assert_eq!(world.ledger().duplicates(), expected);
    }

    #[test]
    fn without_keys_and_without_faults_nothing_is_duplicated(
        seed in any::<u64>(), vt in 5u32..60, messages in 1usize..8, workers in 1usize..4, n_effects in 1usize..4,
    ) {
        let mut world = queue(seed, vt, messages);
        for w in 0..workers {
            let within = ProcessingTime::Uniform { min: 0.1, max: f64::from(vt) * 0.9 };
            add(&mut world, &format!("W{w}"), policy(within, effects(n_effects, false)));
        }
        world.advance_to(600_000);
        prop_assert_eq!(world.summary().redeliveries, 0);
        prop_assert_eq!(world.ledger().duplicates(), 0);
        prop_assert_eq!(world.summary().deleted, messages as u64);
    }
}
