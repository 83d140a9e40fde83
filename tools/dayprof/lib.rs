//! `run_day(seconds)`: the day benchmark of `sqs-sim bench day`, for scripts/dayprof.sh to run
//! under Chromium's CPU profiler (the page's opt-level, names kept by `wasm-bindgen --keep-debug`).

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// `performance.now()`: milliseconds, monotonic.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// Runs the first `seconds` of the day (seed 1) and returns its summary line; for the whole day,
/// with the problems found (none when the counters add up: they are checked against a full day).
#[wasm_bindgen]
pub fn run_day(seconds: u32) -> String {
    let until = sqs_engine::Millis::from(seconds) * 1000;
    let result = sqs_sim::bench::run_day(1, until, || performance_now() / 1000.0);
    if until < sqs_sim::bench::DAY {
        return result.to_string();
    }
    format!("{result} problems={:?}", result.problems())
}
