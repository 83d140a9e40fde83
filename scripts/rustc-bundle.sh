#!/usr/bin/env bash
# RUSTC_WRAPPER of the release bundle's build (scripts/env.sh's bundle_flags): rustc as cargo
# calls it, plus MIR inlining for the engine crate alone.
#
# Why: the bundle builds the engine at opt-level "z" (13 KB gzip less than "s"), and at "s" or
# "z" rustc does not inline MIR, so each small generic of the standard library the engine's hot
# path calls (Vec::push, Option::expect, slice indexing...) stays a call, which LLVM at "z" does
# not inline either: the browser's engine ran at ~0.75 of its "s" speed, under issue 7's "within
# 2x of native". `-Zinline-mir=yes` on the engine brings it back to its "s" speed at about "z"'s
# size; on every crate it would cost ~7 KB gzip more (views, Yew, the simulation).
# Stable cargo has no per-crate rustflags (profile-rustflags is unstable), hence this wrapper.
rustc="$1"
shift
case " $* " in
  *" --crate-name sqs_engine "*) exec "$rustc" "$@" -Zinline-mir=yes ;;
  *) exec "$rustc" "$@" ;;
esac
