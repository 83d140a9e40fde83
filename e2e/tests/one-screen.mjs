// The whole story on one screen (issue 21): at 1280x720 (a projector), light and dark, and in the
// embedded player at 800x500, every library scenario keeps its queue, each worker lane, its
// dead-letter queue and the story line inside the viewport at every event from start to end.
// A message whose job failed is drawn in the queue as in flight, with its seconds left and why,
// never as a "no worker lane" banner; the story line follows the clock and its markers seek.
import { test, assert, eventually } from '../lib/harness.mjs';
import { open, region, button, clock, waitForMessage, messages, openTab } from '../lib/playground.mjs';
import { libraryIds, stepToEnd, assertInView } from '../lib/onescreen.mjs';

// The library, as the page lists it (read once from a page opened for the purpose would cost
// a browser context per run; the list is the scenarios/ directory's).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const scenarioDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../scenarios');
/** Where a viewport screenshot goes (the runner's folder; its own are full-page). */
const shot = (name) => path.resolve(scenarioDir, '../target/screenshots', `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.png`);
const LIBRARY = fs.readdirSync(scenarioDir).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();

test('the library as the picker lists it is the scenarios directory', async ({ page, url }) => {
  await open(page, url, '?scenario=sandbox');
  assert.deepEqual((await libraryIds(page)).sort(), LIBRARY);
});

const SIZES = [
  ['1280x720, light', { width: 1280, height: 720 }, '&theme=light'],
  ['1280x720, dark', { width: 1280, height: 720 }, '&theme=dark'],
  ['embedded at 800x500', { width: 800, height: 500 }, '&embed=1'],
];

for (const [size, viewport, query] of SIZES) {
  test(`${size}: every library scenario keeps the stage and the story in view at every step`, async ({ context, url }) => {
    let total = 0;
    const problems = [];
    for (const id of LIBRARY) {
      // A page per scenario: leaving a page while its bundle still streams in aborts that request.
      const page = await context.newPage();
      page.on('pageerror', (e) => problems.push(`${id}: ${e.message}`));
      page.on('console', (m) => m.type() === 'error' && problems.push(`${id}: ${m.text()}`));
      await page.setViewportSize(viewport);
      await open(page, url, `?scenario=${id}${query}`);
      await region(page, 'Story line').waitFor();
      total += await stepToEnd(page, () => assertInView(page, `${id} (${size})`));
      if (['poison-to-dlq', 'dlq-redrive', 'r-022', 'fifo-single-group'].includes(id)) {
        await page.screenshot({ path: shot(`one-screen-${id}-${size}`) });
      }
      await page.close();
    }
    assert.deepEqual(problems, []);
    assert.ok(total > LIBRARY.length, `${total} steps in all`);
  }, { timeout: 240_000 });
}

test('a message whose job failed waits in the queue, in flight, with its seconds left and why', async ({ page, url, screenshot }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, url, '?scenario=poison-to-dlq');
  const queue = region(page, 'Queue');
  const seen = [];
  await stepToEnd(page, async () => {
    // Never the old banner, at any step.
    assert.equal(await page.getByText(/no worker lane holding/).count(), 0, `a banner at ${await clock(page)}`);
    const now = await clock(page);
    for (const name of await messages(queue)) {
      const m = name.match(/^order-2 POISON, in flight, (\d+) s left, receive count (\d), held by no worker: (.*)$/);
      if (m) seen.push({ now, left: Number(m[1]), count: Number(m[2]), why: m[3] });
    }
    // In flight and held by no lane means it is not drawn on the lane too.
    if (seen.length && seen.at(-1).now === now) {
      const lane = await messages(region(page, 'Worker'));
      assert.ok(!lane.some((n) => /^order-2 POISON, in flight/.test(n)), `drawn twice at ${now}: ${lane}`);
    }
    if (now === '12:00:04') await screenshot('one-screen-failed-job');
  });
  // After each of the three failures (12:00:04, 12:00:14, 12:00:24) until its timeout returns it.
  const first = seen.find((s) => s.now === '12:00:04');
  assert.ok(first, `not in the queue after its first failure: ${JSON.stringify(seen)}`);
  assert.equal(first.left, 8);
  assert.equal(first.count, 1);
  assert.match(first.why, /^Worker: the job for order-2 POISON failed \(poison message\) at 12:00:04; visible again at 12:00:12$/);
  assert.deepEqual([...new Set(seen.map((s) => s.count))], [1, 2, 3]);
  // The card shows it in words too, inside the queue's in-flight area.
  await page.locator('#timeline').evaluate((el) => {
    el.value = '5000';
    el.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await eventually(async () => assert.equal(await clock(page), '12:00:05'));
  const area = queue.getByRole('list', { name: 'In flight, held by no worker', exact: true });
  await waitForMessage(area, /^order-2 POISON, in flight, 7 s left, receive count 1, held by no worker/);
  assert.match(await area.textContent(), /job for order-2 POISON failed \(poison message\) at 12:00:04; visible again at 12:00:12/);
});

test('the story line follows the clock, and a marker on the timeline seeks to its line', async ({ page, url, screenshot }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, url, '?scenario=poison-to-dlq');
  const line = region(page, 'Story line');
  assert.equal(await line.locator('[aria-live="polite"]').count(), 1);
  // Before 12:00:04 the first line is what comes next.
  assert.match(await line.textContent(), /Next.*12:00:04: order-2 POISON fails/);
  await button(page, 'Go to story line 2 at 12:00:32').click();
  await eventually(async () => assert.equal(await clock(page), '12:00:32'));
  assert.match(await line.textContent(), /Now \(2 of 3\)12:00:32: after the third failure/);
  await openTab(page, 'Story');
  const story = region(page, 'Story');
  assert.match(await story.locator('li[aria-current="true"]').textContent(), /^12:00:32: after the third failure/);
  await waitForMessage(region(page, 'Dead-letter queue'), /^order-2 POISON, in dead-letter queue/);
  await screenshot('one-screen-story-marker');
  // Back to the first line's marker: the clock goes back with it.
  await button(page, 'Go to story line 1 at 12:00:04').click();
  await eventually(async () => assert.equal(await clock(page), '12:00:04'));
  assert.match(await line.textContent(), /Now \(1 of 3\)/);
});

test('an empty queue in a scenario points at Play, not at a producer', async ({ page, url }) => {
  await open(page, url, '?scenario=heartbeat&t=200');
  assert.match(await region(page, 'Queue').textContent(), /No message waiting/);
  assert.doesNotMatch(await region(page, 'Queue').textContent(), /Press Send message/);
  await open(page, url, '?scenario=sandbox');
  assert.match(await region(page, 'Queue').textContent(), /Press Send message/);
});

test('on a phone the stage and the story line stack in one column', async ({ page, url, screenshot }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, url, '?scenario=poison-to-dlq&t=20');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `page is ${width}px wide`);
  const boxes = await Promise.all(['Story line', 'Queue', 'Worker', 'Dead-letter queue'].map((n) => region(page, n).boundingBox()));
  for (let i = 1; i < boxes.length; i++) assert.ok(boxes[i].y >= boxes[i - 1].y + boxes[i - 1].height - 1, 'in order, one under the other');
  await screenshot('one-screen-phone');
});
