// Trunk post_build hook (Trunk.toml): two rewrites of the release bundle for its size (issue 7),
// then index.html's integrity hashes mended.
// - The wasm's functions in an order that gzip compresses better (lib/order-functions.mjs,
//   8.4 KB gzip less than the linker's order), release builds only: their wasm-opt keeps the
//   function names for it (index.html, `-g`) and this step drops them.
// - Short import names, in the .wasm and in wasm-bindgen's JS glue alike. wasm-bindgen names
//   each import `__wbg_<name>_<16 hex digits>` and the bundle holds every name twice (the import
//   section and the glue's import object): ~5 KB gzip of text that does not compress. It also
//   drops the glue's indentation and comment lines (~0.9 KB gzip), which Trunk's minifier would
//   have done if it could parse the file; release builds then minify it with terser (~1 KB gzip
//   more: local names shortened, dead code dropped).
// - Release builds only: a gzip twin of each file, made with Zopfli (lib/precompress.mjs, ~12 KB
//   smaller than gzip -9), for hosts that serve precompressed files.
//
// Alone: TRUNK_STAGING_DIR=dist node scripts/post-build.mjs (imports only; a second run changes
// nothing).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { minify } from 'terser';
import { orderFunctions } from './lib/order-functions.mjs';
import { precompress } from './lib/precompress.mjs';
import { name, readName, readU32, skipDescription, u32 } from './lib/wasm.mjs';

/**
 * Renames the imports of `wasm` that `js` names exactly once, as an object key (`NAME:`), to
 * `w0`, `w1`, ... in both. Returns the new wasm and JS.
 */
export function shortenImports(wasm, js) {
  const parts = [wasm.subarray(0, 8)];
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, start] = readU32(wasm, at + 1);
    const end = start + size;
    if (id !== 2) {
      parts.push(wasm.subarray(at, end));
      at = end;
      continue;
    }
    const [count, first] = readU32(wasm, start);
    const entries = [u32(count)];
    let p = first;
    for (let i = 0; i < count; i++) {
      let module;
      let field;
      [module, p] = readName(wasm, p);
      [field, p] = readName(wasm, p);
      const after = skipDescription(wasm, p);
      const key = `${field}:`;
      if (js.split(field).length === 2 && js.includes(key)) {
        const short = `w${i.toString(36)}`;
        js = js.replace(key, `${short}:`);
        field = short;
      }
      entries.push(name(module), name(field), wasm.subarray(p, after));
      p = after;
    }
    const body = Buffer.concat(entries);
    parts.push(Buffer.from([2]), u32(body.length), body);
    at = end;
  }
  return [Buffer.concat(parts), js];
}

/**
 * `js` without leading whitespace, blank lines and `//` comment lines. Lines are only trimmed,
 * never joined, so the code means the same; a template literal spanning lines (whose text the
 * trimming would change) is refused loudly.
 */
export function squeeze(js) {
  const lines = js
    .split('\n')
    .map((line) => line.trimStart())
    .filter((line) => line !== '' && !line.startsWith('//'));
  const open = lines.find((line) => line.split('`').length % 2 === 0);
  if (open !== undefined) {
    throw new Error(`squeeze: a template literal spans lines at: ${open}`);
  }
  return `${lines.join('\n')}\n`;
}

const dir = process.env.TRUNK_STAGING_DIR;
if (dir) {
  const wasmFile = readdirSync(dir).find((f) => f.endsWith('_bg.wasm'));
  const jsFile = wasmFile.replace(/_bg\.wasm$/, '.js');
  const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
  const wasm = readFileSync(join(dir, wasmFile));
  const js = readFileSync(join(dir, jsFile));
  const release = process.env.TRUNK_PROFILE === 'release';
  const ordered = release ? orderFunctions(wasm) : wasm;
  const [shortWasm, squeezedJs] = shortenImports(ordered, squeeze(js.toString('utf8')));
  const shortJs = release ? (await minify(squeezedJs, { module: true })).code : squeezedJs;
  const html = readFileSync(join(dir, 'index.html'), 'utf8')
    .replace(sri(wasm), sri(shortWasm))
    .replace(sri(js), sri(Buffer.from(shortJs, 'utf8')));
  writeFileSync(join(dir, wasmFile), shortWasm);
  writeFileSync(join(dir, jsFile), shortJs);
  writeFileSync(join(dir, 'index.html'), html);
  if (release) {
    await precompress([wasmFile, jsFile, 'index.html'].map((file) => join(dir, file)));
  }
}
