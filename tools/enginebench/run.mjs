// engine_wasm_lifecycles_per_sec: times tools/enginebench's module (built by scripts/perf.sh as
// the page's bundle is built) in headless Chromium, as `sqs_engine::bench::measure` does natively:
// for single messages and batches of 10, three runs of 200,000 lifecycles (seeds 0, 1, 2), the
// median, after one untimed run. Prints the lines scripts/perf.sh reads.
//   node tools/enginebench/run.mjs WASM
import { readFileSync } from 'node:fs';
import { launchChromium } from '../../e2e/lib/chromium.mjs';

const LIFECYCLES = 200_000;
const RUNS = 3;

const wasm = readFileSync(process.argv[2]).toString('base64');
const browser = await launchChromium({ headless: true });
const page = await browser.newPage();
const runs = await page.evaluate(
  async ({ wasm, lifecycles, runs }) => {
    const bytes = Uint8Array.from(atob(wasm), (c) => c.charCodeAt(0));
    const { instance } = await WebAssembly.instantiate(bytes, {});
    // V8 compiles a module in tiers, the optimised code in the background: one run first,
    // untimed, so that the timed runs measure the code the page runs on.
    instance.exports.lifecycles(BigInt(lifecycles), 0n, 1);
    const out = {};
    for (const [name, ten] of [['single', 0], ['batch10', 1]]) {
      out[name] = [];
      for (let seed = 0; seed < runs; seed++) {
        const start = performance.now();
        instance.exports.lifecycles(BigInt(lifecycles), BigInt(seed), ten);
        out[name].push((performance.now() - start) / 1000);
      }
    }
    return out;
  },
  { wasm, lifecycles: LIFECYCLES, runs: RUNS },
);
await browser.close();

let rate = 0;
for (const [name, secs] of Object.entries(runs)) {
  const median = [...secs].sort((a, b) => a - b)[RUNS >> 1];
  rate = Math.round(LIFECYCLES / median);
  const each = secs.map((s) => s.toFixed(3)).join(', ');
  console.log(`wasm ${name}: lifecycles=${LIFECYCLES} runs_s=[${each}] lifecycles_per_sec=${rate}`);
}
// The batch of 10, as natively (`sqs-sim bench` prints lifecycles_per_sec for it).
console.log(`engine_wasm_lifecycles_per_sec=${rate}`);
