// The heartbeat pattern: ChangeMessageVisibility keeps a long job's message hidden.
import { test, assert, eventually } from '../lib/harness.mjs';
import { open, region, messages, waitForMessage, counter } from '../lib/playground.mjs';

test('a heartbeat keeps a long job\'s message hidden until it is deleted', async ({ page, url, screenshot }) => {
  await open(page, url, '?scenario=heartbeat&speed=100&autoplay=1');
  await waitForMessage(region(page, 'Worker A'), /^monthly report, in flight/);
  // Watch the queue while the 8-minute job runs through two extensions: never visible.
  let sawExtension = false;
  await eventually(
    async () => {
      const waiting = await messages(region(page, 'Queue'));
      assert.deepEqual(waiting.filter((m) => m.startsWith('monthly report')), [], 'the message reappeared');
      const log = await region(page, 'Event log').textContent();
      sawExtension ||= /Worker A called ChangeMessageVisibility/.test(log);
      assert.match(log, /Worker A called DeleteMessage/);
    },
    { timeout: 15_000, interval: 100 },
  );
  assert.ok(sawExtension, 'no ChangeMessageVisibility was seen');
  assert.equal(await counter(page, 'Redeliveries'), '0');
  await screenshot('playground-heartbeat');
});
