#!/usr/bin/env node
// Profiles the day benchmark in headless Chromium: serves OUT_DIR (dayprof.js + its wasm, from
// scripts/dayprof.sh), runs `run_day(seconds)` under the DevTools CPU profiler and prints where the
// time went, by function: self time, then inclusive time (each function once per sample however
// deep it recurses). Writes OUT_DIR/day.cpuprofile (open it in Chromium's DevTools, Performance).
//
//   node tools/dayprof/prof.mjs OUT_DIR [SECONDS=86400] [TOP=40]
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium } from '../../e2e/lib/chromium.mjs';
import { startServer } from '../../e2e/lib/server.mjs';

const [dir, seconds = '86400', top = '40'] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node tools/dayprof/prof.mjs OUT_DIR [SECONDS] [TOP]');
  process.exit(2);
}
fs.writeFileSync(path.join(dir, 'index.html'), '<!DOCTYPE html><meta charset="utf-8"><title>dayprof</title>');
const server = await startServer({ dir, prefix: '/' });
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.evaluate(async () => {
    const module = await import('./dayprof.js');
    await module.default();
    window.dayprof = module;
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const started = Date.now();
  const summary = await page.evaluate((s) => window.dayprof.run_day(s), Number(seconds));
  const wall = Date.now() - started;
  const { profile } = await cdp.send('Profiler.stop');
  fs.writeFileSync(path.join(dir, 'day.cpuprofile'), JSON.stringify(profile));
  console.log(summary);
  console.log(`wall_ms=${wall} (profiled)`);
  report(profile, Number(top));
} finally {
  await browser.close();
  server.close();
}

/** Prints the top functions by self and by inclusive sampled time. */
function report(profile, top) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const name = (n) => n.callFrame.functionName || `(${n.callFrame.url || 'anonymous'})`;
  const self = new Map();
  const inclusive = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i + 1] ?? 0;
    total += dt;
    const leaf = nodes.get(id);
    self.set(name(leaf), (self.get(name(leaf)) || 0) + dt);
    const seen = new Set();
    for (let n = id; n !== undefined; n = parent.get(n)) seen.add(name(nodes.get(n)));
    for (const f of seen) inclusive.set(f, (inclusive.get(f) || 0) + dt);
  });
  const print = (title, map) => {
    console.log(`\n${title} (of ${(total / 1000).toFixed(0)} ms sampled)`);
    [...map].sort((a, b) => b[1] - a[1]).slice(0, top).forEach(([f, us]) => {
      console.log(`${(us / 1000).toFixed(0).padStart(7)} ms ${(100 * us / total).toFixed(1).padStart(5)}%  ${f.slice(0, 140)}`);
    });
  };
  print('self', self);
  print('inclusive', inclusive);
}
