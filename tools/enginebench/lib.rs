//! `sqs_engine::bench::run_lifecycles` exported from a wasm module with no imports, so that
//! tools/enginebench/run.mjs can time it in Chromium. The page's bundle is built with the
//! standard library rebuilt for panic=immediate-abort (scripts/build-release.sh), which
//! `cargo test` cannot build (std's own copy of `core` meets a second one: duplicate lang
//! items), so this figure cannot come from tests/perf.rs like the day's and the seek's.

/// The page's allocator (src/lib.rs): allocation is a good part of a lifecycle's cost.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

use sqs_engine::bench::{run_lifecycles, Batching};

/// Runs `n` message lifecycles with `seed` (as `sqs_engine::bench::measure` runs them), in
/// batches of 10 when `ten` is not 0, and returns the number of SQS calls it made.
#[no_mangle]
pub extern "C" fn lifecycles(n: u64, seed: u64, ten: u32) -> u64 {
    let batching = if ten == 0 {
        Batching::Single
    } else {
        Batching::Ten
    };
    run_lifecycles(n, seed, batching).calls
}
