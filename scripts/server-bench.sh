#!/usr/bin/env bash
# The benchmark of `sqs-sim serve` (a benchmark, not a test): the same load, CLIENTS concurrent
# clients each repeating SendMessage, ReceiveMessage and DeleteMessage for SECONDS
# (`sqs-sim load --bench`), against our endpoint in memory, against it with a data directory
# (`--data-dir`, its default `--fsync`) and against moto's server (moto[server] from target/venv),
# in one run; prints requests per second and p50/p99 latency for each, ours over moto's, the data
# directory's over the in-memory one's, and the disk the data directory used. With BASELINE=PATH
# (another build of sqs-sim, e.g. of an older commit), its server gets the same load in the same
# run, and ours over its is printed too: ROUNDS rounds (1 by default) of the baseline's run then
# ours, so that load from elsewhere on the machine falls on both alike; each round's ratio and
# their median are printed, and (where /proc tells it) each server's CPU time per request, which
# a busy machine disturbs less than the rate. SERVE_ARGS are added to both of our servers'
# command lines (`--log-level warn`: without the per-call log).
#
#   [BASELINE=PATH [ROUNDS=N]] [SERVE_ARGS=...] scripts/server-bench.sh [CLIENTS (50)] [SECONDS (10)]
#
# Needs `scripts/setup.sh python` (moto). Builds the release sqs-sim. Loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CLIENTS=${1:-50}
SECONDS_EACH=${2:-10}
ROUNDS=${ROUNDS:-1}
SIM="${CARGO_TARGET_DIR:-$ROOT/target}/release/sqs-sim"
MOTO="$ROOT/target/venv/bin/moto_server"
[ -x "$MOTO" ] || { echo "server-bench: $MOTO missing: run scripts/setup.sh python" >&2; exit 1; }
cargo build --locked --release -p sqs-server >&2

pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT
log="$(mktemp -d)"
trap 'cleanup; rm -rf "$log"' EXIT

# shellcheck disable=SC2086
"$SIM" serve --port 0 ${SERVE_ARGS:-} >"$log/ours" 2>&1 &
ours_pid=$!
pids+=($!)
# shellcheck disable=SC2086
"$SIM" serve --port 0 --data-dir "$log/data" ${SERVE_ARGS:-} >"$log/durable" 2>&1 &
pids+=($!)
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$MOTO" -H 127.0.0.1 -p "$port" >"$log/moto" 2>&1 &
pids+=($!)
if [ -n "${BASELINE:-}" ]; then
  "$BASELINE" serve --port 0 >"$log/baseline" 2>&1 &
  baseline_pid=$!
  pids+=($!)
fi
# listening LOG: the address a server logging to LOG listens on, once it does.
listening() {
  local at=""
  for _ in $(seq 200); do
    at="$(sed -n 's/^listening on //p' "$1")"
    [ -n "$at" ] && break
    sleep 0.1
  done
  [ -n "$at" ] || { cat "$1" >&2; echo "server-bench: $1 did not start" >&2; exit 1; }
  echo "$at"
}
moto="http://127.0.0.1:$port"
ours="$(listening "$log/ours")"
for _ in $(seq 200); do curl -s -o /dev/null "$moto/" && break; sleep 0.1; done

# load ENDPOINT [PID]: the load's figures against ENDPOINT; with the PID of the server behind it,
# also the server's CPU time (user + system) per request, where /proc tells it.
load() {
  local before after figures
  before="$(cpu "${2:-}")"
  figures="$("$SIM" load --bench --endpoint "$1" --clients "$CLIENTS" --seconds "$SECONDS_EACH")"
  after="$(cpu "${2:-}")"
  if [ -n "$before" ] && [ -n "$after" ]; then
    figures+="$(python3 -c "import os, sys; n = int(sys.argv[3]); print(f' server_cpu_us_per_req={(int(sys.argv[2]) - int(sys.argv[1])) * 1e6 / os.sysconf(\"SC_CLK_TCK\") / n:.1f}')" "$before" "$after" "$(sed -n 's/.*requests=\([0-9]*\).*/\1/p' <<<"$figures")")"
  fi
  echo "$figures"
}
# cpu PID: the clock ticks PID has run for (user + system), if /proc says.
cpu() { [ -n "$1" ] && [ -r "/proc/$1/stat" ] && awk '{ print $14 + $15 }' "/proc/$1/stat" || true; }
rate() { sed -n 's/.*req_per_sec=\([0-9]*\).*/\1/p' <<<"$1"; }
cpu_per_req() { sed -n 's/.*server_cpu_us_per_req=\([0-9.]*\).*/\1/p' <<<"$1"; }
# ratio NAME WHAT A B: NAME=A/B, and what it is.
ratio() { python3 -c "import sys; a, b = map(float, sys.argv[2:4]); print(f'{sys.argv[1]}={a / b:.2f} ({sys.argv[4]})')" "$1" "$3" "$4" "$2"; }

echo "load: $CLIENTS clients x (SendMessage, ReceiveMessage, DeleteMessage) for $SECONDS_EACH s each"
a="$(load "$ours" "$ours_pid")"
echo "sqs-sim serve: $a"
d="$(load "$(listening "$log/durable")")"
policy="$(sed -n 's/^data directory .*(\(.*\)).*/\1/p' "$log/durable" | head -n 1)"
echo "sqs-sim serve --data-dir: $d ($policy; $(du -sh "$log/data" | cut -f1) on disk)"
b="$(load "$moto")"
echo "moto_server:   $b"
ratio throughput_ratio "ours / moto's; target >= 20" "$(rate "$a")" "$(rate "$b")"
ratio durable_ratio "--data-dir / in memory; target >= 0.5" "$(rate "$d")" "$(rate "$a")"
if [ -n "${BASELINE:-}" ]; then
  baseline="$(listening "$log/baseline")"
  # The same load once, unmeasured, as ours had above: both then start the rounds warm (the
  # live view's record of calls full, the allocator's memory in use).
  load "$baseline" >/dev/null
  pairs=()
  for round in $(seq "$ROUNDS"); do
    c="$(load "$baseline" "$baseline_pid")"
    echo "round $round baseline: $c ($BASELINE)"
    a="$(load "$ours" "$ours_pid")"
    echo "round $round ours:     $a"
    ratio round_ratio "ours / the baseline's" "$(rate "$a")" "$(rate "$c")"
    pairs+=("$(rate "$a") $(rate "$c") $(cpu_per_req "$a") $(cpu_per_req "$c")")
  done
  python3 -c "
import statistics, sys
rounds = [pair.split() for pair in sys.argv[1:]]
rates = [int(r[0]) / int(r[1]) for r in rounds]
print(f'baseline_ratio={statistics.median(rates):.2f} (ours / the baseline\'s, median of {len(rates)} rounds; target >= 0.9)')
if all(len(r) == 4 for r in rounds):
    cpus = [float(r[3]) / float(r[2]) for r in rounds]
    print(f'baseline_cpu_ratio={statistics.median(cpus):.2f} (the baseline\'s CPU time per request / ours, median)')
" "${pairs[@]}"
fi
