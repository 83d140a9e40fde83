// Reading and writing the few parts of the wasm binary format the post-build hook touches
// (https://webassembly.github.io/spec/core/binary/).

/** Reads an unsigned LEB128 number at `at`: [value, the offset after it]. */
export function readU32(bytes, at) {
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
export function u32(value) {
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
export function readName(bytes, at) {
  const [length, start] = readU32(bytes, at);
  return [bytes.subarray(start, start + length).toString('utf8'), start + length];
}

/** `text` as a wasm name. */
export function name(text) {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([u32(bytes.length), bytes]);
}

/** The module's sections in order: `{ id, at, start, end }` (`at`: the id byte; `start`/`end`: the body). */
export function sections(wasm) {
  const found = [];
  let at = 8;
  while (at < wasm.length) {
    const [size, start] = readU32(wasm, at + 1);
    found.push({ id: wasm[at], at, start, end: start + size });
    at = start + size;
  }
  return found;
}

/** A section of `id` with `body`, as bytes. */
export function section(id, body) {
  return Buffer.concat([Buffer.from([id]), u32(body.length), body]);
}

/** The offset after an import's description, whose kind byte is at `at`. */
export function skipDescription(bytes, at) {
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
