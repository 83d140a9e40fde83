// Precompressed twins of the release bundle's files, for hosts that serve them as they are
// (nginx `gzip_static on;` and ngx_brotli's `brotli_static on;`, Caddy `file_server {
// precompressed br gzip }`, tower-http's ServeDir in `sqs-sim serve`, ./play and the test
// servers); hosts that compress on the fly never look at them.
// - `<file>.br`: brotli at quality 11 (node's zlib), which every current browser takes over
//   HTTPS and from localhost: ~15% smaller than gzip for the wasm.
// - `<file>.gz`: Zopfli, a gzip encoder that spends seconds searching for a shorter encoding of
//   the same deflate format, so every browser and gzip reads it, about 4% smaller than `gzip -9`.
import { gzipAsync } from '@gfx/zopfli';
import { readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';

/** Zopfli's own advice for files under a few MB. */
const ITERATIONS = 15;

/** Writes `<path>.br` and `<path>.gz` for each of `paths`, after checking that each unpacks to
 *  the same bytes. */
export async function precompress(paths) {
  for (const path of paths) {
    const bytes = readFileSync(path);
    const br = brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    });
    const gz = Buffer.from(await gzipAsync(bytes, { numiterations: ITERATIONS }));
    for (const [twin, unpack] of [[br, brotliDecompressSync], [gz, gunzipSync]]) {
      if (!unpack(twin).equals(bytes)) {
        throw new Error(`precompress: a twin of ${path} does not unpack to it`);
      }
    }
    writeFileSync(`${path}.br`, br);
    writeFileSync(`${path}.gz`, gz);
  }
}
