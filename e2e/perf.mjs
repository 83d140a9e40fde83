#!/usr/bin/env node
// The page figures of `./check perf` (scripts/perf.sh): serves the built bundle (dist/) on
// 127.0.0.1, drives Debian's Chromium through playwright-core and prints one `name=value` line per
// figure. Benchmarks, not tests: they print what they measure (or `name=unmeasured (reason)`)
// and the exit code is 0 unless the page cannot be driven at all.
//
//   node e2e/perf.mjs [--dist DIR] [--frames-seconds 10] [--heap-seconds 60] [--only PARTS]
//
// --only takes a comma-separated list of parts (tti, throttled, frames, seek, heap) and runs just
// those.
//
// Figures (medians of the runs noted; the machine is whatever runs it):
//   time_to_interactive_ms  cold cache (a fresh browser context), navigation start to the
//                           Play button being enabled, median of 3 loads.
//   first_paint_ms,         the same loads throttled as Lighthouse's mobile profile sets them
//   interactive_ms          (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, 4x CPU slowdown),
//                           served with the brotli twins (as a host that serves precompressed
//                           files sends them to a browser): navigation start to the first paint
//                           (index.html's frame), and to the Play button being enabled; median
//                           of 3.
//   frame_ms_p50/p95        rAF-to-rAF intervals over --frames-seconds of play at 1000x with
//                           5,000 messages and 50 workers (a permalink with an inline scenario),
//                           in a browser without the 60 Hz cap (--disable-frame-rate-limit,
//                           --disable-gpu-vsync): capped, every interval is a multiple of 16.7 ms
//                           and the figure says when a frame was shown, not what it cost.
//   seek_ms_max             the slowest of several timeline seeks within a one-hour session
//                           (change event to the next painted frame).
//   heap_growth_mb          JS heap + wasm linear memory after a forced GC, before and after
//                           --heap-seconds of play at 1000x (the crowd above): the warm-up, in
//                           which every bounded history fills (the journal, the metrics' samples,
//                           the 16 world checkpoints at their first peak).
//   heap_growth_late_mb     the same over the next --heap-seconds: whether memory is flat once
//                           warm. wasm memory never shrinks, so this is the growth of its
//                           high-water mark; it also follows the workload (the crowd's size
//                           drifts; stderr prints it at each reading).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './lib/chromium.mjs';
import { startServer } from './lib/server.mjs';
import { permalink } from './lib/permalink.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const args = process.argv.slice(2);
const PARTS = ['tti', 'throttled', 'frames', 'seek', 'heap'];
const opt = { dist: path.join(repo, 'dist'), framesSeconds: 10, heapSeconds: 60, only: PARTS };
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--dist') opt.dist = path.resolve(args[++i]);
  else if (args[i] === '--frames-seconds') opt.framesSeconds = Number(args[++i]);
  else if (args[i] === '--heap-seconds') opt.heapSeconds = Number(args[++i]);
  else if (args[i] === '--only') opt.only = args[++i].split(',');
}
const unknown = opt.only.filter((p) => !PARTS.includes(p));
if (unknown.length > 0) {
  console.error(`perf: unknown part(s) ${unknown.join(', ')}: --only takes ${PARTS.join(', ')}`);
  process.exit(1);
}
const runs = (part) => opt.only.includes(part);

const figure = (name, value) => console.log(`${name}=${value}`);
const unmeasured = (name, why) => figure(name, `unmeasured (${String(why).split('\n')[0]})`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/** 5,000 messages at once and 50 slow workers: the frame-time load (steady ~5,000 in the system). */
function crowdScenario() {
  const steps = [
    { call: 'CreateQueue', input: { QueueName: 'orders', Attributes: { VisibilityTimeout: '120' } } },
    { sim: 'AddProducer', input: { name: 'Burst', queue: 'orders', every: 0.001, count: 5000, body: 'order-{n}' } },
    // 50 workers finishing one message every 30 s on average: 1.67 a second, matched by the
    // steady producer, so the queue stays near 5,000.
    { sim: 'AddProducer', input: { name: 'Steady', queue: 'orders', every: 0.6, body: 'more-{n}' } },
  ];
  for (let n = 1; n <= 50; n++) {
    steps.push({
      sim: 'AddWorker',
      input: {
        name: `Worker ${n}`,
        policy: { queue: 'orders', wait_time_seconds: 20, processing: { kind: 'Uniform', min: 20, max: 40 } },
      },
    });
  }
  // A week: at 1000x the script ends after 10 minutes of play (and the clock stops there), more
  // than the frames and the two memory windows take.
  steps.push({ advance: 7 * 86400 });
  return { id: 'perf-crowd', title: 'Perf: 5,000 messages, 50 workers', seed: 7, steps };
}

/** The fast-forward day's shape (sqs_sim::bench::day_scenario), one hour long. */
function hourScenario() {
  const steps = [
    { call: 'CreateQueue', input: { QueueName: 'orders-dlq' }, as: 'DLQ' },
    { call: 'GetQueueAttributes', input: { QueueUrl: '${DLQ.QueueUrl}', AttributeNames: ['QueueArn'] }, as: 'DLQA' },
    {
      call: 'CreateQueue',
      input: {
        QueueName: 'orders',
        Attributes: {
          VisibilityTimeout: '30',
          RedrivePolicy: '{"deadLetterTargetArn":"${DLQA.Attributes.QueueArn}","maxReceiveCount":"3"}',
        },
      },
    },
  ];
  for (let n = 1; n <= 20; n++) {
    steps.push({
      sim: 'AddWorker',
      input: {
        name: `Worker ${n}`,
        policy: {
          queue: 'orders', wait_time_seconds: 20, max_messages: 10,
          processing: { kind: 'Uniform', min: 0.5, max: 2.5 },
          heartbeat: { every: 10, extend_by: 30 },
          effects: [{ name: 'ship the order', idempotent: true }],
          poison_marker: 'tag-0',
        },
      },
    });
  }
  steps.push({ sim: 'AddProducer', input: { name: 'Orders', queue: 'orders', every: 0.1, count: 36000, body: 'order-{n} tag-{n%100}' } });
  steps.push({ advance: 3600 });
  return { id: 'perf-hour', title: 'Perf: one hour, 10 messages a second', seed: 1, steps };
}

/** Waits until the page is interactive (a Play or Pause button exists and is enabled); resolves to
 *  the page's performance.now() at that moment (milliseconds since navigation start). */
async function interactive(page, timeout = 60_000) {
  const handle = await page.waitForFunction(
    () => {
      const ready = [...document.querySelectorAll('button')].some(
        (b) => /^\s*(Play|Pause)\s*$/.test(b.textContent) && !b.disabled,
      );
      return ready && performance.now();
    },
    null,
    { timeout, polling: 16 },
  );
  return handle.jsonValue();
}

/** rAF-to-rAF intervals (ms) for `seconds` of wall time. */
const frameIntervals = (page, seconds) =>
  page.evaluate(
    (ms) =>
      new Promise((done) => {
        const gaps = [];
        let last = performance.now();
        const end = last + ms;
        const tick = (t) => {
          gaps.push(t - last);
          last = t;
          if (t < end) requestAnimationFrame(tick);
          else done(gaps);
        };
        requestAnimationFrame(tick);
      }),
    seconds * 1000,
  );

/** JS heap + wasm memories in bytes, after a forced garbage collection. */
async function memory(page, cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const proto = await cdp.send('Runtime.evaluate', { expression: 'WebAssembly.Memory.prototype' });
  const found = await cdp.send('Runtime.queryObjects', { prototypeObjectId: proto.result.objectId });
  const sum = await cdp.send('Runtime.callFunctionOn', {
    objectId: found.objects.objectId,
    functionDeclaration: 'function () { return this.reduce((n, m) => n + m.buffer.byteLength, 0); }',
    returnByValue: true,
  });
  return usedSize + sum.result.value;
}

if (!fs.existsSync(path.join(opt.dist, 'index.html'))) {
  console.error(`perf: ${opt.dist}/index.html not found: build the bundle first (trunk build --release)`);
  process.exit(1);
}
const server = await startServer({ dir: opt.dist, prefix: '/' });
const launch = (extra = []) => launchChromium({ extra: ['--enable-precise-memory-info', ...extra] });
const browser = await launch();
console.error(`perf: serving ${path.relative(repo, opt.dist) || '.'}/ at ${server.url}; ${browser.version()}`);
const fresh = async (from = browser) => {
  const context = await from.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`perf: page error: ${e.message}`));
  return { context, page };
};

// Time to interactive: cold cache each time (a new context has an empty cache).
if (runs('tti')) try {
  const times = [];
  for (let run = 0; run < 3; run++) {
    const { context, page } = await fresh();
    await page.goto(server.url, { waitUntil: 'commit' });
    times.push(await interactive(page));
    await context.close();
  }
  figure('time_to_interactive_ms', Math.round(median(times)));
} catch (e) {
  unmeasured('time_to_interactive_ms', e.message);
}

// First paint and interactive on a slow phone's network and CPU (Lighthouse's mobile profile).
if (runs('throttled')) try {
  const paints = [];
  const ready = [];
  for (let run = 0; run < 3; run++) {
    const { context, page } = await fresh();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(server.url, { waitUntil: 'commit' });
    ready.push(await interactive(page));
    paints.push(
      await page.evaluate(() => performance.getEntriesByName('first-paint')[0]?.startTime ?? NaN),
    );
    await context.close();
  }
  figure('first_paint_ms', Math.round(median(paints)));
  figure('interactive_ms', Math.round(median(ready)));
  console.error(`perf: throttled loads: first paint ${paints.map(Math.round).join(', ')} ms; interactive ${ready.map(Math.round).join(', ')} ms`);
} catch (e) {
  unmeasured('first_paint_ms', e.message);
  unmeasured('interactive_ms', e.message);
}

// Frames: 5,000 messages, 50 workers, 1000x.
if (runs('frames')) try {
  const uncapped = await launch(['--disable-frame-rate-limit', '--disable-gpu-vsync']);
  const { context, page } = await fresh(uncapped);
  await page.goto(`${server.url}?speed=1000&autoplay=1${permalink(crowdScenario())}`);
  await interactive(page);
  // Let the burst arrive and the workers start (5 s virtual: a few frames at 1000x).
  await page.waitForTimeout(1000);
  const gaps = await frameIntervals(page, opt.framesSeconds);
  const drawn = await page.evaluate(() => document.querySelectorAll('.msg').length);
  const counters = await page.evaluate(() => document.querySelector('[aria-label="Counters"]')?.textContent ?? '');
  figure('frame_ms_p50', median(gaps).toFixed(1));
  figure('frame_ms_p95', quantile(gaps, 0.95).toFixed(1));
  console.error(`perf: frames=${gaps.length} over ${opt.framesSeconds} s; message elements drawn=${drawn}; counters: ${counters.replace(/\s+/g, ' ').slice(0, 200)}`);
  await context.close();
  await uncapped.close();
} catch (e) {
  unmeasured('frame_ms_p50', e.message);
  unmeasured('frame_ms_p95', e.message);
}

// Seek within a one-hour session: open it at its end (the playhead at 1 h), then seek around.
if (runs('seek')) try {
  const { context, page } = await fresh();
  const opened = Date.now();
  await page.goto(`${server.url}${permalink(hourScenario(), { playhead: 3_600_000, speed: 1 })}`);
  await interactive(page, 300_000);
  console.error(`perf: the one-hour session opened at its end in ${Date.now() - opened} ms`);
  const targets = [1_800_000, 600_000, 3_000_000, 100_000, 3_500_000, 0];
  const times = [];
  for (const t of targets) {
    times.push(
      await page.evaluate(
        (value) =>
          new Promise((done) => {
            const input = document.querySelector('#timeline');
            if (!input) throw new Error('no #timeline input');
            const start = performance.now();
            input.value = String(value);
            input.dispatchEvent(new Event('input', { bubbles: true }));
            input.dispatchEvent(new Event('change', { bubbles: true }));
            requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - start)));
          }),
        t,
      ),
    );
  }
  figure('seek_ms_max', Math.round(Math.max(...times)));
  console.error(`perf: seeks (ms) to ${targets.map((t) => t / 1000 + ' s').join(', ')}: ${times.map(Math.round).join(', ')}`);
  await context.close();
} catch (e) {
  unmeasured('seek_ms_max', e.message);
}

// Memory: play the crowd at 1000x; JS heap + wasm memory 2 s after opening, after --heap-seconds
// (warm-up) and after --heap-seconds more (warm).
if (runs('heap')) try {
  const { context, page } = await fresh();
  const cdp = await context.newCDPSession(page);
  await page.goto(`${server.url}?speed=1000&autoplay=1${permalink(crowdScenario())}`);
  await interactive(page);
  await page.waitForTimeout(2000);
  const mb = (bytes) => (bytes / 1048576).toFixed(1);
  const readings = [];
  for (let i = 0; i < 3; i++) {
    if (i > 0) await page.waitForTimeout(opt.heapSeconds * 1000);
    const bytes = await memory(page, cdp);
    const clock = await page.evaluate(() => document.querySelector('.clock-elapsed')?.textContent ?? '?');
    const crowd = await page.evaluate(() => document.querySelector('.crowd-note strong')?.textContent ?? 'no crowd');
    readings.push(bytes);
    console.error(`perf: memory ${mb(bytes)} MB at virtual ${clock} (${crowd} on the stage)`);
  }
  figure('heap_growth_mb', mb(readings[1] - readings[0]));
  figure('heap_growth_late_mb', mb(readings[2] - readings[1]));
  await context.close();
} catch (e) {
  unmeasured('heap_growth_mb', e.message);
  unmeasured('heap_growth_late_mb', e.message);
}

await browser.close();
await server.close();
