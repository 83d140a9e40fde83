//! Performance figures measured in headless Chromium (wasm): benchmarks that print figures, not
//! timed tests. They are `#[ignore]`d, so `./check wasm` lists them without running them;
//! `./check perf` (scripts/perf.sh) runs them in release:
//!
//! ```sh
//! WASM_BINDGEN_TEST_TIMEOUT=900 cargo test --release --target wasm32-unknown-unknown \
//!     --test perf -- --include-ignored --nocapture
//! ```
//!
//! Each prints `name=value` lines (the same names as `sqs-sim bench` natively, with a `wasm`
//! marker) through the test runner's console capture.
#![cfg(target_arch = "wasm32")]

use sqs_engine::bench::{measure, Batching};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen]
extern "C" {
    /// `performance.now()`: milliseconds, monotonic.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// Seconds from the page's time origin.
fn clock() -> f64 {
    performance_now() / 1000.0
}

/// Lifecycles per run (the native default is 1,000,000; a browser run is kept shorter).
const LIFECYCLES: u64 = 200_000;

#[wasm_bindgen_test]
#[ignore = "benchmark: run by ./check perf"]
fn engine_lifecycles_per_second() {
    let mut last = 0.0;
    for batching in [Batching::Single, Batching::Ten] {
        let result = measure(LIFECYCLES, batching, 3, clock);
        console_log!("wasm {result}");
        last = result.lifecycles_per_sec;
    }
    console_log!("engine_wasm_lifecycles_per_sec={last:.0}");
}

#[wasm_bindgen_test]
#[ignore = "benchmark: run by ./check perf"]
fn fast_forward_one_day() {
    let result = sqs_sim::bench::run_day(1, sqs_sim::bench::DAY, clock);
    console_log!("wasm {result}");
    let problems = result.problems();
    if problems.is_empty() {
        console_log!("wasm day_check=ok");
    } else {
        console_log!("wasm day_check=failed: {}", problems.join("; "));
    }
    console_log!("fast_forward_day_wasm_ms={:.0}", result.secs * 1000.0);
}

#[wasm_bindgen_test]
#[ignore = "benchmark: run by ./check perf"]
fn seek_within_an_hour_from_checkpoints() {
    let result = sqs_sim::bench::run_seek(1, clock);
    console_log!("wasm {result}");
    console_log!("seek_wasm_ms_max={:.0}", result.checkpoint_ms_max);
}
