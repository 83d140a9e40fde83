// FIFO: a message behind an in-flight message of its group cannot be taken, and the UI says why.
import { test, assert } from '../lib/harness.mjs';
import { open, region, drag, waitForMessage, messages, button } from '../lib/playground.mjs';

test('a FIFO group is blocked behind an in-flight message', async ({ page, url, screenshot }) => {
  await open(page, url, '?scenario=fifo-group-blocking');
  const blocked = await waitForMessage(region(page, 'Queue'), /^A2, visible, blocked/);
  assert.equal(blocked, 'A2, visible, blocked: group workshop-A has a message in flight');
  await waitForMessage(region(page, 'Worker 1'), /^A1, in flight/);

  // Dragging the blocked message does not hand it over; the UI says why.
  await drag(page, region(page, 'Queue').getByRole('listitem', { name: /^A2/ }), region(page, 'Worker 2'));
  const why = region(page, 'Queue').getByRole('alert');
  await why.waitFor();
  assert.match(await why.textContent(), /A2 cannot be taken yet: group workshop-A has a message in flight/);
  assert.ok(!(await messages(region(page, 'Worker 2'))).some((m) => m.startsWith('A2')));
  await screenshot('playground-fifo-blocked');

  // When A1's timeout runs out the group moves again.
  await button(page, '10×').click();
  await button(page, 'Play').click();
  await waitForMessage(page.locator('body'), /^A2, in flight/, 10_000);
});

test('two queues side by side: every lane draws what it holds, the switch picks the queue drawn', async ({ page, url, screenshot }) => {
  await open(page, url, '?scenario=fifo-single-group&t=10');
  const queue = region(page, 'Queue');
  assert.match(await queue.locator('h2').textContent(), /repairs-one-group\.fifo/);
  await waitForMessage(queue, /^W1-ticket-3, visible, blocked/);
  await waitForMessage(region(page, 'Worker 2 (one group)'), /^W3-ticket-2, in flight/);
  // One ticket per workshop in flight at once, each on the lane that received it, although
  // their queue is not the one drawn.
  const perWorkshop = [['Worker 1 (per workshop)', 'W2-ticket-4'], ['Worker 2 (per workshop)', 'W3-ticket-5'], ['Worker 3 (per workshop)', 'W1-ticket-6']];
  for (const [lane, body] of perWorkshop) await waitForMessage(region(page, lane), new RegExp(`^${body}, in flight`));

  const shown = page.getByLabel('Show queue', { exact: true });
  assert.deepEqual(await shown.locator('option').allTextContents(), ['repairs-one-group.fifo', 'repairs-per-workshop.fifo']);
  await shown.selectOption('repairs-per-workshop.fifo');
  assert.match(await queue.locator('h2').textContent(), /repairs-per-workshop\.fifo/);
  assert.deepEqual(await messages(queue), [], 'the per-workshop queue is empty at 12:00:10');
  for (const [lane, body] of perWorkshop) await waitForMessage(region(page, lane), new RegExp(`^${body}, in flight`));
  await waitForMessage(region(page, 'Worker 2 (one group)'), /^W3-ticket-2, in flight/);
  await screenshot('playground-two-queues');
});
