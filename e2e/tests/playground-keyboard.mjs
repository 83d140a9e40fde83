// Keyboard only: reach every control with Tab, operate it with Enter/Space, see the focus.
import { test, assert, eventually } from '../lib/harness.mjs';
import { open, region, waitForMessage, clock } from '../lib/playground.mjs';

/** Presses Tab until the focused element satisfies `matches` (its accessible name, tag). */
async function tabTo(page, matches, limit = 120) {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const e = document.activeElement;
      return { tag: e.tagName, name: (e.getAttribute('aria-label') || e.textContent || '').trim(), id: e.id };
    });
    if (matches(focused)) return focused;
  }
  throw new Error('Tab never reached the control');
}

test('keyboard only: send, hand to a worker, kill, step', async ({ page, url, screenshot }) => {
  await open(page, url, '?scenario=sandbox');
  await tabTo(page, (f) => f.tag === 'BUTTON' && f.name === 'Send message');
  await page.keyboard.press('Enter');
  await waitForMessage(region(page, 'Queue'), /^order-1, visible$/);

  // Focus the message, press Enter, pick the worker (focus moves to the choices).
  await tabTo(page, (f) => f.tag === 'LI' && f.name.startsWith('order-1'));
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none', 'the focused message shows a visible focus ring');
  await page.keyboard.press('Enter');
  await eventually(async () =>
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Give to Worker 1'),
  );
  await screenshot('playground-keyboard-pick');
  await page.keyboard.press('Enter');
  await waitForMessage(region(page, 'Worker 1'), /^order-1, in flight/);

  await tabTo(page, (f) => f.tag === 'BUTTON' && f.name === 'Kill');
  await page.keyboard.press('Enter');
  await eventually(async () => assert.equal(await region(page, 'Worker 1').getAttribute('data-status'), 'dead'));

  await tabTo(page, (f) => f.tag === 'BUTTON' && f.name.endsWith('Step'));
  await page.keyboard.press('Enter');
  await eventually(async () => assert.equal(await clock(page), '12:00:30'));
  await waitForMessage(region(page, 'Queue'), /^order-1, visible, receive count 1$/);

  // Escape closes the hand-over bar.
  await tabTo(page, (f) => f.tag === 'LI' && f.name.startsWith('order-1'));
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await eventually(async () => assert.equal(await region(page, 'Queue').getByRole('group').count(), 0));
});
