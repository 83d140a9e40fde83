#!/usr/bin/env bash
# Installs whatever is missing for building and testing SQS Playground. Idempotent: when
# everything is there it only checks (about a second).
#
#   scripts/setup.sh [PART...]     PART: rust trunk wasm-bindgen npm chromium python container
#                                  (default: all)
#
# Sources: rustup (Rust toolchain, wasm32 and musl targets), crates.io (trunk, wasm-bindgen-cli),
# npm (binaryen = wasm-opt, @gfx/zopfli, playwright-core, axe-core, @aws-sdk/client-sqs), Debian
# (chromium, chromium-driver, podman, runc, busybox-static), PyPI (server/clients/requirements.txt into target/venv, the build
# backend of python/'s plugin, and moto's source). Nothing else.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"

say() { printf 'setup: %s\n' "$*" >&2; }
die() { printf 'setup: ERROR: %s\n' "$*" >&2; exit 1; }
# timed LABEL CMD...: runs CMD and reports how long it took.
timed() {
  local label=$1 start=$SECONDS
  shift
  say "$label ..."
  "$@"
  say "$label: done in $((SECONDS - start)) s"
}
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else die "need root (or sudo) to run: $*"
  fi
}

setup_rust() {
  command -v rustup >/dev/null || die "rustup not found: install Rust with rustup (https://rustup.rs) first"
  [ -n "$RUST_CHANNEL" ] || die "no channel in rust-toolchain.toml"
  local host
  host="$(rustup run stable rustc -vV 2>/dev/null | sed -n 's/^host: //p')" || true
  if ! rustup run "$RUST_CHANNEL" rustc --version >/dev/null 2>&1; then
    # The pinned toolchain is not installed. If `stable` IS that version, name it so (a symlink,
    # as rustup itself lays toolchains out) instead of downloading the same compiler again.
    if [ -n "$host" ] && rustup run stable rustc --version | grep -q "^rustc $RUST_CHANNEL " \
       && [ -d "$RUSTUP_HOME/toolchains/stable-$host" ]; then
      say "Rust $RUST_CHANNEL = the installed stable toolchain: linking it"
      ln -sfn "$RUSTUP_HOME/toolchains/stable-$host" "$RUSTUP_HOME/toolchains/$RUST_CHANNEL-$host"
    else
      timed "rustup toolchain install $RUST_CHANNEL" \
        rustup toolchain install "$RUST_CHANNEL" --profile minimal \
          --component rustfmt --component clippy --target wasm32-unknown-unknown
    fi
  fi
  local installed
  installed="$(rustup component list --toolchain "$RUST_CHANNEL" --installed)"
  for c in rustfmt clippy; do
    grep -q "^$c" <<<"$installed" || timed "rustup component add $c" \
      rustup component add --toolchain "$RUST_CHANNEL" "$c"
  done
  rustup target list --toolchain "$RUST_CHANNEL" --installed | grep -qx wasm32-unknown-unknown \
    || timed "rustup target add wasm32-unknown-unknown" \
      rustup target add --toolchain "$RUST_CHANNEL" wasm32-unknown-unknown

  # The wasm-bindgen crate in Cargo.lock and the wasm-bindgen-cli we install must be the same
  # version, or wasm-bindgen refuses the .wasm (and Trunk would want to download another CLI).
  local locked
  locked="$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/"/, "", $3); print $3}' Cargo.lock)"
  [ "$locked" = "$WASM_BINDGEN_VERSION" ] || die "Cargo.lock has wasm-bindgen '$locked' but \
scripts/versions.env pins WASM_BINDGEN_VERSION=$WASM_BINDGEN_VERSION. They must be equal: pin \
wasm-bindgen = \"=$WASM_BINDGEN_VERSION\" in Cargo.toml, or change versions.env AND Trunk.toml [tools]."

  # Trunk builds with `cargo --offline`: download the locked crates first (quick when done).
  cargo fetch --locked --quiet
}

# cargo_install ARGS...: `cargo install` of a build tool, compiled for a quick install rather than
# for the last per cent of its speed: trunk's own release profile asks for fat LTO and one
# codegen unit, which triples its build on 2 cores; these tools spend their time waiting on
# cargo and wasm-opt, not in their own code.
cargo_install() {
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    cargo install --quiet "$@"
}

setup_trunk() {
  # No default features: they are the self-update check and TLS for downloads, and this
  # project's Trunk never downloads (Trunk.toml: offline).
  [ "$(trunk --version 2>/dev/null)" = "trunk $TRUNK_VERSION" ] \
    || timed "cargo install trunk $TRUNK_VERSION" \
      cargo_install --locked trunk --version "$TRUNK_VERSION" --no-default-features
}

setup_wasm_bindgen() {
  # NOT --locked: wasm-bindgen-cli 0.2.130's own lock pins a webpki-roots crates.io no longer has.
  if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ] \
     || [ "$(wasm-bindgen-test-runner --version 2>/dev/null)" != "wasm-bindgen-test-runner $WASM_BINDGEN_VERSION" ]; then
    timed "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION" \
      cargo_install --force wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
  fi
}

setup_npm() {
  command -v npm >/dev/null || die "npm not found: install Node.js 20 (with npm) first"
  # Re-run `npm ci` only when package-lock.json changed since the last install.
  local stamp=node_modules/.sqs-playground-lock.sha256 want
  want="$(sha256sum package-lock.json | cut -d' ' -f1)"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || [ ! -x node_modules/.bin/wasm-opt ] \
     || [ ! -d node_modules/playwright-core ]; then
    timed "npm ci (binaryen, playwright-core, @gfx/zopfli)" \
      env PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
    echo "$want" >"$stamp"
  fi
  local found
  found="$(command -v wasm-opt)"
  [ "$found" = "$ROOT/node_modules/.bin/wasm-opt" ] || die "wasm-opt on PATH is $found, not npm's"
}

# apt_install PKG...: installs those of the Debian packages that are missing.
apt_install() {
  local missing="" p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
  if [ -n "$missing" ]; then
    timed "apt-get install$missing" as_root env DEBIAN_FRONTEND=noninteractive \
      sh -c "apt-get update -qq && apt-get install -y -qq$missing"
  fi
}

setup_chromium() {
  apt_install chromium chromium-driver
  [ -x "$CHROMIUM_PATH" ] || die "$CHROMIUM_PATH missing after installing chromium"
  [ -x "$CHROMEDRIVER" ] || die "$CHROMEDRIVER missing after installing chromium-driver"
}

# venv DIR REQUIREMENTS WHAT: a venv in DIR with REQUIREMENTS installed, redone only when the
# requirements file changed.
venv() {
  local dir=$1 req=$2 what=$3 stamp want
  stamp="$dir/.sqs-playground-requirements.sha256"
  want="$(sha256sum "$req" | cut -d' ' -f1)"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || [ ! -x "$dir/bin/python" ]; then
    [ -x "$dir/bin/python" ] || timed "python3 -m venv $dir" python3 -m venv "$dir"
    timed "pip install -r $req ($what)" \
      "$dir/bin/pip" install --quiet --disable-pip-version-check -r "$req"
    echo "$want" >"$stamp"
  fi
}

# The Python side of `./check server` and `./check python`: target/venv with
# server/clients/requirements.txt (boto3, AWS CLI v1, moto[server], pytest) and the pytest plugin
# python/, target/venv-query with requirements-query.txt (a boto3 that
# speaks SQS's query protocol), and moto's source distribution unpacked in target/moto-src for its
# tests/test_sqs (never committed).
setup_python() {
  command -v python3 >/dev/null || die "python3 not found: install Python 3 (with venv and pip) first"
  local venv=target/venv req=server/clients/requirements.txt moto
  venv "$venv" "$req" "boto3, awscli, moto[server], pytest"
  venv target/venv-query server/clients/requirements-query.txt "boto3 1.28 for the query protocol"
  moto="$(sed -n 's/^moto\[\{0,1\}[a-z]*\]\{0,1\}==//p' "$req")"
  [ -n "$moto" ] || die "no moto==VERSION in $req"
  if [ ! -d "target/moto-src/moto-$moto/tests/test_sqs" ]; then
    timed "pip download moto==$moto (source distribution, for its tests)" sh -c "
      rm -rf target/moto-src && mkdir -p target/moto-src &&
      '$venv/bin/pip' download --quiet --disable-pip-version-check --no-binary :all: --no-deps \
        -d target/moto-src 'moto==$moto' &&
      tar -xzf target/moto-src/moto-$moto.tar.gz -C target/moto-src"
  fi
  # The pytest plugin (python/, pytest-sqs-sim) for `./check python`, editable: the venv runs the
  # working tree's code; reinstalled only when its pyproject.toml changes (its entry point).
  local stamp="$venv/.pytest-sqs-sim.sha256" want
  want="$(sha256sum python/pyproject.toml | cut -d' ' -f1)"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    timed "pip install -e ./python (pytest-sqs-sim)" \
      "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps -e ./python
    echo "$want" >"$stamp"
  fi
}

# `./check container` (scripts/container-test.sh): podman, runc (crun refuses a host with cgroup
# v1 and v2 controllers both mounted), Debian's static busybox (the image's health check client),
# Rust's static musl target and musl's C compiler (the server's allocator, mimalloc, is C).
setup_container() {
  apt_install podman runc busybox-static musl-tools
  rustup target list --toolchain "$RUST_CHANNEL" --installed | grep -qx x86_64-unknown-linux-musl \
    || timed "rustup target add x86_64-unknown-linux-musl" \
      rustup target add --toolchain "$RUST_CHANNEL" x86_64-unknown-linux-musl
}

parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(rust trunk wasm-bindgen npm chromium python container)
start=$SECONDS
timings=()
for part in "${parts[@]}"; do
  part_start=$SECONDS
  case "$part" in
    rust) setup_rust ;;
    trunk) setup_trunk ;;
    wasm-bindgen) setup_wasm_bindgen ;;
    npm) setup_npm ;;
    chromium) setup_chromium ;;
    python) setup_python ;;
    container) setup_container ;;
    *) die "unknown part '$part' (rust trunk wasm-bindgen npm chromium python container)" ;;
  esac
  timings+=("$part $((SECONDS - part_start)) s")
done
say "parts: $(IFS=,; echo "${timings[*]}" | sed 's/,/, /g')"
say "ready (${parts[*]}) in $((SECONDS - start)) s"
