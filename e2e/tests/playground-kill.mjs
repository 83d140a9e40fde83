// Kill a worker: its message keeps counting down on the dead lane, comes back when the
// visibility timeout runs out, and the next receive shows receive count 2.
import { test, assert, eventually } from '../lib/harness.mjs';
import { open, region, button, send, drag, waitForMessage, waitForText, clock } from '../lib/playground.mjs';

test('a killed worker\'s message comes back after the timeout with receive count 2', async ({ page, url, screenshot }) => {
  await open(page, url, '?scenario=sandbox');
  await send(page, 1);
  await drag(page, region(page, 'Queue').getByRole('listitem', { name: /^order-1/ }), region(page, 'Worker 1'));
  await waitForMessage(region(page, 'Worker 1'), /^order-1, in flight, 30 s left, receive count 1$/);
  await button(region(page, 'Worker 1'), 'Kill').click();
  await eventually(async () => assert.equal(await region(page, 'Worker 1').getAttribute('data-status'), 'dead'));
  assert.match(await region(page, 'Worker 1').textContent(), /dead/);

  await button(page, '10×').click();
  await button(page, 'Play').click();
  // While dead, the lane still shows the message counting down.
  await waitForMessage(region(page, 'Worker 1'), /^order-1, in flight, (2\d|1\d) s left/);
  await screenshot('playground-dead-worker');
  await waitForMessage(region(page, 'Queue'), /^order-1, visible, receive count 1$/, 10_000);
  await button(page, 'Pause').click();
  assert.ok((await clock(page)) >= '12:00:30', await clock(page));
  await waitForText(region(page, 'Event log'), /visibility timeout/i);

  await drag(page, region(page, 'Queue').getByRole('listitem', { name: /^order-1/ }), region(page, 'Worker 2'));
  await waitForMessage(region(page, 'Worker 2'), /^order-1, in flight, \d+ s left, receive count 2$/);
  await screenshot('playground-redelivered');
});

test('the crash scenario plays to Worker B receiving M with receive count 2', async ({ page, url, screenshot }) => {
  await open(page, url, '?scenario=crash-before-delete&speed=20&autoplay=1');
  await waitForMessage(region(page, 'Worker A'), /^M, in flight/);
  await eventually(async () => assert.equal(await region(page, 'Worker A').getAttribute('data-status'), 'dead'));
  await waitForMessage(region(page, 'Worker B'), /^M, in flight, \d+ s left, receive count 2$/, 10_000);
  await screenshot('playground-crash-scenario');
});
