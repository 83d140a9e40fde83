#!/usr/bin/env node
// End-to-end test runner: serves the built bundle (dist/) twice, at "/" and under a sub-path,
// drives Debian's Chromium with playwright-core (never a downloaded browser), runs every test in
// e2e/tests/*.mjs (sorted by file name), and prints one line per test and then exactly
// `N passed, N failed`. Exit code 1 if any test failed.
//
//   node e2e/run.mjs [--dist DIR] [--subpath /docs/playground/] [--headed] [FILTER...]
//
// FILTER: only tests whose "file › name" contains one of the strings.
// Screenshots (ctx.screenshot(name), and one for each failing test) go to target/screenshots/.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromiumPath, launchChromium } from './lib/chromium.mjs';
import { startServer } from './lib/server.mjs';
import { registry } from './lib/harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');

const args = process.argv.slice(2);
const opt = { dist: path.join(repo, 'dist'), subpath: '/docs/playground/', headed: false, filters: [] };
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--dist') opt.dist = path.resolve(args[++i]);
  else if (a === '--subpath') opt.subpath = args[++i];
  else if (a === '--headed') opt.headed = true;
  else if (a === '-h' || a === '--help') {
    console.log(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 10).join('\n'));
    process.exit(0);
  } else opt.filters.push(a);
}

const shotDir = path.join(repo, 'target', 'screenshots');
fs.mkdirSync(shotDir, { recursive: true });
const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80);

if (!fs.existsSync(path.join(opt.dist, 'index.html'))) {
  console.error(`e2e: ${opt.dist}/index.html not found: build the bundle first (trunk build --release)`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// Collect the tests.
const testDir = path.join(here, 'tests');
for (const file of fs.readdirSync(testDir).filter((f) => f.endsWith('.mjs')).sort()) {
  const before = registry.length;
  await import(pathToFileURL(path.join(testDir, file)).href);
  for (const t of registry.slice(before)) t.file = file;
}
let selected = registry.map((t) => ({ ...t, title: `${t.file} › ${t.name}` }));
if (selected.some((t) => t.opts.only)) selected = selected.filter((t) => t.opts.only);
if (opt.filters.length) selected = selected.filter((t) => opt.filters.some((f) => t.title.includes(f)));

const rootServer = await startServer({ dir: opt.dist, prefix: '/' });
const subServer = await startServer({ dir: opt.dist, prefix: opt.subpath });
console.log(`e2e: serving ${path.relative(repo, opt.dist) || '.'}/ at ${rootServer.url} and ${subServer.url}`);

const browser = await launchChromium({ headless: !opt.headed });
console.log(`e2e: ${chromiumPath} ${browser.version()}, ${selected.length} test(s)`);

let passed = 0;
let failed = 0;
for (const t of selected) {
  const started = Date.now();
  const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const problems = [];
  const consoleErrors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') {
      consoleErrors.push(m.text());
      problems.push(`console error: ${m.text()}`);
    }
  });
  page.on('pageerror', (e) => problems.push(`uncaught exception: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  const ctx = {
    page,
    context,
    browser,
    /** URL of the bundle served at "/", plus `rel` (e.g. "#debug-panic"). */
    url: (rel = '') => rootServer.url + rel,
    /** URL of the bundle served under the sub-path (e.g. /docs/playground/), plus `rel`. */
    subUrl: (rel = '') => subServer.url + rel,
    subpath: opt.subpath,
    /** The bundle's folder (sqs-sim serve --ui serves it too). */
    dist: opt.dist,
    servers: { root: rootServer, sub: subServer },
    consoleErrors,
    /** Saves a full-page screenshot of the test's page (or of `of`, another page of the test)
     *  as target/screenshots/NAME.png and returns its path. */
    screenshot: async (name, of = page) => {
      const file = path.join(shotDir, `${slug(name)}.png`);
      await of.screenshot({ path: file, fullPage: true });
      return file;
    },
  };
  let error = null;
  let timer;
  try {
    const timeout = t.opts.timeout ?? 30_000;
    await Promise.race([
      t.fn(ctx),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${timeout} ms`)), timeout);
      }),
    ]);
    if (!t.opts.allowErrors && problems.length) {
      error = new Error(`the page reported problems:\n  ${problems.join('\n  ')}`);
    }
  } catch (e) {
    error = e;
    if (problems.length) error.message += `\n  page problems:\n  ${problems.join('\n  ')}`;
  } finally {
    clearTimeout(timer);
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (error) {
    failed++;
    let shot = '';
    try {
      shot = await ctx.screenshot(`FAIL-${t.file}-${t.name}`);
    } catch {}
    console.log(`FAIL ${t.title} (${secs} s)`);
    console.log(`     ${String(error.stack || error).split('\n').join('\n     ')}`);
    if (shot) console.log(`     screenshot: ${path.relative(repo, shot)}`);
  } else {
    passed++;
    console.log(`PASS ${t.title} (${secs} s)`);
  }
  await context.close().catch(() => {});
}

await browser.close();
await rootServer.close();
await subServer.close();
if (selected.length === 0) {
  console.log('e2e: no test matched');
  failed++;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
