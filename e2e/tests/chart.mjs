// The depth chart can be read: a time axis with clock labels, the values under the pointer, and
// the same values in a table for screen readers and keyboards.
import { test, assert, eventually } from '../lib/harness.mjs';
import { open, region, openTab } from '../lib/playground.mjs';

test('the depth chart has a time axis, reads values under the pointer and has a table', async ({ page, url }) => {
  await open(page, url, '?scenario=poison-to-dlq&t=40');
  await openTab(page, 'Queue depth');
  const chart = region(page, 'Queue depth');
  const ticks = await chart.locator('.ticks span').allTextContents();
  assert.ok(ticks.length >= 2, `time-axis labels: ${ticks}`);
  for (const t of ticks) assert.match(t, /^12:00:[0-5]\d$/, 'a label is a clock time');
  assert.equal(ticks[0], '12:00:00');

  // The pointer at the plot's left edge reads the first sample: 2 visible, 1 in flight.
  const plot = await chart.locator('.plot').boundingBox();
  const svg = await chart.locator('svg[role="img"]').boundingBox();
  await page.mouse.move(svg.x + 1, plot.y + plot.height / 2);
  await eventually(async () =>
    assert.equal(await chart.locator('.readout').textContent(), '12:00:00: 2 visible, 1 in flight, 0 delayed, 0 dead-letter'));
  // At its right edge, the latest: the poison message in the dead-letter queue.
  await page.mouse.move(svg.x + svg.width - 1, plot.y + plot.height / 2);
  let latest;
  await eventually(async () => {
    latest = await chart.locator('.readout').textContent();
    assert.match(latest, /^12:00:\d\d: 0 visible, 0 in flight, 0 delayed, 1 dead-letter$/);
  });

  // The table lists every point, rendered when opened.
  assert.equal(await chart.locator('table').count(), 0, 'the table is rendered only when open');
  await chart.getByText('Table of values').click();
  const table = chart.getByRole('table', { name: 'Messages per state at each sample' });
  await table.waitFor();
  const head = await table.locator('thead th').allTextContents();
  assert.deepEqual(head, ['Time', 'visible', 'in flight', 'delayed', 'dead-letter']);
  const first = await table.locator('tbody tr').first().locator('th, td').allTextContents();
  assert.deepEqual(first, ['12:00:00', '2', '1', '0', '0']);
  const last = await table.locator('tbody tr').last().locator('th, td').allTextContents();
  assert.equal(`${last[0]}: ${last[1]} visible, ${last[2]} in flight, ${last[3]} delayed, ${last[4]} dead-letter`, latest,
    'the right edge reads the last row');
});

test('the counters stay on one line in an embed at 800 and 640 px', async ({ page, url }) => {
  for (const [width, height] of [[800, 500], [640, 400]]) {
    await page.setViewportSize({ width, height });
    await open(page, url, '?scenario=poison-to-dlq&embed=1&t=60');
    const line = page.locator('.counters .tiles');
    const [scroll, client] = await line.evaluate((t) => [t.scrollWidth, t.clientWidth]);
    assert.ok(scroll <= client, `${width} px: the counters' line is ${scroll} px wide in ${client} px`);
    const tops = await line.locator('.tile:visible').evaluateAll((ts) => ts.map((t) => Math.round(t.getBoundingClientRect().top)));
    assert.equal(new Set(tops).size, 1, `${width} px: one line, tiles at ${tops}`);
    // The full labels are still what a screen reader hears.
    assert.equal(await page.getByRole('region', { name: 'Counters' }).getByText('Duplicates prevented').count(), 1);
  }
});
