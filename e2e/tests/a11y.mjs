// Accessibility: axe-core (npm) with the WCAG 2.2 A and AA rules finds no violation in the views a
// teacher projects, a docs page embeds and an engineer edits: each scenario kind at 1280x720 in
// both themes, the Share panel open, the embedded player at 800x500, and a phone.
import { test, assert } from '../lib/harness.mjs';
import { violations } from '../lib/axe.mjs';
import { open, region, button, openTab } from '../lib/playground.mjs';

/** Opens `query` at `size` in `theme` and plays a few steps, so cards of every state are drawn. */
async function view(page, url, query, { width = 1280, height = 720, steps = 4 } = {}) {
  await page.setViewportSize({ width, height });
  await open(page, url, query);
  for (let i = 0; i < steps; i++) await button(page, 'Step').click();
  // Cards glide, appear and fade out (a deleted one for 1.5 s): axe reads the page once they
  // have settled, not a card caught half-transparent.
  await page.waitForTimeout(1600);
}

const views = [
  ['sandbox, light', '?scenario=sandbox&theme=light', {}],
  ['sandbox, dark', '?scenario=sandbox&theme=dark', {}],
  ['poison to DLQ, light', '?scenario=poison-to-dlq&theme=light', { steps: 12 }],
  ['poison to DLQ, dark', '?scenario=poison-to-dlq&theme=dark', { steps: 12 }],
  ['FIFO group blocking, embedded at 800x500, light', '?scenario=fifo-group-blocking&embed=1&theme=light', { width: 800, height: 500, steps: 6 }],
  ['FIFO group blocking, embedded at 800x500, dark', '?scenario=fifo-group-blocking&embed=1&theme=dark', { width: 800, height: 500, steps: 6 }],
  ['heartbeat on a phone', '?scenario=heartbeat', { width: 390, height: 844 }],
];

for (const [name, query, size] of views) {
  test(`axe finds no WCAG 2.2 A/AA violation: ${name}`, async ({ page, url }) => {
    await view(page, url, query, size);
    assert.deepEqual(await violations(page), []);
  });
}

// A lesson's question, and its answer with the stage's proof marked (r-022's first question,
// asked at once when the page opens at its instant).
const lessons = [
  ['1280x720, light', '&theme=light', { width: 1280, height: 720 }],
  ['1280x720, dark', '&theme=dark', { width: 1280, height: 720 }],
  ['embedded at 800x500', '&embed=1', { width: 800, height: 500 }],
];
for (const [name, query, viewport] of lessons) {
  test(`axe finds no WCAG 2.2 A/AA violation in a lesson's question and answer: ${name}`, async ({ page, url }) => {
    await page.setViewportSize(viewport);
    await open(page, url, `?scenario=r-022&lesson=1&t=55${query}`);
    const question = region(page, 'Question');
    await question.waitFor();
    await page.waitForTimeout(1600);
    assert.deepEqual(await violations(page), [], 'the question');
    await question.getByRole('radio').first().click();
    await button(question, 'Answer').click();
    await page.waitForFunction(() => document.querySelector('[data-phase="revealed"]'), null, { timeout: 15_000 });
    await page.waitForTimeout(1600);
    assert.deepEqual(await violations(page), [], 'the answer');
  }, { timeout: 60_000 });
}

test('axe finds no WCAG 2.2 A/AA violation with the Share panel open', async ({ page, url }) => {
  await view(page, url, '?scenario=crash-before-delete');
  await openTab(page, 'Share');
  await button(region(page, 'Share'), 'Embed code').click();
  assert.deepEqual(await violations(page), []);
});
