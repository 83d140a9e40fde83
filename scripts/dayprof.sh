#!/usr/bin/env bash
# Where the day's time goes in the browser: builds tools/dayprof (the day benchmark as wasm at the
# page's opt-level, function names kept) and profiles one run in headless Chromium
# (tools/dayprof/prof.mjs: self and inclusive time by function; target/dayprof/day.cpuprofile).
# Needs what `./check` installs. Usage: scripts/dayprof.sh [SECONDS=86400] [TOP=40]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
OUT="$ROOT/target/dayprof"
mkdir -p "$OUT"
# Its own workspace, pinned to the project's versions, built into the project's target dir.
cp Cargo.lock tools/dayprof/Cargo.lock
trap 'rm -f tools/dayprof/Cargo.lock' EXIT
cargo build --offline --release --target wasm32-unknown-unknown \
  --manifest-path tools/dayprof/Cargo.toml --target-dir "$ROOT/target/dayprof-build"
wasm-bindgen --keep-debug --target web --no-typescript --out-dir "$OUT" \
  "$ROOT/target/dayprof-build/wasm32-unknown-unknown/release/dayprof.wasm"
node tools/dayprof/prof.mjs "$OUT" "${1:-86400}" "${2:-40}"
