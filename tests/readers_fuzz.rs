//! The page's readers of outside input never panic: a permalink (`#s=...`), an imported scenario
//! or session file, and the launch parameters (`?scenario=...&speed=...`) each end in a value or
//! a named error, whatever they are given.
//!
//! Inputs are generated from a seed: valid links and files of every library scenario, mutated
//! (bytes flipped, dropped, repeated, cut; JSON values swapped for values of other types), and
//! plain random text. `./check` runs a few thousand of each (`readers_take_mutated_input`); the
//! long run is `#[ignore]`d:
//!
//! ```sh
//! READERS_FUZZ_CASES=1000000 cargo test --release --test readers_fuzz -- --ignored --nocapture
//! ```
#![cfg(not(target_arch = "wasm32"))]

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::SplitMix64;
use serde_json::{json, Value};
use sqs_playground::share::launch::LaunchOptions;
use sqs_playground::share::session::{ScenarioSource, Session};
use sqs_playground::share::{export, permalink};
use sqs_sim::scenario::{find, library};
use sqs_sim::Scenario;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A seeded generator, so a failure names the case that made it.
struct Rng(SplitMix64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// What the readers start from: each library scenario as a file, as a session file and as a
/// link, each made the way the page makes them.
struct Seeds {
    scenario_files: Vec<String>,
    session_files: Vec<String>,
    links: Vec<String>,
}

fn seeds() -> Seeds {
    let mut seeds = Seeds {
        scenario_files: Vec::new(),
        session_files: Vec::new(),
        links: Vec::new(),
    };
    for scenario in library() {
        let library_session = Session {
            scenario: ScenarioSource::Library(scenario.id.clone()),
            actions: Vec::new(),
            playhead: 30_000,
            speed: 10.0,
            lesson: true,
        };
        let inline_session = Session {
            scenario: ScenarioSource::Inline(scenario.clone()),
            ..library_session.clone()
        };
        for session in [&library_session, &inline_session] {
            let json = permalink::session_json(session);
            let packed = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 6);
            seeds.links.push(permalink::packed_value(&packed));
        }
        seeds
            .session_files
            .push(export::session_file(&library_session, &scenario).to_string());
        let text = std::fs::read_to_string(format!(
            "{}/scenarios/{}.json",
            env!("CARGO_MANIFEST_DIR"),
            scenario.id
        ))
        .expect("a library scenario's file");
        seeds.scenario_files.push(text);
    }
    seeds
}

/// A JSON value of a random type, small.
fn random_value(rng: &mut Rng) -> Value {
    match rng.below(9) {
        0 => Value::Null,
        1 => json!(rng.below(2) == 0),
        2 => json!(rng.next() as i64),
        3 => json!(-(rng.below(1000) as i64)),
        4 => json!(1e300),
        5 => json!(""),
        6 => json!("${Q.QueueUrl}"),
        7 => json!([rng.below(10)]),
        _ => json!({"x": rng.below(10)}),
    }
}

/// Replaces one value somewhere in `value` (or deletes a member), picked at random.
fn mutate_value(value: &mut Value, rng: &mut Rng) {
    let dive = rng.below(4) != 0;
    match value {
        Value::Object(map) if !map.is_empty() && dive => {
            let key = map.keys().nth(rng.below(map.len())).cloned().unwrap();
            if rng.below(6) == 0 {
                map.remove(&key);
            } else {
                mutate_value(map.get_mut(&key).unwrap(), rng);
            }
        }
        Value::Array(items) if !items.is_empty() && dive => {
            let i = rng.below(items.len());
            if rng.below(6) == 0 {
                items.remove(i);
            } else {
                mutate_value(&mut items[i], rng);
            }
        }
        _ => *value = random_value(rng),
    }
}

/// Bytes of `text` flipped, dropped, repeated or cut, a few times over (the result need not be
/// UTF-8: it is read lossily, as a browser would hand over a damaged file).
fn mutate_bytes(text: &str, rng: &mut Rng) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        if bytes.is_empty() {
            break;
        }
        let at = rng.below(bytes.len());
        match rng.below(5) {
            0 => bytes[at] ^= 1 << rng.below(8),
            1 => {
                const JSON_BYTES: &[u8] = b"{}[]\",:0.-eE\\ ";
                bytes[at] = JSON_BYTES[rng.below(JSON_BYTES.len())];
            }
            2 => {
                let end = (at + 1 + rng.below(64)).min(bytes.len());
                bytes.drain(at..end);
            }
            3 => {
                let end = (at + 1 + rng.below(64)).min(bytes.len());
                let copy = bytes[at..end].to_vec();
                bytes.splice(at..at, copy);
            }
            _ => bytes.truncate(at),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A variant of `text`: its bytes mutated, or (when it is JSON) one of its values.
fn mutate_text(text: &str, rng: &mut Rng) -> String {
    match serde_json::from_str::<Value>(text) {
        Ok(mut value) if rng.below(2) == 0 => {
            for _ in 0..1 + rng.below(3) {
                mutate_value(&mut value, rng);
            }
            value.to_string()
        }
        _ => mutate_bytes(text, rng),
    }
}

/// A link value with its compressed payload mutated (a damaged link that still decodes as
/// base64url and inflates), or its text mutated.
fn mutate_link(link: &str, rng: &mut Rng) -> String {
    if rng.below(2) == 0 {
        return mutate_bytes(link, rng);
    }
    let (version, _) = link.split_once('.').unwrap();
    let session = permalink::decode(link).expect("a seed link decodes");
    let json = mutate_text(&permalink::session_json(&session), rng);
    let packed = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 1);
    let value = permalink::packed_value(&packed);
    format!("{version}{}", &value[value.find('.').unwrap()..])
}

/// Random characters from those a URL carries.
fn random_text(rng: &mut Rng) -> String {
    const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789=&?#.%-_~+/:;{}\"";
    let len = rng.below(80);
    (0..len)
        .map(|_| CHARS[rng.below(CHARS.len())] as char)
        .collect()
}

/// A launch query: known keys with odd values, unknown keys, random text.
fn random_query(rng: &mut Rng) -> String {
    const KEYS: &[&str] = &[
        "scenario", "speed", "t", "autoplay", "embed", "theme", "controls", "s", "lesson",
    ];
    let mut query = String::from(["?", "#", ""][rng.below(3)]);
    for i in 0..rng.below(6) {
        if i > 0 {
            query.push('&');
        }
        let pair = match rng.below(4) {
            0 => random_text(rng),
            _ => format!("{}={}", KEYS[rng.below(KEYS.len())], random_text(rng)),
        };
        query.push_str(&pair);
    }
    query
}

/// Runs `read` on `input`; a panic fails the test and names the case and its input.
fn must_not_panic<T>(reader: &str, case: u64, input: &str, read: impl FnOnce(&str) -> T) {
    if catch_unwind(AssertUnwindSafe(|| read(input))).is_err() {
        let shown: String = input.chars().take(600).collect();
        panic!(
            "{reader} panicked on case {case}; input ({} bytes): {shown:?}",
            input.len()
        );
    }
}

/// Feeds `cases` generated inputs to each reader; a reader's panic fails the calling test.
fn fuzz(cases: u64) {
    let seeds = seeds();
    let mut rng = Rng(SplitMix64::seed_from_u64(0x5eed));
    for case in 0..cases {
        let link = match rng.below(5) {
            0 => random_text(&mut rng),
            _ => mutate_link(&seeds.links[rng.below(seeds.links.len())], &mut rng),
        };
        must_not_panic("permalink::decode", case, &link, |link| {
            if let Ok(session) = permalink::decode(link) {
                let _ = session.resolve(find);
            }
        });

        let file = if rng.below(2) == 0 {
            &seeds.scenario_files[rng.below(seeds.scenario_files.len())]
        } else {
            &seeds.session_files[rng.below(seeds.session_files.len())]
        };
        let file = mutate_text(file, &mut rng);
        must_not_panic("export::import", case, &file, |text| {
            let _ = export::import(text);
        });
        must_not_panic("Scenario::parse", case, &file, |text| {
            let _ = Scenario::parse("fuzzed", text);
        });

        let query = random_query(&mut rng);
        must_not_panic("LaunchOptions::parse", case, &query, |query| {
            LaunchOptions::parse(query)
        });
    }
}

#[test]
fn readers_take_mutated_input() {
    fuzz(3_000);
}

/// The long run: READERS_FUZZ_CASES inputs per reader (default one million).
#[test]
#[ignore = "a long fuzzing run: scripts/fuzz.sh"]
fn readers_take_a_million_inputs() {
    let cases = std::env::var("READERS_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000_000);
    let start = std::time::Instant::now();
    fuzz(cases);
    println!(
        "readers_fuzz: {cases} inputs to each of permalink::decode, export::import, \
         Scenario::parse and LaunchOptions::parse without a panic in {:.0} s",
        start.elapsed().as_secs_f64()
    );
}

/// The generators really make inputs the readers refuse and inputs they accept: a fuzzer whose
/// every input is refused at the first byte would prove nothing.
#[test]
fn mutations_reach_past_the_first_check() {
    let seeds = seeds();
    let mut rng = Rng(SplitMix64::seed_from_u64(1));
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..400 {
        let link = mutate_link(&seeds.links[rng.below(seeds.links.len())], &mut rng);
        match permalink::decode(&link) {
            Ok(_) => accepted += 1,
            Err(_) => refused += 1,
        }
    }
    assert!(accepted > 10, "only {accepted} mutated links decoded");
    assert!(refused > 10, "only {refused} mutated links were refused");
}
