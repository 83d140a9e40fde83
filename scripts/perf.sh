#!/usr/bin/env bash
# ./check perf: the performance figures, one `name=value` line each. Benchmarks, not timed tests:
# they print what they measure (`name=unmeasured (reason)` when something cannot be measured) and
# never fail on a number. Run by `./check perf` after its setup; alone: scripts/perf.sh.
#
#   bundle_gzip_bytes           the release bundle's .wasm + .js + .css + index.html (which holds
#                               the stylesheet and JS loader inline) as shipped gzip-compressed:
#                               the gzip twins the build writes beside them (Zopfli,
#                               scripts/lib/precompress.mjs), summed. FAILED when a twin is missing
#                               or does not unpack to its file, and when core's float parser
#                               (dec2flt, ~13 KB with its tables) or printer (float_to_decimal, the
#                               f64 Display/{:.N} code) is in the wasm: the parser came back
#                               unnoticed once (a `str::parse::<f64>`); the views print fixed-point
#                               from integers
#   bundle_gzip9_bytes          the same files each `gzip -9`: what a host that compresses on the
#                               fly sends at best
#   time_to_interactive_ms, frame_ms_p50, frame_ms_p95, seek_ms_max, heap_growth_mb,
#   heap_growth_late_mb
#                               the page in headless Chromium (e2e/perf.mjs)
#   fast_forward_day_ms         the issue's day (sqs_sim::bench) run in headless Chromium (wasm
#                               built with the page's `web` profile and engine MIR inlining:
#                               tests/perf.rs, whose `cargo test` keeps the prebuilt std and
#                               panic=abort), median of 3 runs; fast_forward_day_native_ms
#                               natively (one run)
#   lifecycles_per_sec          `sqs-sim bench` natively (batch of 10, median of 3 runs of 1M);
#                               engine_wasm_lifecycles_per_sec the same in the browser (200k),
#                               built exactly as the bundle's engine (tools/enginebench)
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
echo "perf: building the release bundle (scripts/build-release.sh --dist target/perf-dist)"
if run_logged scripts/build-release.sh --dist "$DIST"; then
  total=0 total9=0 twins=1
  while IFS= read -r file; do
    gz9=$(gzip -9 -c "$file" | wc -c)
    total9=$((total9 + gz9))
    if gzip -dc "$file.gz" 2>/dev/null | cmp -s - "$file"; then
      gz=$(wc -c <"$file.gz")
    else
      gz=0 twins=0
      echo "perf: FAILED: $file.gz is missing or does not unpack to $file" | tee -a "$LOG" >&2
    fi
    total=$((total + gz))
    printf 'perf: %-50s %9d bytes, %8d shipped .gz, %8d gzip -9\n' "${file#"$DIST"/}" "$(wc -c <"$file")" "$gz" "$gz9" | tee -a "$LOG"
  # index.html carries the JS loader inline: it counts as the bundle's JS.
  done < <(find "$DIST" -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' -o -name '*.html' \) -not -path '*/.stage/*' | sort)
  # The name section of the wasm cargo built for trunk (wasm-opt strips names from dist's copy).
  built="$ROOT/target/bundle/wasm32-unknown-unknown/web/sqs-playground.wasm"
  # A missing file counts as a failure: the check must not pass by not running.
  floats=$(grep -acE 'dec2flt|float_to_decimal' "$built" 2>/dev/null || true)
  if [ "$twins" = 0 ]; then
    figure "bundle_gzip_bytes=FAILED (a gzip twin is missing or wrong: see above)"
    status=1
  elif [ "${floats:-0}" != 0 ] || [ ! -f "$built" ]; then
    echo "perf: FAILED: core's float parser (dec2flt) or printer (float_to_decimal) is in $built (or it is missing); who calls it:" \
      "twiggy paths $built <a function from: twiggy top -n 100000 $built | grep -E 'dec2flt|float_to_decimal'>" | tee -a "$LOG" >&2
    figure "bundle_gzip_bytes=FAILED ($total bytes, but core's float parser dec2flt or printer float_to_decimal is back in the wasm, or the wasm to check is missing: see above)"
    status=1
  else
    figure "bundle_gzip_bytes=$total"
    status=0
  fi
  figure "bundle_gzip9_bytes=$total9"
  bundle=1
else
  figure "bundle_gzip_bytes=unmeasured (scripts/build-release.sh failed: see $LOG)"
  bundle=0
  # The float guard could not run: that fails too.
  status=1
fi

if [[ "$SKIP" != *" page "* ]]; then
  if [ "$bundle" = 1 ]; then
    echo "perf: driving the page in headless Chromium (e2e/perf.mjs)"
    node e2e/perf.mjs --dist "$DIST" --frames-seconds "${PERF_FRAMES_SECONDS:-10}" --heap-seconds "${PERF_HEAP_SECONDS:-60}" \
      2> >(tee -a "$LOG" >&2) | while IFS= read -r line; do figure "$line"; done
  else
    for name in time_to_interactive_ms frame_ms_p50 frame_ms_p95 seek_ms_max heap_growth_mb heap_growth_late_mb; do
      figure "$name=unmeasured (no bundle)"
    done
  fi
fi

if [[ "$SKIP" != *" wasm "* ]]; then
  echo "perf: the engine benchmark in headless Chromium (tools/enginebench, built as the bundle)"
  if (bundle_flags && run_logged cargo build --locked --profile web --target wasm32-unknown-unknown -p sqs-enginebench); then
    out=$(node tools/enginebench/run.mjs "$ROOT/target/bundle/wasm32-unknown-unknown/web/sqs_enginebench.wasm" 2>&1)
    echo "$out" >>"$LOG"
    echo "$out" | grep -E '^wasm ' | sed 's/^/perf: /'
    rate=$(echo "$out" | sed -n 's/^engine_wasm_lifecycles_per_sec=\([0-9]*\)$/\1/p' | tail -n 1)
    figure "engine_wasm_lifecycles_per_sec=${rate:-unmeasured (the browser run failed: see $LOG)}"
  else
    figure "engine_wasm_lifecycles_per_sec=unmeasured (cargo build -p sqs-enginebench failed: see $LOG)"
  fi
  echo "perf: wasm benchmarks in headless Chromium (cargo test --profile web --test perf)"
  # The `web` profile: the code the page ships (not `release`, which is faster but not served).
  # With the bundle's MIR inlining of the engine (scripts/rustc-bundle.sh; not its std rebuild,
  # which `cargo test` cannot do), in a target directory of its own: cargo does not rebuild
  # when only the wrapper changes.
  out=$(RUSTC_BOOTSTRAP=1 RUSTC_WRAPPER="$ROOT/scripts/rustc-bundle.sh" CARGO_TARGET_DIR="$ROOT/target/perf-wasm" \
    WASM_BINDGEN_TEST_TIMEOUT=1800 cargo test --locked --profile web --target wasm32-unknown-unknown \
    -p sqs-playground --test perf -- --include-ignored --nocapture 2>&1)
  echo "$out" >>"$LOG"
  echo "$out" | grep -E '^wasm ' | sed 's/^/perf: /'
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
# The float guard (parser and printer) is the one check here that fails the run.
exit "$status"
