// Trunk post_build hook (Trunk.toml): release builds get a brotli and a gzip twin of each file
// they ship (`index.html.br` and `index.html.gz` beside `index.html`, ...: lib/precompress.mjs),
// for hosts that serve precompressed files. Hosts that compress on the fly ignore them.
//
// Alone: TRUNK_STAGING_DIR=dist TRUNK_PROFILE=release node scripts/post-build.mjs
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { precompress } from './lib/precompress.mjs';

const dir = process.env.TRUNK_STAGING_DIR;
if (dir && process.env.TRUNK_PROFILE === 'release') {
  const shipped = readdirSync(dir).filter((f) => /\.(wasm|js|css|html)$/.test(f));
  await precompress(shipped.map((file) => join(dir, file)));
}
