// Trunk post_build hook (Trunk.toml): gives the wasm's imports short names, in the .wasm and in
// wasm-bindgen's JS glue alike, then mends index.html's integrity hashes. wasm-bindgen names each
// import `__wbg_<name>_<16 hex digits>` and the bundle holds every name twice (the import section
// and the glue's import object): ~5 KB gzip of text that does not compress (issue 7). It also
// drops the glue's indentation and comment lines (~0.9 KB gzip), which Trunk's minifier would
// have done if it could parse the file.
//
// Alone: TRUNK_STAGING_DIR=dist node scripts/short-imports.mjs (a second run changes nothing).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Reads an unsigned LEB128 number at `at`: [value, the offset after it]. */
function readU32(bytes, at) {
  let value = 0;
  let shift = 0;
  let byte;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}

/** `value` as unsigned LEB128 bytes. */
function u32(value) {
  const out = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return Buffer.from(out);
}

/** Reads a wasm name (length, UTF-8) at `at`: [text, the offset after it]. */
function readName(bytes, at) {
  const [length, start] = readU32(bytes, at);
  return [bytes.subarray(start, start + length).toString('utf8'), start + length];
}

function name(text) {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([u32(bytes.length), bytes]);
}

/** The offset after an import's description, whose kind byte is at `at`. */
function skipDescription(bytes, at) {
  const limits = (p) => {
    const flags = bytes[p];
    p = readU32(bytes, p + 1)[1];
    return flags & 1 ? readU32(bytes, p)[1] : p;
  };
  switch (bytes[at]) {
    case 0: return readU32(bytes, at + 1)[1]; // function: its type
    case 1: return limits(at + 2); // table: element type, limits
    case 2: return limits(at + 1); // memory: limits
    case 3: return at + 3; // global: value type, mutability
    case 4: return readU32(bytes, at + 2)[1]; // tag: attribute, type
    default: throw new Error(`unknown import kind ${bytes[at]} at byte ${at}`);
  }
}

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
  const [shortWasm, shortJs] = shortenImports(wasm, squeeze(js.toString('utf8')));
  const html = readFileSync(join(dir, 'index.html'), 'utf8')
    .replace(sri(wasm), sri(shortWasm))
    .replace(sri(js), sri(Buffer.from(shortJs, 'utf8')));
  writeFileSync(join(dir, wasmFile), shortWasm);
  writeFileSync(join(dir, jsFile), shortJs);
  writeFileSync(join(dir, 'index.html'), html);
}
