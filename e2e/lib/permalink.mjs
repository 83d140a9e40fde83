// Permalinks with an inline scenario, as the Share panel makes them: a fragment `#s=1.…` holding
// the session (scenario, the user's actions, playhead, speed) as raw DEFLATE + base64url JSON.
import zlib from 'node:zlib';

/** The fragment that opens `scenario` at `playhead` (virtual ms), paused, at `speed`. */
export function permalink(scenario, { playhead = 0, speed = 1000 } = {}) {
  const session = { scenario, actions: [], playhead, speed };
  const packed = zlib.deflateRawSync(Buffer.from(JSON.stringify(session)), { level: 9 });
  return `#s=1.${packed.toString('base64url')}`;
}
