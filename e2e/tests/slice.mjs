// The page through the released bundle: engine -> sim -> Yew -> DOM -> browser. It renders with
// no console error, arrives brotli-compressed, works under a sub-path, and a panic shows an error box.
import { test, assert } from '../lib/harness.mjs';
import { open, region, button, send, waitForMessage } from '../lib/playground.mjs';

test('the page renders with no console errors', async ({ page, url, screenshot }) => {
  await open(page, url);
  assert.equal(await page.locator('h1').textContent(), 'SQS Playground');
  assert.equal(await page.getByLabel('Scenario', { exact: true }).inputValue(), 'sandbox');
  assert.equal(await page.locator('#panic-box').count(), 0);
  await screenshot('home');
});

test('the page arrives as the brotli twins the release build writes', async ({ page, url }) => {
  const encodings = {};
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    // static/ holds images (the favicon, the link preview), served as they are.
    if (path.includes('/static/')) return;
    const file = path.split('/').pop() || 'index.html';
    encodings[file.replace(/^.*(\.js|_bg\.wasm)$/, '$1')] = r.headers()['content-encoding'];
  });
  await open(page, url);
  assert.deepEqual(encodings, { 'index.html': 'br', '.js': 'br', '_bg.wasm': 'br' });
});

test('the bundle works when served from a sub-path', async ({ page, subUrl, subpath, servers, screenshot }) => {
  await page.goto(subUrl('?scenario=sandbox'));
  await region(page, 'Queue').waitFor();
  await send(page, 1);
  await waitForMessage(region(page, 'Queue'), /^order-1, visible$/);
  await button(page, 'Step').click();
  // Every asset came from under the sub-path (the sub-path server 404s anything else).
  const outside = servers.sub.requests.filter(([, p]) => !p.startsWith(subpath));
  assert.deepEqual(outside, []);
  assert.ok(servers.sub.requests.some(([s, p]) => s === 200 && p.endsWith('.wasm')), 'no .wasm was served');
  await screenshot('subpath');
});

test(
  'a panic shows an error box instead of a dead page',
  async ({ page, url, consoleErrors, screenshot }) => {
    await page.goto(url('#debug-panic'));
    const box = page.locator('#panic-box');
    await box.waitFor();
    // The panic hook gives the box the panic's message and where it happened, over the page as
    // it was.
    assert.match(await box.textContent(), /internal error.*debug panic requested with #debug-panic/s);
    assert.match(await box.textContent(), /src[/\\]lib\.rs:\d+:\d+/);
    assert.equal(await page.locator('h1').textContent(), 'SQS Playground');
    assert.ok(consoleErrors.some((e) => e.includes('SQS Playground crashed')), 'panic not logged');
    await screenshot('panic-box');
  },
  { allowErrors: true },
);
