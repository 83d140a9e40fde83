// A poison message reaches the dead-letter queue after maxReceiveCount receives.
import { test, assert, eventually } from '../lib/harness.mjs';
import { open, region, waitForMessage, waitForText, counter } from '../lib/playground.mjs';

test('a message reaches the dead-letter queue', async ({ page, url, screenshot }) => {
  await open(page, url, '?scenario=poison-to-dlq&speed=100&autoplay=1');
  const dead = await waitForMessage(region(page, 'Dead-letter queue'), /in dead-letter queue/, 10_000);
  assert.match(dead, /^order-2 POISON, in dead-letter queue, receive count 3$/);
  await waitForText(region(page, 'Event log'), /moved it to orders-dlq/);
  await eventually(async () => assert.equal(await counter(page, 'Dead-lettered'), '1'), { timeout: 8000 });
  await screenshot('playground-dead-letter');
});
