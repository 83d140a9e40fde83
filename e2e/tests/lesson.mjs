// The lesson player (issue 23, "Predict, then reveal"): with lesson=1 a scenario's questions
// stop the clock at their instant, Play and Step refuse until the question is answered or
// skipped, the clock plays on to the moment that answers it, and the answer shows with why and
// what on the stage proves it; a score at the end. With the pointer, with the keyboard alone,
// with Skip; lesson=0 plays through. The question panel stays in view with the whole stage at
// 1280x720, in the embedded player at 800x500 and on a phone.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, assert, eventually } from '../lib/harness.mjs';
import { open, region, button, clock } from '../lib/playground.mjs';
import { reopenShared } from '../lib/permalink.mjs';
import { outOfView, playhead, scenarioEnd } from '../lib/onescreen.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Saves the viewport (what a projector shows; the runner's own screenshots are full-page). */
const shot = (page, name) => page.screenshot({ path: path.join(repo, 'target/screenshots', `lesson-${name}.png`) });

// crash-before-delete asks at 12:00:11 (revealed at 12:00:20) and at 12:00:25 (revealed at
// 12:00:30); the first choice is correct both times.
const LESSON = '?scenario=crash-before-delete&lesson=1&speed=100';
const question = (page) => region(page, 'Question');
const phase = (page) => question(page).getAttribute('data-phase');

/** Waits until the question panel is in `want` phase at `time` on the clock. */
async function waitFor(page, want, time) {
  await eventually(async () => {
    assert.equal(await phase(page), want);
    assert.equal(await clock(page), time);
  });
}

/** The choices shown at the reveal (the correct one, and the learner's if it was another):
 * [number, mark, text] each. */
async function marks(page) {
  return question(page).locator('li.choice').evaluateAll((items) =>
    items.map((li) => [li.querySelector('.choice-key').textContent, li.dataset.mark, li.querySelector('.choice-text').textContent]),
  );
}

/** The question panel and the stage's places are inside the viewport. */
async function assertInView(page, what) {
  const bad = await outOfView(page);
  assert.deepEqual(bad, [], `${what} at ${await clock(page)}: out of view: ${bad.join('; ')}`);
}

test('a lesson stops at its question, refuses to go on, reveals the answer and scores (pointer)', async ({ page, url }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, url, `${LESSON}&theme=light`);
  await button(page, 'Play').click();
  await waitFor(page, 'asking', '12:00:11');
  const q = question(page);
  assert.match(await q.locator('legend').textContent(), /^Question 1 of 2Worker A crashed at 12:00:10/);
  assert.equal(await q.getByRole('radio').count(), 3);
  // Play and Step refuse while the question is open, and say why.
  const play = button(page, 'Play');
  assert.equal(await play.getAttribute('aria-disabled'), 'true');
  // (aria-disabled: a pointer still presses them, as a learner would.)
  await play.click({ force: true });
  await button(page, 'Step').click({ force: true });
  await page.waitForTimeout(400);
  assert.equal(await clock(page), '12:00:11');
  assert.match(await page.getByRole('alert').filter({ hasText: 'Answer the question' }).textContent(), /Answer the question \(or Skip it\) to go on/);
  // Answer with nothing picked: the panel says so and nothing moves.
  await button(q, 'Answer').click();
  assert.match(await q.textContent(), /Pick one of the answers first, or Skip/);
  await assertInView(page, 'the question, light');
  await shot(page, 'question-1280x720-light');

  await q.getByRole('radio', { name: /^Nothing: M stays in flight/ }).click();
  await button(q, 'Answer').click();
  await waitFor(page, 'revealed', '12:00:20');
  assert.deepEqual(await marks(page), [['1', 'right', '✓ Correct answer, yoursNothing: M stays in flight, hidden until 12:00:30']]);
  assert.match(await q.locator('.lesson-why').textContent(), /^Nobody tells SQS that a consumer crashed/);
  assert.match(await q.locator('.lesson-status').textContent(), /^Right\. ★ Look at message M, Worker A \(★ on the stage\)\.$/);
  // The stage points at the proof: Worker A's lane and M's card on it.
  const lane = region(page, 'Worker A');
  assert.match(await lane.getAttribute('class'), /\bproof\b/);
  assert.match(await lane.textContent(), /Look here/);
  assert.equal(await lane.locator('li.msg.proof').count(), 1);
  assert.equal(await region(page, 'Worker B').locator('.proof').count(), 0);
  assert.equal(await play.getAttribute('aria-disabled'), null);
  await assertInView(page, 'the answer, light');
  await page.waitForTimeout(400);
  await shot(page, 'answer-1280x720-light');

  // Continue plays on to the second question; a wrong answer is marked as yours.
  await button(q, 'Continue').click();
  await waitFor(page, 'asking', '12:00:25');
  assert.equal(await q.locator('.proof').count(), 0);
  await q.getByRole('radio', { name: /^Nothing: M waits for Worker A/ }).click();
  await button(q, 'Answer').click();
  await waitFor(page, 'revealed', '12:00:30');
  assert.deepEqual((await marks(page)).map(([n, mark]) => [n, mark]), [['1', 'right'], ['3', 'wrong']]);
  assert.match(await q.locator('li[data-mark="wrong"]').textContent(), /✗ Your answerNothing: M waits for Worker A/);
  assert.match(await q.locator('.lesson-status').textContent(), /^Not quite\. ★ Look at message M, Worker B/);
  await button(q, 'Continue').click();
  const score = region(page, 'Lesson score');
  await score.waitFor();
  assert.equal(await clock(page), '12:01:00');
  assert.match(await score.textContent(), /1 of 2 right$/);
  await assertInView(page, 'the score');
});

test('the same lesson with the keyboard only', async ({ page, url }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, url, LESSON);
  await page.evaluate(() => {
    window.pointerEvents = 0;
    for (const type of ['pointerdown', 'mousedown', 'mousemove']) {
      addEventListener(type, () => window.pointerEvents++, true);
    }
  });
  // Tab to Play, Enter.
  for (let i = 0; i < 40 && (await page.evaluate(() => document.activeElement.textContent)) !== 'Play'; i++) {
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Enter');
  await waitFor(page, 'asking', '12:00:11');
  // The question takes the focus; a number key picks, Enter answers.
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), 'Question');
  // The live region reads the question and its choices.
  assert.match(await page.locator('.visually-hidden[role="status"]').textContent(), /^Question 1 of 2: Worker A crashed.*Answers: 1, Nothing: M stays in flight.* 2, It makes M visible/);
  await page.keyboard.press('1');
  assert.equal(await question(page).getByRole('radio', { checked: true }).getAttribute('value'), '0');
  await page.keyboard.press('Enter');
  await waitFor(page, 'revealed', '12:00:20');
  assert.match(await page.locator('.visually-hidden[role="status"]').textContent(), /^Right\. The answer: Nothing: M stays in flight.*Look at message M, Worker A\.$/);
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Continue');
  await page.keyboard.press('Enter');
  // The second: Tab into the radio group, an arrow key picks the next choice, Enter answers.
  await waitFor(page, 'asking', '12:00:25');
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowDown');
  assert.equal(await question(page).getByRole('radio', { checked: true }).getAttribute('value'), '1');
  await page.keyboard.press('Enter');
  await waitFor(page, 'revealed', '12:00:30');
  assert.deepEqual((await marks(page)).map(([n, mark]) => [n, mark]), [['1', 'right'], ['2', 'wrong']]);
  await page.keyboard.press('Enter');
  await region(page, 'Lesson score').waitFor();
  assert.match(await region(page, 'Lesson score').textContent(), /1 of 2 right$/);
  assert.match(await page.locator('.visually-hidden[role="status"]').textContent(), /Lesson score: 1 of 2 right\./);
  assert.equal(await page.evaluate(() => window.pointerEvents), 0, 'no pointer or mouse event');
});

test('Skip counts as skipped, still reveals, and rewinding asks again', async ({ page, url }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, url, LESSON);
  // Stepping stops at the question too.
  for (let i = 0; i < 20 && (await question(page).count()) === 0; i++) await button(page, 'Step').click();
  await waitFor(page, 'asking', '12:00:11');
  await button(question(page), 'Skip').click();
  await waitFor(page, 'revealed', '12:00:20');
  assert.match(await question(page).locator('.lesson-status').textContent(), /^Skipped: here is the answer\. ★ Look at/);
  assert.deepEqual((await marks(page)).map(([n, mark]) => [n, mark]), [['1', 'right']]);
  // Back before the question: asked again (the timeline's scrub), and a seek ahead stops at it.
  await page.locator('#timeline').evaluate((el) => {
    el.value = '5000';
    el.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await eventually(async () => assert.equal(await clock(page), '12:00:05'));
  assert.equal(await question(page).count(), 0);
  await page.locator('#timeline').evaluate((el) => {
    el.value = '40000';
    el.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await waitFor(page, 'asking', '12:00:11');
  // The score keeps the first answer (skipped), whatever is answered now.
  await question(page).getByRole('radio').first().click();
  await button(question(page), 'Answer').click();
  await waitFor(page, 'revealed', '12:00:20');
  await button(question(page), 'Continue').click();
  await waitFor(page, 'asking', '12:00:25');
  await button(question(page), 'Skip').click();
  await waitFor(page, 'revealed', '12:00:30');
  await button(question(page), 'Continue').click();
  assert.match(await region(page, 'Lesson score').textContent(), /0 of 2 right, 2 skipped$/);
});

test('lesson=0 plays through without a question; the switch turns lesson mode on', async ({ page, url }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, url, '?scenario=crash-before-delete&lesson=0&speed=100');
  const toggle = page.getByRole('checkbox', { name: 'Lesson: ask questions (2)' });
  assert.equal(await toggle.isChecked(), false);
  await button(page, 'Play').click();
  await eventually(async () => assert.equal(await playhead(page), await scenarioEnd(page)), { timeout: 8000 });
  assert.equal(await question(page).count(), 0);
  assert.equal(await region(page, 'Lesson score').count(), 0);
  // On, from the start: the first question is asked.
  await button(page, 'Go to story line 1 at 12:00:00').click();
  await toggle.check();
  await button(page, 'Play').click();
  await waitFor(page, 'asking', '12:00:11');
  // The Share panel's link keeps the mode: it reopens at the question, asking it.
  const again = await reopenShared(page);
  await waitFor(again, 'asking', '12:00:11');
});

// Every question of these scenarios, answered at every step, keeps the question panel and the
// whole stage in view: the longest prompts (lambda-6x, heartbeat), four choices (r-022,
// poison-to-dlq) and a dead-letter queue.
const ONE_SCREEN = ['r-022', 'poison-to-dlq', 'lambda-6x', 'heartbeat'];
const SIZES = [
  ['1280x720', { width: 1280, height: 720 }, ''],
  ['embedded at 800x500', { width: 800, height: 500 }, '&embed=1'],
];

for (const [size, viewport, query] of SIZES) {
  test(`${size}: the question panel and the stage stay in view through every question`, async ({ context, url }) => {
    let asked = 0;
    for (const id of ONE_SCREEN) {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      await open(page, url, `?scenario=${id}&lesson=1${query}`);
      const end = await scenarioEnd(page);
      for (let n = 0; (await playhead(page)) < end; n++) {
        assert.ok(n < 600, `${id}: more than 600 steps`);
        await assertInView(page, `${id} (${size})`);
        const open = await question(page).count();
        if (open && (await phase(page)) === 'asking') {
          asked++;
          await question(page).getByRole('radio').last().click();
          await button(question(page), 'Answer').click();
          await eventually(async () => assert.equal(await phase(page), 'revealed'), { timeout: 15_000 });
          await assertInView(page, `${id} (${size}), the answer`);
          await button(question(page), 'Continue').click();
        } else if (!open) {
          // Forced: after Continue the clock plays, and may open the next question (which makes
          // Step aria-disabled) between the check and the press; Step then refuses.
          await button(page, 'Step').click({ force: true });
        } else {
          await page.waitForTimeout(100);
        }
      }
      await region(page, 'Lesson score').waitFor();
      await assertInView(page, `${id} (${size}), the score`);
      await page.close();
    }
    assert.equal(asked, 9);
  }, { timeout: 240_000 });
}

test('screenshots: a question and an answer, dark, embedded and on a phone', async ({ page, url }) => {
  const views = [
    ['1280x720-dark', { width: 1280, height: 720 }, '&theme=dark'],
    ['800x500-embed', { width: 800, height: 500 }, '&embed=1&theme=light'],
    ['390x844-phone', { width: 390, height: 844 }, '&theme=light'],
  ];
  // On a phone the stage is a column that scrolls: the question panel alone must be in view.
  const inView = async (name, phone) => {
    if (!phone) return assertInView(page, name);
    const box = await question(page).boundingBox();
    assert.ok(box.y >= 0 && box.y + box.height <= 844, `${name}: the question at ${box.y}, ${box.height} high`);
  };
  for (const [name, viewport, query] of views) {
    const phone = viewport.width < 400;
    await page.setViewportSize(viewport);
    // Opened at the first question's instant: it is asked at once.
    await open(page, url, `?scenario=r-022&lesson=1&t=55${query}`);
    await waitFor(page, 'asking', '12:00:55');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= viewport.width, `${name}: the page is ${width}px wide`);
    await inView(name, phone);
    await shot(page, `question-${name}`);
    await question(page).getByRole('radio').nth(1).click();
    await button(question(page), 'Answer').click();
    await eventually(async () => assert.equal(await phase(page), 'revealed'), { timeout: 15_000 });
    await inView(`${name}, the answer`, phone);
    await page.waitForTimeout(400);
    await shot(page, `answer-${name}`);
  }
});
