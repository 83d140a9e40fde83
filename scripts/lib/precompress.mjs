// Gzip twins of the release bundle's files (`index.html.gz` beside `index.html`, ...), made with
// Zopfli: a gzip encoder that spends seconds searching for a shorter encoding of the same
// deflate format, so every browser and gzip reads it, about 4% smaller than `gzip -9`. A host
// that serves precompressed files sends
// these bytes as they are (nginx `gzip_static on;`, Caddy `file_server { precompressed gzip }`,
// ./play and the test servers); others compress on the fly and never look at them.
import { gzipAsync } from '@gfx/zopfli';
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** Zopfli's own advice for files under a few MB. */
const ITERATIONS = 15;

/** Writes `<path>.gz` for each of `paths`, after checking that it unpacks to the same bytes. */
export async function precompress(paths) {
  for (const path of paths) {
    const bytes = readFileSync(path);
    const gz = Buffer.from(await gzipAsync(bytes, { numiterations: ITERATIONS }));
    if (!gunzipSync(gz).equals(bytes)) {
      throw new Error(`precompress: ${path}.gz does not unpack to ${path}`);
    }
    writeFileSync(`${path}.gz`, gz);
  }
}
