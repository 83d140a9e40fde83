// The first vertical slice, through the released bundle: engine -> Yew -> DOM -> browser.
import { test, assert, eventually } from '../lib/harness.mjs';

const state = (page) => page.locator('li.message').first().getAttribute('data-state');
const label = (page) => page.locator('li.message .state').first().textContent();

test('the page renders with no console errors', async ({ page, url, screenshot }) => {
  await page.goto(url());
  await page.locator('#send').waitFor();
  assert.equal(await page.locator('h1').textContent(), 'SQS Playground');
  assert.equal(await page.locator('#messages .empty').textContent(), 'The queue is empty.');
  assert.equal(await page.locator('#panic-box').count(), 0);
  await screenshot('home');
});

test('a received message counts down and reappears', async ({ page, url, screenshot }) => {
  await page.goto(url());
  await page.click('#send');
  await eventually(async () => assert.equal(await state(page), 'visible'));
  assert.match(await page.locator('li.message .body').textContent(), /^message 1$/);

  await page.click('#receive');
  await eventually(async () => assert.equal(await state(page), 'inflight'));
  const first = await label(page);
  assert.match(first, /^in flight · \d\.\d s$/);
  assert.match(await page.locator('#last-action').textContent(), /Received "message 1"/);
  // The countdown ticks with the live clock...
  await eventually(async () => assert.notEqual(await label(page), first));
  await screenshot('slice-in-flight');
  // ...and when the visibility timeout runs out the message is visible again.
  await eventually(async () => assert.equal(await state(page), 'visible'), { timeout: 8000 });
  assert.equal(await page.locator('li.message .receives').textContent(), 'received 1×');
  await screenshot('slice-reappeared');
});

test('the bundle works when served from a sub-path', async ({ page, subUrl, subpath, servers, screenshot }) => {
  await page.goto(subUrl());
  await page.click('#send');
  await page.click('#receive');
  await eventually(async () => assert.equal(await state(page), 'inflight'));
  await page.click('#skip');
  await eventually(async () => assert.equal(await state(page), 'visible'));
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
    assert.match(await box.textContent(), /internal error.*debug panic requested with #debug-panic/s);
    assert.ok(consoleErrors.some((e) => e.includes('SQS Playground crashed')), 'panic not logged');
    await screenshot('panic-box');
  },
  { allowErrors: true },
);
