// Lambda event source mappings on the stage: a batching window gathers in-flight messages on the
// lane before the function is invoked, and the fault of a bad batchItemFailures response.
import { test, assert } from '../lib/harness.mjs';
import { open, region, button, messages, waitForText } from '../lib/playground.mjs';

test('a batching window holds received messages on the Lambda lane until it ends', async ({ page, url, screenshot }) => {
  // 12:00:07: orders 1 to 4 received (one every 2 s), the 10-second window still open.
  await open(page, url, '?scenario=lambda-batching-window&t=7');
  const lane = region(page, 'Lambda');
  await waitForText(lane, /Lambda, batch 50, batching window 10 s, timeout 20 s/);
  const held = await messages(lane);
  assert.deepEqual(held.map((m) => m.split(',')[0]), ['order-1', 'order-2', 'order-3', 'order-4'], JSON.stringify(held));
  assert.ok(held.every((m) => /in flight/.test(m)), 'gathered messages are in flight');
  assert.doesNotMatch(await region(page, 'Event log').textContent(), /Lambda invoked/);
  // The fault of a ReportBatchItemFailures function is offered, and arms.
  await lane.getByText('Faults', { exact: true }).click();
  await button(lane, 'Bad itemIdentifier').click();
  await waitForText(lane, /Armed: BadItemIdentifier/);
  await screenshot('playground-lambda-window');
  // A mapping without ReportBatchItemFailures has no such response to get wrong.
  await open(page, url, '?scenario=lambda-6x');
  const plain = region(page, 'Lambda (1x)');
  await plain.getByText('Faults', { exact: true }).click();
  await button(plain, 'Fail job').waitFor();
  assert.equal(await button(plain, 'Bad itemIdentifier').count(), 0);
});
