// Drag a message onto a worker lane: that worker receives it (pointer events).
import { test, assert } from '../lib/harness.mjs';
import { open, region, send, drag, waitForMessage, waitForText, messages } from '../lib/playground.mjs';

test('dragging a message onto a worker makes that worker receive it', async ({ page, url, screenshot }) => {
  await open(page, url, '?scenario=sandbox');
  await screenshot('playground-sandbox');
  await send(page, 2);
  await waitForMessage(region(page, 'Queue'), /^order-1, visible$/);
  const card = region(page, 'Queue').getByRole('listitem', { name: /^order-1, visible/ });
  await drag(page, card, region(page, 'Worker 1'));
  const held = await waitForMessage(region(page, 'Worker 1'), /^order-1, in flight/);
  assert.equal(held, 'order-1, in flight, 30 s left, receive count 1');
  assert.deepEqual(await messages(region(page, 'Queue')), ['order-2, visible']);
  await waitForText(region(page, 'Event log'), /Worker 1 called ReceiveMessage/);
  // The receipt handle and receive count show on hover.
  await region(page, 'Worker 1').getByRole('listitem', { name: /order-1/ }).hover();
  assert.match(await region(page, 'Worker 1').getByRole('tooltip').textContent(), /receipt handle .*ApproximateReceiveCount 1/);
  await screenshot('playground-in-flight');
});

test('a touch drag works too', async ({ page, url }) => {
  await open(page, url, '?scenario=sandbox');
  await send(page, 1);
  const card = region(page, 'Queue').getByRole('listitem', { name: /^order-1, visible/ });
  await page.evaluate(() => window.scrollTo(0, 0));
  const a = await card.boundingBox();
  const b = await region(page, 'Worker 2').boundingBox();
  // Synthesised touch-type pointer events, as a finger on a tablet sends them.
  await page.evaluate(
    ({ a, b }) => {
      const at = (x, y) => document.elementFromPoint(x, y);
      const fire = (type, x, y) =>
        at(x, y).dispatchEvent(
          new PointerEvent(type, { bubbles: true, pointerType: 'touch', isPrimary: true, button: type === 'pointermove' ? -1 : 0, clientX: x, clientY: y }),
        );
      fire('pointerdown', a.x + 10, a.y + a.height / 2);
      for (let i = 1; i <= 8; i++) fire('pointermove', a.x + ((b.x + 40 - a.x) * i) / 8, a.y + ((b.y + 40 - a.y) * i) / 8);
      fire('pointerup', b.x + 40, b.y + 40);
    },
    { a, b },
  );
  await waitForMessage(region(page, 'Worker 2'), /^order-1, in flight/);
});
