// What a link opens is named as itself, a read-only player offers no control that changes the
// session, and nothing outgrows its box: a long message body on a narrow lane, the cost of a few
// calls (a fraction of a cent), at 1280x720 (a projector), light and dark, and on a phone.
import { test, assert, eventually } from '../lib/harness.mjs';
import { open, region, button, waitForMessage, openTab } from '../lib/playground.mjs';
import { permalink } from '../lib/permalink.mjs';

/** A queue, one slow worker and a message whose body is longer than a lane is wide. */
const longBody = {
  id: 'long-body',
  title: 'A long body on a narrow lane',
  seed: 1,
  steps: [
    { call: 'CreateQueue', input: { QueueName: 'orders', Attributes: { VisibilityTimeout: '60' } } },
    { sim: 'AddProducer', input: { name: 'P', queue: 'orders', every: 1, count: 2, body: 'order-{n} for customer-{n} in Leeds' } },
    { sim: 'AddWorker', input: { name: 'Worker 1', policy: { queue: 'orders', wait_time_seconds: 20, processing: { kind: 'Fixed', seconds: 40 } } } },
    { sim: 'AddWorker', input: { name: 'Worker 2', policy: { queue: 'orders', wait_time_seconds: 20, processing: { kind: 'Fixed', seconds: 40 } } } },
    { advance: 100 },
  ],
};

/** Whether `inner` lies within `outer` horizontally (1 px for rounding). */
const within = (inner, outer) => inner.x >= outer.x - 1 && inner.x + inner.width <= outer.x + outer.width + 1;

async function checkFit(page) {
  await waitForMessage(region(page, 'Worker 1'), /^order-1 for customer-1 in Leeds, in flight/);
  for (const lane of ['Worker 1', 'Worker 2']) {
    const card = region(page, lane).locator('li.msg').first();
    const [c, l] = [await card.boundingBox(), await region(page, lane).boundingBox()];
    assert.ok(within(c, l), `${lane}: a card ${JSON.stringify(c)} outgrows its lane ${JSON.stringify(l)}`);
  }
  const figures = await page.locator('.tiles .tile').evaluateAll((tiles) =>
    tiles.map((t) => {
      const dd = t.querySelector('dd');
      return { kind: t.dataset.kind, text: dd.textContent, fits: dd.scrollWidth <= t.clientWidth };
    }),
  );
  const cost = figures.find((f) => f.kind === 'cost');
  assert.match(cost.text, /^\$0\.0+\d+$/, 'the cost is a fraction of a cent');
  for (const f of figures) assert.ok(f.fits, `the ${f.kind} figure ${f.text} overflows its tile`);
}

test('a scenario opened from a link is named as itself in the picker', async ({ page, url }) => {
  await page.goto(url('') + permalink(longBody, { playhead: 5_000, speed: 1 }));
  await region(page, 'Queue').waitFor();
  const picker = page.getByLabel('Scenario', { exact: true });
  assert.equal(await picker.inputValue(), 'long-body');
  assert.equal(await picker.locator('option:checked').textContent(), 'A long body on a narrow lane');
  // Choosing a library scenario opens it, and the link's own entry goes.
  await picker.selectOption('slow-worker');
  await openTab(page, 'Story');
  await eventually(async () => assert.match(await region(page, 'Story').textContent(), /slow/i));
  assert.equal(await picker.locator('option[value="long-body"]').count(), 0);
});

for (const theme of ['light', 'dark']) {
  test(`at 1280x720 (${theme}) cards stay in their lanes and figures on their tiles`, async ({ page, url, screenshot }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(url(`?theme=${theme}`) + permalink(longBody, { playhead: 5_000, speed: 1 }));
    await checkFit(page);
    await screenshot(`fit-1280-${theme}`);
  });
}

test('on a phone cards stay in their lanes and figures on their tiles', async ({ page, url, screenshot }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(url('') + permalink(longBody, { playhead: 5_000, speed: 1 }));
  await checkFit(page);
  await screenshot('fit-phone');
});

/** A queue holding a message nobody has received, and a worker the user drives by hand. */
const waiting = {
  id: 'waiting',
  title: 'A message waiting',
  seed: 1,
  steps: [
    { call: 'CreateQueue', input: { QueueName: 'orders' } },
    { sim: 'AddWorker', input: { name: 'Worker A', policy: { queue: 'orders', mode: { kind: 'Manual' } } } },
    { call: 'SendMessage', input: { QueueUrl: 'https://sqs.us-east-1.amazonaws.com/000000000000/orders', MessageBody: 'order-1' } },
    { advance: 60 },
  ],
};

test('a read-only player (controls=0) offers no control that changes the session', async ({ page, url }) => {
  const link = permalink(waiting, { playhead: 5_000, speed: 1 });
  const controls = ['Kill', 'Restart', 'Remove', 'Add worker', 'Send message'];
  const offered = async () => ({
    buttons: await Promise.all(controls.map((name) => button(page, name).count())),
    faults: await page.getByText('Faults', { exact: true }).count(),
    grabbable: await page.locator('.msg.grabbable').count(),
  });
  // The same moment with controls offers every one of them (so their absence below means
  // something); a scenario's producer is under its tab.
  await page.goto(url('?tab=producer') + link);
  await waitForMessage(region(page, 'Queue'), /^order-1, visible/);
  const editable = await offered();
  assert.ok(editable.buttons.every((n) => n > 0) && editable.faults > 0 && editable.grabbable > 0, JSON.stringify(editable));
  await page.goto(url('?controls=0') + link);
  await waitForMessage(region(page, 'Queue'), /^order-1, visible/);
  assert.deepEqual(await offered(), { buttons: controls.map(() => 0), faults: 0, grabbable: 0 });
  // The clock is still the viewer's.
  await button(page, 'Play').click();
  await eventually(async () => assert.equal(await button(page, 'Play').getAttribute('aria-pressed'), 'true'));
});
