#!/usr/bin/env bash
# Runs the real-client tests of `sqs-sim serve`, each against a freshly started server on a free
# loopback port:
#
#   server/clients/run.sh [boto3|boto3-query|awscli|node|rust|moto|load|crash]...   (default: all)
#
# boto3_client.py (with the current boto3, which speaks the JSON protocol, and with boto3 1.28 /
# botocore 1.31.60 from target/venv-query, which speaks the query protocol), awscli_client.sh,
# node_client.mjs and rust/ (aws-sdk-sqs; its own cargo workspace, built here: about two minutes
# of CPU the first time) (account 000000000000), moto's own
# tests/test_sqs (moto_suite.py, account 123456789012) compared with moto-expected-failures.txt,
# and the load test: 50 clients send, long-poll and delete $LOAD_MESSAGES messages (default
# 20,000; the full run is `LOAD_MESSAGES=100000 server/clients/run.sh load`), none lost, none
# seen twice within its visibility timeout (`sqs-sim load`); and the crash test (crash_client.py,
# which starts its own server with --data-dir): 50 clients send, receive and delete while the
# server is killed with SIGKILL at random moments and started again on its data directory; every
# answered send must be received and no answered delete may come back.
# Needs what `scripts/setup.sh python npm` installs (target/venv, target/venv-query, node_modules, moto's source
# under target/moto-src) and the binary $SQS_SIM (default: target/debug/sqs-sim). Each client's
# output, then the sum of their closing lines: `N passed, N failed`. Exits 1 if any failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
HERE=server/clients
SQS_SIM="${SQS_SIM:-${CARGO_TARGET_DIR:-$ROOT/target}/debug/sqs-sim}"
VENV="$ROOT/target/venv"
MOTO_SOURCE="$(ls -d "$ROOT"/target/moto-src/moto-*/ 2>/dev/null | tail -n 1)"
export PATH="$VENV/bin:$PATH"

SERVER_PID="" ENDPOINT=""
# start_server ARGS...: a fresh `sqs-sim serve` on a free port; sets ENDPOINT and SERVER_PID.
start_server() {
  local out
  out="$(mktemp)"
  "$SQS_SIM" serve --port 0 "$@" >"$out" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 200); do
    grep -q '^listening on ' "$out" && break
    sleep 0.05
  done
  ENDPOINT="$(sed -n 's/^listening on //p' "$out" | head -n 1)"
  [ -n "$ENDPOINT" ] || { cat "$out"; echo "server: FAILED: sqs-sim serve did not start"; return 1; }
}
stop_server() {
  [ -z "$SERVER_PID" ] || { kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; }
  SERVER_PID=""
}
trap stop_server EXIT

passed=0 failed=0
# client NAME ACCOUNT CMD...: runs CMD (with $ENDPOINT as its last argument's placeholder) against
# a fresh server and adds its closing `N passed, N failed` line.
client() {
  local name=$1 account=$2
  shift 2
  printf '\n---- server client: %s ----\n' "$name"
  start_server --account-id "$account" || { failed=$((failed + 1)); return; }
  tally "$name" "${@/ENDPOINT/$ENDPOINT}"
  stop_server
}

# tally NAME CMD...: runs CMD and adds its closing `N passed, N failed` line.
tally() {
  local name=$1 log line p f
  shift
  log="$(mktemp)"
  "$@" 2>&1 | tee "$log"
  line="$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)"
  if [ -n "$line" ]; then
    read -r p _ f _ <<<"$line"
  else
    p=0 f=1
    echo "server: FAILED: the $name client printed no result line"
  fi
  passed=$((passed + p)) failed=$((failed + f))
}

# load_test ENDPOINT: `sqs-sim load`, its verdict as one test.
load_test() {
  if "$SQS_SIM" load --endpoint "$1" --clients 50 --messages "${LOAD_MESSAGES:-20000}" --limit-secs 300; then
    echo "1 passed, 0 failed"
  else
    echo "server: FAILED: the load test (sqs-sim load)"
    echo "0 passed, 1 failed"
  fi
}

# rust_client ENDPOINT: builds the Rust SDK's client (server/clients/rust) and runs it.
rust_client() {
  local target="${CARGO_TARGET_DIR:-$ROOT/target}"
  if cargo build --locked --quiet --manifest-path "$HERE/rust/Cargo.toml" --target-dir "$target"; then
    "$target/debug/sqs-rust-client" "$1"
  else
    echo "server: FAILED: cargo build of server/clients/rust"
    echo "0 passed, 1 failed"
  fi
}

clients=("$@")
[ ${#clients[@]} -gt 0 ] || clients=(boto3 boto3-query awscli node rust moto load crash)
for c in "${clients[@]}"; do
  case "$c" in
    boto3) client boto3 000000000000 python "$HERE/boto3_client.py" ENDPOINT ;;
    boto3-query) client boto3-query 000000000000 "$ROOT/target/venv-query/bin/python" "$HERE/boto3_client.py" ENDPOINT ;;
    awscli) client awscli 000000000000 "$HERE/awscli_client.sh" ENDPOINT ;;
    node) client node 000000000000 node --no-warnings "$HERE/node_client.mjs" ENDPOINT ;;
    rust) client rust 000000000000 rust_client ENDPOINT ;;
    moto)
      if [ -z "$MOTO_SOURCE" ]; then
        echo "server: FAILED: moto's source is not under target/moto-src (scripts/setup.sh python)"
        failed=$((failed + 1))
      else
        client moto 123456789012 python "$HERE/moto_suite.py" ENDPOINT "$MOTO_SOURCE" "$HERE/moto-expected-failures.txt"
      fi
      ;;
    load) client load 000000000000 load_test ENDPOINT ;;
    crash)
      printf '\n---- server client: crash ----\n'
      tally crash python "$HERE/crash_client.py" "$SQS_SIM"
      ;;
    *) echo "run.sh: unknown client '$c' (boto3 boto3-query awscli node rust moto load crash)" >&2; exit 2 ;;
  esac
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
