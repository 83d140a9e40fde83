#!/usr/bin/env bash
# scripts/build-release.sh [TRUNK ARGS...]: the release bundle into dist/ (or --dist DIR), as
# ./play, ./check e2e and ./check perf build it: `trunk build --release` with the standard
# library rebuilt for panic=immediate-abort.
#
# Why (issue 7, the bundle budget): with the prebuilt standard library every panic site (each
# bounds check, unwrap and expect) carries its message and source location to a formatting
# machinery; with immediate-abort a panic is a trap at once, which drops ~17 KB of the gzipped
# bundle (285,156 -> 267,459 when this was written). The price: a release build's panic reaches
# the page as a bare `RuntimeError: unreachable`, which index.html turns into the same error box
# that debug builds fill with the Rust panic's message (src/panic_box.rs). Replays are
# deterministic, so a crash reproduces in a debug build (`trunk serve`) with its message.
#
# -Zbuild-std and -Cpanic=immediate-abort are unstable: RUSTC_BOOTSTRAP=1 allows them on the
# pinned stable toolchain (rust-toolchain.toml, which adds rust-src: std's sources). A toolchain
# bump must check that they still work. Its own target directory (target/bundle), since its
# flags differ from every other build's. The flags: scripts/env.sh's bundle_flags, which
# ./check perf also builds the engine's browser benchmark with (tools/enginebench).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
bundle_flags
exec trunk build --release "$@"
