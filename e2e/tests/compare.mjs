// Compare (issue 23): two copies of a scenario on one seed and one clock, each with its own
// settings, over a table of what differs; its link reopens it, its embed fits 800x500, a phone
// stacks it, and axe finds nothing in it.
import { test, assert, eventually } from '../lib/harness.mjs';
import { violations } from '../lib/axe.mjs';
import { region, button, clock } from '../lib/playground.mjs';

const R022 = '?scenario=r-022&compare=VisibilityTimeout:60,VisibilityTimeout:120';

/** Opens a comparison and waits for both copies. */
async function openComparison(page, url, query) {
  await page.goto(url(query));
  await region(page, 'Copy B').waitFor();
}

/** The duplicate side effects a copy lists, as their text. */
const duplicates = (page, copy) =>
  region(page, `Copy ${copy}`).locator('.duplicates li').allTextContents();

/** The table as text: one [figure, A, B, B − A] line per figure (a column of the table). */
const table = (page) =>
  region(page, 'Difference').locator('table').evaluate((t) => {
    const lines = [...t.tBodies[0].rows].map((r) => [...r.cells].slice(1).map((c) => c.textContent));
    return [...t.tHead.rows[0].cells].slice(1).map((h, i) => [h.textContent, ...lines.map((l) => l[i])]);
  });

/** The boxes of the regions named `name` in `scope`, in the viewport's pixels. */
const boxes = (scope, name) =>
  region(scope, name).evaluateAll((els) =>
    els.map((e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, right: r.right, bottom: r.bottom, height: r.height }; }),
  );

/** Asserts each copy's queue and lanes are inside the viewport, at least 80 px tall, with their cards' bodies visible. */
async function assertStagesShow(page, width, height, lanes) {
  for (const copy of ['Copy A', 'Copy B']) {
    const c = region(page, copy);
    for (const name of ['Queue', ...lanes]) {
      const [box] = await boxes(c, name);
      assert.ok(box, `${copy} has no ${name}`);
      assert.ok(box.x >= 0 && box.y >= 0 && box.right <= width + 1 && box.bottom <= height + 1, `${copy} ${name} ${JSON.stringify(box)} leaves ${width}x${height}`);
      assert.ok(box.height >= 80, `${copy} ${name} is ${box.height} px tall`);
    }
    const cards = c.locator('.msg');
    assert.ok((await cards.count()) > 0, `${copy} shows no card`);
    for (const card of await cards.all()) {
      assert.ok(await card.isVisible(), `a card of ${copy} is hidden`);
      // The card's body (what it is) shows whole; at 800x500 the lane may cut the foot of a
      // card in flight (its ring and receive count), which the lane scrolls to.
      const [inside] = await card.evaluateAll((els) => els.map((e) => {
        const r = e.querySelector('.msg-body').getBoundingClientRect();
        const place = e.closest('.panel, .lane').getBoundingClientRect();
        return r.top >= place.top - 1 && r.bottom <= place.bottom + 1;
      }));
      assert.ok(inside, `a card's body in ${copy} is cut off by its place`);
    }
  }
}

/** Plays the scenario to its end at 1000x. */
async function playToEnd(page) {
  const speed = page.getByLabel('Speed', { exact: true });
  await speed.fill('1000');
  await speed.press('Enter');
  await button(page, 'Play').click();
  await eventually(async () => assert.equal(await clock(page), '12:03:00'), { timeout: 10000 });
}

test('r-022 at VisibilityTimeout 60 sends one duplicate notice, at 120 none; its link reopens it', async ({ page, url, screenshot }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(url('?scenario=r-022&theme=light'));
  await page.getByRole('link', { name: 'Compare', exact: true }).click();
  await region(page, 'Copy B').waitFor();
  const b = region(page, 'Copy B');
  await button(b, 'Settings of B').click();
  await b.getByLabel('VisibilityTimeout (seconds)').fill('120');
  await button(b, 'Apply to B').click();
  await eventually(async () => assert.equal(await b.locator('.copy-settings').textContent(), 'VisibilityTimeout 120'));
  assert.equal(await region(page, 'Copy A').locator('.copy-settings').textContent(), 'as in the scenario');
  await playToEnd(page);
  const notices = (lines) => lines.filter((l) => /R-022\/send staff notice/.test(l));
  await eventually(async () => assert.equal(notices(await duplicates(page, 'A')).length, 1));
  assert.match(notices(await duplicates(page, 'A'))[0], /12:02:30 Worker 2 R-022\/send staff notice DUPLICATE/);
  assert.deepEqual(await duplicates(page, 'B'), []);
  assert.equal(await region(page, 'Copy B').locator('.duplicates').textContent(), 'Duplicate side effectsNone.');
  const rows = await table(page);
  assert.deepEqual(rows.find((r) => r[0] === 'Duplicates done'), ['Duplicates done', '2', '0', '−2']);
  assert.deepEqual(rows.find((r) => r[0] === 'Redeliveries'), ['Redeliveries', '1', '0', '−1']);
  assert.deepEqual(rows.find((r) => r[0] === 'Latency p50'), ['Latency p50', '90 s', '90 s', '0']);
  await screenshot('compare-r022-1280x720-light');

  await button(page, 'Copy link').click();
  const link = await page.getByLabel('Link to this comparison').inputValue();
  assert.match(link, /\?scenario=r-022&compare=,VisibilityTimeout:120&t=180&speed=1000$/);
  const again = await page.context().newPage();
  await again.setViewportSize({ width: 1280, height: 720 });
  await again.goto(link);
  await region(again, 'Copy B').waitFor();
  assert.equal(await clock(again), '12:03:00');
  assert.equal(await region(again, 'Copy B').locator('.copy-settings').textContent(), 'VisibilityTimeout 120');
  await button(region(again, 'Copy B'), 'Settings of B').click();
  assert.equal(await region(again, 'Copy B').getByLabel('VisibilityTimeout (seconds)').inputValue(), '120');
  assert.deepEqual(await table(again), rows);
  assert.deepEqual(await duplicates(again, 'A'), await duplicates(page, 'A'));
});

test('a per-copy value SQS refuses shows its refusal and changes nothing', async ({ page, url }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openComparison(page, url, R022);
  const a = region(page, 'Copy A');
  const before = await table(page);
  await button(a, 'Settings of A').click();
  await a.getByLabel('VisibilityTimeout (seconds)').fill('50000');
  await button(a, 'Apply to A').click();
  const alert = a.getByRole('alert');
  await alert.waitFor();
  assert.match(await alert.textContent(), /VisibilityTimeout/);
  assert.equal(await a.locator('.copy-settings').textContent(), 'VisibilityTimeout 60');
  assert.equal(await a.getByLabel('VisibilityTimeout (seconds)').inputValue(), '50000');
  assert.deepEqual(await table(page), before);
  await a.getByLabel('Processing time (seconds)').fill('fast');
  await button(a, 'Apply to A').click();
  await eventually(async () => assert.match(await a.getByRole('alert').first().textContent(), /processing: "fast" is not a number/));
});

test('a malformed compare parameter is named and opens the ordinary playground', async ({ page, url }) => {
  await page.goto(url('?scenario=r-022&compare=VisibilityTimeout:60'));
  await region(page, 'Queue').waitFor();
  assert.equal(await region(page, 'Copy A').count(), 0);
  const text = await page.locator('.picker').textContent();
  assert.match(text, /Ignored compare=VisibilityTimeout:60: it holds two copies' settings separated by a comma\./);
});

test('the embedded comparison fits 800x500 and offers no form', async ({ page, url, screenshot }) => {
  await page.setViewportSize({ width: 800, height: 500 });
  await openComparison(page, url, `${R022}&embed=1&t=70&theme=light`);
  assert.equal(await page.getByRole('button', { name: /^Apply/ }).count(), 0);
  assert.equal(await page.getByRole('link', { name: 'Back to the playground' }).count(), 0);
  for (const name of ['Copy A', 'Copy B', 'Difference']) {
    const [box] = await boxes(page, name);
    assert.ok(box.x >= 0 && box.y >= 0 && box.right <= 801 && box.bottom <= 501, `${name} ${JSON.stringify(box)} leaves 800x500`);
  }
  await assertStagesShow(page, 800, 500, ['Worker 1', 'Worker 2']);
  const difference = region(page, 'Difference');
  const cut = await difference.evaluate((e) => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1);
  assert.ok(!cut, 'the table is cut off');
  await screenshot('compare-embed-800x500');
});

test('a comparison at 1280x720 dark and on a phone', async ({ page, url, screenshot }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openComparison(page, url, `${R022}&t=70&theme=dark`);
  await page.waitForTimeout(1600);
  for (const name of ['Copy A', 'Copy B', 'Difference']) {
    const [box] = await boxes(page, name);
    assert.ok(box.bottom <= 721 && box.right <= 1281, `${name} leaves the screen: ${JSON.stringify(box)}`);
  }
  const difference = region(page, 'Difference');
  assert.ok(await difference.evaluate((e) => e.scrollWidth <= e.clientWidth + 1), 'the table is cut off at 1280');
  await assertStagesShow(page, 1280, 720, ['Worker 1', 'Worker 2']);
  await screenshot('compare-r022-1280x720-dark');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(url(`${R022}&t=70&theme=light`));
  await region(page, 'Copy B').waitFor();
  const [a, b, t] = await Promise.all(['Copy A', 'Copy B', 'Difference'].map((n) => region(page, n).boundingBox()));
  assert.ok(a.y + a.height <= b.y && b.y + b.height <= t.y, 'stacked: A, then B, then the table');
  assert.ok(a.width <= 390 && t.width <= 390, 'nothing wider than the phone');
  await screenshot('compare-r022-390x844');
});

for (const [name, query, width, height] of [
  ['light', `${R022}&t=150&theme=light`, 1280, 720],
  ['dark', `${R022}&t=150&theme=dark`, 1280, 720],
  ['embedded at 800x500', `${R022}&t=150&embed=1&theme=dark`, 800, 500],
]) {
  test(`axe finds no WCAG 2.2 A/AA violation in a comparison, ${name}`, async ({ page, url }) => {
    await page.setViewportSize({ width, height });
    await openComparison(page, url, query);
    await page.waitForTimeout(1600);
    assert.deepEqual(await violations(page), []);
  });
}
