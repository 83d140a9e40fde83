#!/usr/bin/env bash
# ./check perf: the performance figures, one `name=value` line each. Benchmarks, not timed tests:
# they print what they measure (`name=unmeasured (reason)` when something cannot be measured) and
# never fail on a number. Run by `./check perf` after its setup; alone: scripts/perf.sh.
#
#   bundle_gzip9_bytes,         the release bundle as a plain static host sends it: each shipped
#   bundle_brotli11_bytes       file gzip -9 (and brotli -q 11) on its own, summed
#                               (scripts/bundle-size.sh, which ./check e2e runs as a gate)
#   bundle_gzip_bytes,          the same files as the build's Zopfli gzip and brotli twins, for
#   bundle_br_bytes             hosts that serve precompressed files
#   time_to_interactive_ms, first_paint_ms, interactive_ms, frame_ms_p50, frame_ms_p95,
#   seek_ms_max, heap_growth_mb, heap_growth_late_mb
#                               the page in headless Chromium (e2e/perf.mjs)
#   fast_forward_day_ms         a simulated day (sqs_sim::bench) run in headless Chromium (wasm
#                               built with the page's `web` profile: tests/perf.rs), median of 3
#                               runs; fast_forward_day_native_ms natively (one run)
#   lifecycles_per_sec          `sqs-sim bench` natively (batch of 10, median of 3 runs of 1M);
#                               engine_wasm_lifecycles_per_sec the same in the browser (200k,
#                               tests/perf.rs)
#   seek_wasm_ms_max, seek_native_ms_max
#                               rewinding within an hour from sqs_sim::checkpoints (the World
#                               API; seek_ms_max above is the page's own timeline)
#
# Environment: PERF_SKIP="page wasm native" (any of them) skips parts; PERF_FRAMES_SECONDS
# (default 10), PERF_HEAP_SECONDS (default 60). Full output: target/check/perf.log.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

LOG="$ROOT/target/check/perf.log"
mkdir -p "$(dirname "$LOG")"
: >"$LOG"
FIGURES="$ROOT/target/check/perf.figures"
: >"$FIGURES"
SKIP=" ${PERF_SKIP:-} "

# figure LINE: keeps a figure line for the list printed at the end (progress goes with "perf: ").
figure() { echo "$1" >>"$FIGURES"; echo "$1" >>"$LOG"; }
# run_logged CMD...: runs CMD, its output to the log only.
run_logged() { printf '+ %s\n' "$*" >>"$LOG"; "$@" >>"$LOG" 2>&1; }

# Its own dist directory: a concurrent build (./check e2e, ./play) stages in dist/.
DIST="$ROOT/target/perf-dist"
echo "perf: building the release bundle (trunk build --release --dist target/perf-dist)"
status=0
if run_logged trunk build --release --dist "$DIST"; then
  bundle=1
  sizes=$(scripts/bundle-size.sh "$DIST" 2>&1)
  echo "$sizes" >>"$LOG"
  echo "$sizes" | grep '^bundle-size: ' | sed 's/^bundle-size: /perf: /'
  echo "$sizes" | grep -E '^bundle_(gzip9|brotli11)_bytes=' | while IFS= read -r line; do figure "$line"; done
  total=0
  brotli=0
  for file in "$DIST"/*.wasm "$DIST"/*.js "$DIST"/*.css "$DIST"/*.html; do
    [ -f "$file" ] || continue
    if gzip -dc "$file.gz" 2>/dev/null | cmp -s - "$file" &&
      node -e 'const z = require("zlib"), fs = require("fs"); process.exit(z.brotliDecompressSync(fs.readFileSync(process.argv[1] + ".br")).equals(fs.readFileSync(process.argv[1])) ? 0 : 1)' "$file" 2>/dev/null; then
      total=$((total + $(wc -c <"$file.gz")))
      brotli=$((brotli + $(wc -c <"$file.br")))
    else
      echo "perf: FAILED: $file.gz or $file.br is missing or does not unpack to $file" | tee -a "$LOG" >&2
      status=1
    fi
  done
  if [ "$status" = 0 ]; then
    figure "bundle_gzip_bytes=$total"
    figure "bundle_br_bytes=$brotli"
  else
    figure "bundle_gzip_bytes=FAILED (a twin is missing or wrong: see above)"
  fi
else
  figure "bundle_gzip9_bytes=unmeasured (trunk build --release failed: see $LOG)"
  bundle=0
  status=1
fi

if [[ "$SKIP" != *" page "* ]]; then
  if [ "$bundle" = 1 ]; then
    echo "perf: driving the page in headless Chromium (e2e/perf.mjs)"
    node e2e/perf.mjs --dist "$DIST" --frames-seconds "${PERF_FRAMES_SECONDS:-10}" --heap-seconds "${PERF_HEAP_SECONDS:-60}" \
      2> >(tee -a "$LOG" >&2) | while IFS= read -r line; do figure "$line"; done
  else
    for name in time_to_interactive_ms first_paint_ms interactive_ms frame_ms_p50 frame_ms_p95 seek_ms_max heap_growth_mb heap_growth_late_mb; do
      figure "$name=unmeasured (no bundle)"
    done
  fi
fi

if [[ "$SKIP" != *" wasm "* ]]; then
  echo "perf: wasm benchmarks in headless Chromium (cargo test --profile web --test perf)"
  # The `web` profile: the code the page ships (not `release`, which is faster but not served).
  out=$(WASM_BINDGEN_TEST_TIMEOUT=1800 cargo test --locked --profile web --target wasm32-unknown-unknown \
    -p sqs-playground --test perf -- --include-ignored --nocapture 2>&1)
  echo "$out" >>"$LOG"
  echo "$out" | grep -E '^wasm ' | sed 's/^/perf: /'
  rate=$(echo "$out" | sed -n 's/^.*engine_wasm_lifecycles_per_sec=\([0-9]*\).*$/\1/p' | tail -n 1)
  figure "engine_wasm_lifecycles_per_sec=${rate:-unmeasured (the wasm benchmark did not finish: see $LOG)}"
  day=$(echo "$out" | sed -n 's/^.*fast_forward_day_wasm_ms=\([0-9]*\).*$/\1/p' | tail -n 1)
  seek=$(echo "$out" | sed -n 's/^.*seek_wasm_ms_max=\([0-9]*\).*$/\1/p' | tail -n 1)
  figure "fast_forward_day_ms=${day:-unmeasured (the wasm benchmark did not finish: see $LOG)}"
  figure "seek_wasm_ms_max=${seek:-unmeasured (the wasm benchmark did not finish: see $LOG)}"
fi

if [[ "$SKIP" != *" native "* ]]; then
  echo "perf: native benchmarks (cargo build --release -p sqs-server)"
  if run_logged cargo build --locked --release -p sqs-server; then
    sim="${CARGO_TARGET_DIR:-$ROOT/target}/release/sqs-sim"
    day=$("$sim" bench day 2>&1 | tee -a "$LOG")
    echo "$day" | sed 's/^/perf: native /'
    figure "fast_forward_day_native_ms=$(echo "$day" | sed -n 's/^fast_forward_day_ms=\([0-9]*\).*$/\1/p')"
    seek=$("$sim" bench seek 2>&1 | tee -a "$LOG")
    echo "$seek" | sed 's/^/perf: native /'
    figure "seek_native_ms_max=$(echo "$seek" | sed -n 's/^seek_ms_max=\([0-9]*\).*$/\1/p')"
    bench=$("$sim" bench 2>&1 | tee -a "$LOG")
    echo "$bench" | grep -v '^lifecycles_per_sec=' | sed 's/^/perf: native /'
    figure "$(echo "$bench" | grep '^lifecycles_per_sec=' || echo 'lifecycles_per_sec=unmeasured (sqs-sim bench failed)')"
  else
    figure "lifecycles_per_sec=unmeasured (cargo build failed: see $LOG)"
  fi
fi

echo
echo "perf: figures ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores)"
cat "$FIGURES"
# A build that failed or a wrong gzip twin fails the run; no figure does.
exit "$status"
