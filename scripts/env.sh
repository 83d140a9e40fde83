# shellcheck shell=bash
# Sourced by ./play, ./check and scripts/*.sh: the environment every build and test uses.
# Safe to source more than once.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ROOT

# Pinned tool versions (TRUNK_VERSION, WASM_BINDGEN_VERSION).
# shellcheck source=versions.env
. "$ROOT/scripts/versions.env"

export CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
export RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}"
# npm's binaryen (wasm-opt 132) MUST come before any other wasm-opt (Debian's 108 cannot parse
# wasm-bindgen 0.2.130 output); cargo-installed trunk and wasm-bindgen next.
case ":$PATH:" in
  *":$ROOT/node_modules/.bin:"*) ;;
  *) export PATH="$ROOT/node_modules/.bin:$CARGO_HOME/bin:$PATH" ;;
esac

# Trunk: use the tools on PATH, never download anything, no update check against crates.io.
export TRUNK_OFFLINE=true
export TRUNK_SKIP_VERSION_CHECK=true
export TRUNK_NO_COLOR=true

# wasm-bindgen-test: `cargo test --target wasm32-unknown-unknown` runs the .wasm in headless
# Chromium through Debian's chromedriver; scripts/webdriver.json adds the no-network flags.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export WASM_BINDGEN_TEST_WEBDRIVER_JSON="$ROOT/scripts/webdriver.json"

# Playwright (e2e/): Debian's Chromium, never a downloaded browser.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"

# The Rust toolchain named in rust-toolchain.toml (e.g. 1.95.0).
RUST_CHANNEL="$(sed -n 's/^[[:space:]]*channel[[:space:]]*=[[:space:]]*"\(.*\)".*/\1/p' "$ROOT/rust-toolchain.toml")"
export RUST_CHANNEL
