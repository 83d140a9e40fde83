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
