//! Share round trips: a session turned into a link (or a scenario file) and back rebuilds the
//! same world at the same moment — for every library scenario, with random user actions.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::json;
use sqs_playground::share::export;
use sqs_playground::share::permalink;
use sqs_playground::share::session::{ScenarioSource, Session};
use sqs_sim::scenario::{find, library};
use sqs_sim::{Step, World};

/// What `permalink::encode` makes in the browser (its compressor is the browser's), made natively.
fn link(session: &Session) -> String {
    let json = permalink::session_json(session);
    permalink::packed_value(&miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9))
}

/// A small deterministic generator, so a failure names its seed.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % below.max(1)
    }
}

/// Plays `world` forward, trying a random user action every few seconds: sends, kills,
/// restarts, hangs, drags the first visible message onto a worker, adds a worker. Actions the
/// world refuses are simply not logged (a failed call changes nothing).
fn play_randomly(world: &mut World, rng: &mut Lcg, actions: usize) {
    for n in 0..actions {
        world.advance_to(world.now() + 500 + rng.next(8_000));
        let queues = world.engine().queue_names();
        let workers: Vec<String> = world.workers().into_iter().map(|w| w.name).collect();
        let Some(queue) = queues.get(rng.next(queues.len() as u64) as usize) else {
            return;
        };
        let url = world.engine().queue_url(queue).unwrap();
        let worker = workers
            .get(rng.next(workers.len() as u64) as usize)
            .cloned()
            .unwrap_or_default();
        let step = match rng.next(6) {
            0 if queue.ends_with(".fifo") => json!({"call": "SendMessage", "input": {
                "QueueUrl": url, "MessageBody": format!("r-{n}"), "MessageGroupId": "g", "MessageDeduplicationId": format!("d-{n}")}}),
            0 => {
                json!({"call": "SendMessage", "input": {"QueueUrl": url, "MessageBody": format!("r-{n}")}})
            }
            1 => json!({"sim": "Kill", "input": {"worker": worker}}),
            2 => json!({"sim": "Restart", "input": {"worker": worker}}),
            3 => json!({"sim": "Hang", "input": {"worker": worker}}),
            4 => {
                let visible = world
                    .engine()
                    .messages(queue)
                    .into_iter()
                    .find(|m| m.state == sqs_engine::view::MessageState::Visible);
                match visible {
                    Some(m) => {
                        json!({"sim": "Deliver", "input": {"worker": worker, "message_id": m.message_id}})
                    }
                    None => continue,
                }
            }
            _ => {
                json!({"sim": "AddWorker", "input": {"name": format!("Extra {n}"), "policy": {"queue": queue}}})
            }
        };
        let step: Step = serde_json::from_value(step).unwrap();
        let _ = world.apply(step);
    }
    world.advance_to(world.now() + rng.next(30_000));
}

/// Everything a user can see of a world, as one comparable value.
fn fingerprint(world: &World) -> serde_json::Value {
    let queues: Vec<_> = world
        .engine()
        .queue_names()
        .into_iter()
        .map(|q| json!({"name": q, "messages": world.engine().messages(&q), "attributes": world.engine().attributes(&q)}))
        .collect();
    let ledger = world.ledger();
    let ledger = json!({"effects": ledger.effects, "performed": ledger.performed_by_name(),
        "duplicates": ledger.duplicates(), "prevented": ledger.prevented()});
    json!({"now": world.now(), "queues": queues, "workers": world.workers(), "summary": world.summary(), "ledger": ledger})
}

#[test]
fn every_library_scenario_round_trips_through_a_link_with_random_actions() {
    let scenarios = library();
    assert!(scenarios.len() >= 16);
    let mut replayed_actions = 0;
    for (i, scenario) in scenarios.iter().enumerate() {
        for seed in 0..3u64 {
            let mut rng = Lcg(seed * 1000 + i as u64);
            let mut world = World::load(scenario).unwrap();
            play_randomly(&mut world, &mut rng, 12);
            let session = Session {
                scenario: ScenarioSource::Library(scenario.id.clone()),
                actions: world.actions().to_vec(),
                playhead: world.now(),
                speed: 10.0,
                lesson: false,
            };
            replayed_actions += session.actions.len();
            let link = link(&session);
            let back = permalink::decode(&link).unwrap();
            assert_eq!(
                back, session,
                "{} seed {seed}: the link changed the session",
                scenario.id
            );
            let rebuilt = back
                .rebuild(find)
                .unwrap_or_else(|e| panic!("{} seed {seed}: {e}", scenario.id));
            assert_eq!(
                fingerprint(&rebuilt),
                fingerprint(&world),
                "{} seed {seed}: a different world",
                scenario.id
            );
        }
    }
    // The random plays must really exercise replay, not just accept nothing.
    assert!(
        replayed_actions > 200,
        "only {replayed_actions} actions were accepted"
    );
}

#[test]
fn a_scenario_file_export_replays_to_the_same_summary() {
    for scenario in library() {
        let mut world = World::load(&scenario).unwrap();
        play_randomly(&mut world, &mut Lcg(7), 8);
        let session = Session {
            scenario: ScenarioSource::Library(scenario.id.clone()),
            actions: world.actions().to_vec(),
            playhead: world.now(),
            speed: 1.0,
            lesson: false,
        };
        let file = export::session_file(&session, &scenario);
        let imported = export::import(&file.to_string()).unwrap();
        let rebuilt = imported
            .rebuild(find)
            .unwrap_or_else(|e| panic!("{}: {e}", scenario.id));
        assert_eq!(rebuilt.summary(), world.summary(), "{}", scenario.id);
        assert_eq!(rebuilt.now(), world.now(), "{}", scenario.id);
    }
}

#[test]
fn a_link_naming_an_unknown_scenario_says_so() {
    let session = Session {
        scenario: ScenarioSource::Library("no-such".into()),
        actions: vec![],
        playhead: 0,
        speed: 1.0,
        lesson: false,
    };
    let err = permalink::decode(&link(&session))
        .unwrap()
        .rebuild(find)
        .err()
        .unwrap();
    assert!(err.contains("no-such"), "{err}");
}

#[test]
fn a_tampered_action_is_refused_by_name() {
    let scenario = find("crash-before-delete").unwrap();
    let mut world = World::load(&scenario).unwrap();
    world.advance_to(5_000);
    world
        .apply(
            serde_json::from_value(json!({"sim": "Kill", "input": {"worker": "Worker A"}}))
                .unwrap(),
        )
        .unwrap();
    let mut actions = world.actions().to_vec();
    actions[0].step =
        serde_json::from_value(json!({"sim": "Kill", "input": {"worker": "Nobody"}})).unwrap();
    let session = Session {
        scenario: ScenarioSource::Library(scenario.id),
        actions,
        playhead: 9_000,
        speed: 1.0,
        lesson: false,
    };
    assert!(session.rebuild(find).is_err());
}
