//! Performance figures measured in headless Chromium (wasm): benchmarks that print figures, not
//! timed tests. They are `#[ignore]`d, so `./check wasm` lists them without running them;
//! `./check perf` (scripts/perf.sh) runs them built as the page ships (the `web` profile):
//!
//! ```sh
//! WASM_BINDGEN_TEST_TIMEOUT=1800 cargo test --profile web --target wasm32-unknown-unknown \
//!     --test perf -- --include-ignored --nocapture
//! ```
//!
//! Each prints `name=value` lines (the same names as `sqs-sim bench` natively, with a `wasm`
//! marker) through the test runner's console capture. Long work yields to the event loop about
//! once a second (the test runner's WebDriver gives up on a page blocked for 30 s); the time spent
//! yielding is not counted.
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use sqs_engine::bench::{measure, Batching};
// The page's global allocator (src/lib.rs), so the figures are those of the code the page ships.
use sqs_playground as _;
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

/// Lets the browser's event loop run (the test runner polls the page).
async fn breathe() {
    TimeoutFuture::new(0).await;
}

/// Lifecycles per run (the native default is 1,000,000; a browser run is kept shorter).
const LIFECYCLES: u64 = 200_000;

#[wasm_bindgen_test]
#[ignore = "benchmark: run by ./check perf"]
async fn engine_lifecycles_per_second() {
    let mut last = 0.0;
    for batching in [Batching::Single, Batching::Ten] {
        // Three runs, one at a time (a yield between them), median as `measure` takes it.
        let mut secs = Vec::new();
        for _ in 0..3 {
            secs.push(measure(LIFECYCLES, batching, 1, clock).median_secs);
            breathe().await;
        }
        secs.sort_by(f64::total_cmp);
        let rate = LIFECYCLES as f64 / secs[1];
        console_log!("wasm {batching}: lifecycles={LIFECYCLES} runs_s={secs:.3?} lifecycles_per_sec={rate:.0}");
        last = rate;
    }
    console_log!("engine_wasm_lifecycles_per_sec={last:.0}");
}

/// Days run for the figure: one run varies by ±12% on this machine, the median of three less.
const DAY_RUNS: usize = 3;

/// One simulated day, yielding about once a second; the result carries the busy time only.
async fn one_day() -> sqs_sim::bench::DayResult {
    let mut busy = 0.0;
    let mut run = sqs_sim::bench::DayRun::new(1, sqs_sim::bench::DAY);
    loop {
        let slice = clock();
        let mut more = true;
        while more && clock() - slice < 1.0 {
            more = run.step();
        }
        busy += clock() - slice;
        if !more {
            return run.finish(busy);
        }
        breathe().await;
    }
}

#[wasm_bindgen_test]
#[ignore = "benchmark: run by ./check perf"]
async fn fast_forward_one_day() {
    let mut runs = Vec::new();
    for _ in 0..DAY_RUNS {
        runs.push(one_day().await);
    }
    // In the order they ran, then sorted for the median.
    let each: Vec<String> = runs
        .iter()
        .map(|r| format!("{:.0}", r.secs * 1000.0))
        .collect();
    runs.sort_by(|a, b| a.secs.total_cmp(&b.secs));
    let median = &runs[DAY_RUNS / 2];
    console_log!("wasm {median}");
    console_log!("wasm day_runs_ms=[{}]", each.join(","));
    // The runs are the same day (same seed): each must add up.
    let problems: Vec<String> = runs.iter().flat_map(|r| r.problems()).collect();
    if problems.is_empty() {
        console_log!("wasm day_check=ok");
    } else {
        console_log!("wasm day_check=failed: {}", problems.join("; "));
    }
    console_log!("fast_forward_day_wasm_ms={:.0}", median.secs * 1000.0);
}

#[wasm_bindgen_test]
#[ignore = "benchmark: run by ./check perf"]
async fn seek_within_an_hour_from_checkpoints() {
    breathe().await;
    let result = sqs_sim::bench::run_seek(1, clock);
    console_log!("wasm {result}");
    console_log!("seek_wasm_ms_max={:.0}", result.checkpoint_ms_max);
}
