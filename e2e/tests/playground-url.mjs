// Opening from a link: ?scenario, #scenario, speed, autoplay, theme. Also the phone layout.
import { test, assert, eventually } from '../lib/harness.mjs';
import { open, region, clock, waitForMessage } from '../lib/playground.mjs';
import { reopenShared } from '../lib/permalink.mjs';

test('a link opens a scenario ready to play, at a speed, in a theme', async ({ page, url, screenshot }) => {
  await open(page, url, '?scenario=slow-worker&speed=50&autoplay=1&theme=dark&tab=story');
  assert.equal(await page.locator('html').getAttribute('data-theme'), 'dark');
  assert.equal(await page.getByLabel('Speed', { exact: true }).inputValue(), '50');
  assert.equal(await page.getByLabel('Scenario', { exact: true }).inputValue(), 'slow-worker');
  assert.match(await region(page, 'Story').textContent(), /What to watch/);
  await eventually(async () => assert.notEqual(await clock(page), '12:00:00'));
  await screenshot('playground-dark');
});

test('the fragment form works for embeds, and a paused scenario waits at 12:00:00', async ({ page, url }) => {
  await open(page, url, '#scenario=r-021&embed=1&tab=story');
  assert.equal(await page.getByLabel('Scenario', { exact: true }).inputValue(), 'r-021');
  await page.waitForTimeout(300);
  assert.equal(await clock(page), '12:00:00');
  // An embed shows the story and the stage, not the editing panels.
  await region(page, 'Story').waitFor();
  assert.equal(await page.getByRole('form', { name: 'Producer' }).count(), 0);
  assert.equal(await region(page, 'Share').count(), 0);
});

test('a permalink reopens the same moment', async ({ page, url }) => {
  await open(page, url, '?scenario=crash-before-delete&t=40');
  assert.equal(await clock(page), '12:00:40');
  await waitForMessageIn(page, 'Worker B', /^M, in flight, \d+ s left, receive count 2$/);
  const again = await reopenShared(page);
  assert.equal(await clock(again), '12:00:40');
  await waitForMessageIn(again, 'Worker B', /^M, in flight, \d+ s left, receive count 2$/);
});

const waitForMessageIn = (page, lane, pattern) => waitForMessage(region(page, lane), pattern);

test('on a phone the lanes stack and nothing scrolls sideways', async ({ page, url, screenshot }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, url, '?scenario=crash-before-delete');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `page is ${width}px wide`);
  const [a, b] = await Promise.all(['Worker A', 'Worker B'].map((n) => region(page, n).boundingBox()));
  assert.ok(b.y > a.y + a.height - 1, 'lanes stack');
  await screenshot('playground-phone');
});

test('at 1280x720 the queue, the lanes and the clock are on the first screen', async ({ page, url, screenshot }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, url, '?scenario=crash-before-delete&speed=10&autoplay=1');
  for (const name of ['Queue', 'Worker A', 'Worker B']) {
    const box = await region(page, name).boundingBox();
    assert.ok(box.y < 720, `${name} starts below the first screen`);
  }
  await page.waitForTimeout(1500);
  await screenshot('playground-projector');
});
