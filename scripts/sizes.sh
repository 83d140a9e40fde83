#!/usr/bin/env bash
# scripts/sizes.sh [TOP]: where the release bundle's bytes are. Builds the bundle (scripts/perf.sh,
# bundle only) and prints its sizes, then the `web` wasm optimised as the page's (wasm-opt -Oz)
# but with its names kept, grouped by origin, and its TOP (default 25)
# largest functions and data segments. twiggy (crates.io) is installed into target/tools on first
# use. Every function: target/sizes/top.csv; `target/tools/bin/twiggy paths target/sizes/opt.wasm
# <name>` tells who calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
PERF_SKIP="page wasm native" scripts/perf.sh | grep -E 'gzip|brotli'
twiggy="$ROOT/target/tools/bin/twiggy"
[ -x "$twiggy" ] || cargo install --locked --quiet twiggy --root "$ROOT/target/tools"
out="$ROOT/target/sizes"
mkdir -p "$out"
wasm-bindgen --target web --out-dir "$out" "${CARGO_TARGET_DIR:-$ROOT/target}/wasm32-unknown-unknown/web/sqs-playground.wasm"
# The features named (not --all-features): twiggy cannot read a module that declares the others.
wasm-opt -Oz -g --enable-bulk-memory \
  --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
  "$out/sqs-playground_bg.wasm" -o "$out/opt.wasm"
"$twiggy" top -n 100000 --format csv "$out/opt.wasm" >"$out/top.csv"
python3 - "$out/top.csv" "${1:-25}" <<'PY'
import collections, csv, re, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if 'subsection' not in r['Name']]
top = int(sys.argv[2])

def origin(name):
    name = re.sub(r'\[[0-9a-f]+\]', '', name)
    if name.startswith('data'):
        return 'data'
    if 'Stateful>::view' in name:
        return "the page's component views"
    if 'collections::btree' in name:
        return 'B-tree code'
    m = re.match(r'^(?:&)?(?:mut )?(?:dyn )?([a-z_][a-z0-9_]*)::', re.sub(r'^<+', '', name))
    return m.group(1) if m else 'other'

by_origin = collections.Counter()
for r in rows:
    by_origin[origin(r['Name'])] += int(r['ShallowSize'])
print(f"raw bytes after wasm-opt -Oz, names kept: {sum(by_origin.values())}")
for name, size in by_origin.most_common(14):
    print(f"{size:8d} {name}")
print('largest:')
for r in rows[:top]:
    print(f"{int(r['ShallowSize']):8d} {re.sub(r'::h[0-9a-f]{16}', '', r['Name'])[:150]}")
PY
