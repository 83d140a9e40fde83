#!/usr/bin/env bash
# scripts/bundle-size.sh [DIST]: the release bundle's size as a plain static host sends it, and
# its budget. Each shipped file (.wasm, .js, .css, .html; index.html holds the stylesheet and the
# JS loader inline) compressed on its own with `gzip -9`, summed: `bundle_gzip9_bytes=N`; beside
# it the same with brotli at quality 11 (`bundle_brotli11_bytes=N`, node's zlib). Exits 1 when
# the gzip -9 sum is above the budget (BUNDLE_BUDGET_BYTES, default 442000: the lowest figure
# reached, 441,581, rounded up to a thousand; it follows the figure down, and a new feature finds
# its bytes rather than raising it). DIST is the player (dist/): the live bundle that `sqs-sim
# serve` serves (dist-live/) has no budget. The bytes are deterministic for one checkout, so this is a
# gate, not a timing; the path of Cargo's registry is in the wasm's panic locations, so another
# machine's build can differ by some tens of bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
DIST="${1:-dist}"
BUDGET="${BUNDLE_BUDGET_BYTES:-442000}"
[ -f "$DIST/index.html" ] || { echo "bundle-size: $DIST/index.html not found: build the bundle first (trunk build --release)" >&2; exit 1; }
total=0
while IFS= read -r file; do
  gz=$(gzip -9 -c "$file" | wc -c)
  total=$((total + gz))
  printf 'bundle-size: %-46s %9d bytes, %8d gzip -9\n' "${file#"$DIST"/}" "$(wc -c <"$file")" "$gz"
done < <(find "$DIST" -maxdepth 1 -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' -o -name '*.html' \) | sort)
brotli=$(node -e '
const fs = require("fs"), zlib = require("zlib"), path = require("path");
const dir = process.argv[1];
let sum = 0;
for (const f of fs.readdirSync(dir)) {
  if (!/\.(wasm|js|css|html)$/.test(f)) continue;
  sum += zlib.brotliCompressSync(fs.readFileSync(path.join(dir, f)), {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 },
  }).length;
}
console.log(sum);' "$DIST")
echo "bundle_gzip9_bytes=$total"
echo "bundle_brotli11_bytes=$brotli"
if [ "$total" -gt "$BUDGET" ]; then
  echo "bundle-size: FAILED: the bundle is $total bytes gzip -9, above its budget of $BUDGET" >&2
  exit 1
fi
echo "bundle-size: within the budget of $BUDGET bytes gzip -9 ($((BUDGET - total)) to spare)"
