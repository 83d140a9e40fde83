// A permalink reopens the same page (issue 21): copied while a scenario plays, after a user
// action in it, the reopened page shows the same event log (every line, in order), counters,
// chart and stage; and so it does after a rewind on either page.
import { test, assert, eventually } from '../lib/harness.mjs';
import { open, region, button, clock } from '../lib/playground.mjs';
import { copyLink, moment } from '../lib/permalink.mjs';

/** Waits until the clock reads `wall` (12:00:30) or later. */
const until = (page, wall) => eventually(async () => assert.ok((await clock(page)) >= wall, await clock(page)), { timeout: 20_000 });

/** Moves the Timeline to `ms` (virtual) and waits for the clock to get there. */
async function seek(page, ms, wall) {
  await page.locator('#timeline').evaluate((el, value) => {
    el.value = String(value);
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }, ms);
  await eventually(async () => assert.equal(await clock(page), wall));
}

/** Opens `link` in a new page of the same browser and waits until it shows `expected`. */
async function reopen(page, link, expected) {
  const again = await page.context().newPage();
  await again.goto(link);
  await region(again, 'Queue').waitFor();
  await eventually(async () => assert.deepEqual(await moment(again), expected));
  return again;
}

test('a link copied while heartbeat plays, after Send message, reopens the same page', async ({ page, url, screenshot }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  // A scenario's producer is under its tab.
  await open(page, url, '?scenario=heartbeat&tab=producer');
  await button(page, 'Play').click();
  await until(page, '12:00:30');
  await button(page, 'Send message').click();
  await until(page, '12:01:15');
  await button(page, 'Pause').click();
  const original = await moment(page);
  assert.ok(original.log.some((l) => /You called SendMessage/.test(l)), JSON.stringify(original.log));
  assert.ok(original.log.length > 10, JSON.stringify(original.log));
  const again = await reopen(page, await copyLink(page), original);
  await screenshot('permalink-reopen-heartbeat-original');
  await again.setViewportSize({ width: 1280, height: 720 });
  await screenshot('permalink-reopen-heartbeat-reopened', again);

  // A rewind on the original, then a link: the same again.
  await seek(page, 50_000, '12:00:50');
  const rewound = await moment(page);
  assert.ok(!rewound.log.some((l) => /Fast-forward/.test(l)), JSON.stringify(rewound.log));
  await reopen(page, await copyLink(page), rewound);
  // A rewind on the reopened page shows what the original shows there.
  await seek(again, 40_000, '12:00:40');
  await seek(page, 40_000, '12:00:40');
  assert.deepEqual(await moment(again), await moment(page));
}, { timeout: 90_000 });

test('a link copied after a Kill in the crash scenario reopens the same page', async ({ page, url, screenshot }) => {
  await open(page, url, '?scenario=crash-before-delete');
  await button(page, 'Play').click();
  await until(page, '12:00:08');
  await button(region(page, 'Worker B'), 'Kill').click();
  await until(page, '12:00:20');
  await button(page, 'Pause').click();
  const original = await moment(page);
  assert.ok(original.log.some((l) => /Worker B crashed/.test(l)), JSON.stringify(original.log));
  const again = await reopen(page, await copyLink(page), original);
  await screenshot('permalink-reopen-kill-reopened', again);
  await screenshot('permalink-reopen-kill-original');
  await seek(again, 5_000, '12:00:05');
  await seek(page, 5_000, '12:00:05');
  assert.deepEqual(await moment(again), await moment(page));
}, { timeout: 90_000 });
