#!/usr/bin/env node
// Viewport screenshots for looking at a layout by eye (not a test): serves dist/, opens each
// "NAME WIDTHxHEIGHT QUERY [STEPS]" line of stdin, presses Step STEPS times, and writes
// target/screenshots/look-NAME.png (the viewport only, the way a projector shows it).
//
//   printf 'poison 1280x720 ?scenario=poison-to-dlq&t=5\n' | node e2e/shoot.mjs
//   DIST=target/dev-dist node e2e/shoot.mjs <lines   # another build than dist/
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './lib/chromium.mjs';
import { startServer } from './lib/server.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(repo, 'target', 'screenshots');
fs.mkdirSync(out, { recursive: true });
// DIST=target/dev-dist looks at another build.
const server = await startServer({ dir: path.resolve(repo, process.env.DIST ?? 'dist'), prefix: '/' });
const browser = await launchChromium();
for (const line of fs.readFileSync(0, 'utf8').split('\n').filter((l) => l.trim())) {
  const [name, size, query, steps = '0'] = line.trim().split(/\s+/);
  const [width, height] = size.split('x').map(Number);
  const page = await browser.newPage({ viewport: { width, height } });
  await page.goto(server.url + query);
  await page.getByRole('region', { name: 'Queue', exact: true }).waitFor();
  for (let i = 0; i < Number(steps); i++) await page.getByRole('button', { name: 'Step', exact: true }).click();
  await page.waitForTimeout(400);
  const file = path.join(out, `look-${name}.png`);
  await page.screenshot({ path: file });
  console.log(file);
  await page.close();
}
await browser.close();
await server.close();
