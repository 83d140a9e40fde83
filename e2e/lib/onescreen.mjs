// Helpers for the one-screen tests (issue 21): which library scenarios there are, and whether
// the places of the stage and the story line lie inside the viewport.
import { assert } from './harness.mjs';
import { region, button, clock } from './playground.mjs';

/** The library's scenario ids, as the picker lists them (the sandboxes left out). */
export async function libraryIds(page) {
  const ids = await page.getByLabel('Scenario', { exact: true }).locator('option').evaluateAll((os) => os.map((o) => o.value));
  return ids.filter((id) => !id.startsWith('sandbox'));
}

/** The scenario's end: the timeline's end when it opens (its script's length). */
export async function scenarioEnd(page) {
  return Number(await page.locator('#timeline').getAttribute('max'));
}

/** The timeline's position (virtual ms). */
export async function playhead(page) {
  return Number(await page.locator('#timeline').inputValue());
}

/**
 * The names of the places that must be in view and are not: the queue, every lane of the
 * Workers region, the dead-letter queue (unless the queue has none), the story line (or the
 * lesson's question or score, which take its place).
 */
export async function outOfView(page) {
  return page.evaluate(() => {
    const [w, h] = [window.innerWidth, window.innerHeight];
    const named = (name) => [...document.querySelectorAll('section[aria-label]')].filter((s) => s.getAttribute('aria-label') === name);
    const workers = named('Workers')[0];
    const lanes = workers ? [...workers.querySelectorAll('section.lane[aria-label]')] : [];
    const dlq = named('Dead-letter queue').filter((d) => !/no RedrivePolicy/.test(d.textContent));
    const story = ['Story line', 'Question', 'Lesson score'].flatMap(named);
    const places = [...named('Queue'), ...lanes, ...dlq, ...story];
    const bad = [];
    if (!named('Queue').length) bad.push('Queue (missing)');
    if (story.length !== 1) bad.push(`Story line (${story.length} of it, with the question and the score)`);
    for (const el of places) {
      const r = el.getBoundingClientRect();
      const inside = r.width > 0 && r.height > 0 && r.left >= -1 && r.top >= -1 && r.right <= w + 1 && r.bottom <= h + 1;
      if (!inside) bad.push(`${el.getAttribute('aria-label')} at ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
    if (document.documentElement.scrollLeft > 0 || window.scrollY > 0) bad.push(`page scrolled to ${window.scrollX},${window.scrollY}`);
    return bad;
  });
}

/**
 * Steps through the open scenario to its end (at most `limit` steps), calling `check` at the
 * start and after every step. Returns the number of steps.
 */
export async function stepToEnd(page, check, limit = 600) {
  const end = await scenarioEnd(page);
  const step = button(page, 'Step');
  await check(0);
  let n = 0;
  while ((await playhead(page)) < end) {
    assert.ok(n < limit, `more than ${limit} steps before the end (${await clock(page)})`);
    await step.click();
    n++;
    await check(n);
  }
  return n;
}

/** Asserts the places are in view, naming the moment when they are not. */
export async function assertInView(page, what) {
  const bad = await outOfView(page);
  assert.deepEqual(bad, [], `${what} at ${await clock(page)}: out of view: ${bad.join('; ')}`);
}

export { region };
