// The page (issue 35): the sandbox's first action on the first screen, the panels as a row of
// tabs below the stage (WAI-ARIA tabs, the open one in the address), every view fitting its
// viewport, and axe over every library scenario once its panels have filled.
import { test, assert, eventually } from '../lib/harness.mjs';
import { violations } from '../lib/axe.mjs';
import { open, region, button, waitForMessage, dragInView } from '../lib/playground.mjs';
import { stepToEnd, scenarioEnd } from '../lib/onescreen.mjs';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const scenarioDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../scenarios');
const LIBRARY = fs.readdirSync(scenarioDir).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();

/** The page's scroll position and size. */
const scroll = (page) =>
  page.evaluate(() => ({
    x: window.scrollX,
    y: window.scrollY,
    width: document.documentElement.scrollWidth,
    height: document.documentElement.scrollHeight,
  }));

/** Whether `locator` lies wholly inside the viewport. */
async function inView(page, locator) {
  const box = await locator.boundingBox();
  const { width, height } = page.viewportSize();
  return box && box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height;
}

/** What on the first screen is cut: a place that scrolls inside itself (the queue's empty text,
 * a lane's buttons) or hides what overflows it sideways (a lane's policy line, the counters).
 * The story line scrolls by design; text kept for screen readers alone is left out. */
const clipped = (page) =>
  page.evaluate(() => {
    const bad = [];
    for (const el of document.querySelectorAll('.screen *')) {
      const s = getComputedStyle(el);
      if (s.clipPath !== 'none' || el.closest('.story-now')) continue;
      const name = `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
      if (s.overflowY !== 'visible' && el.scrollHeight > el.clientHeight + 1) bad.push(`${name}: ${el.scrollHeight} px high in ${el.clientHeight}`);
      if (s.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1) bad.push(`${name}: ${el.scrollWidth} px wide in ${el.clientWidth}`);
    }
    return bad;
  });

for (const [width, height] of [[1280, 720], [800, 500]]) {
  test(`the sandbox at ${width}x${height}: send a message and drag it onto a worker without scrolling`, async ({ page, url, screenshot }) => {
    await page.setViewportSize({ width, height });
    await open(page, url, '?scenario=sandbox');
    const queue = region(page, 'Queue');
    // The queue's empty text points at the button beside it, and the button is in view.
    assert.match(await queue.textContent(), /Press Send message \(above\)/);
    const producer = page.getByRole('form', { name: 'Producer' });
    for (const what of [page.getByLabel('Message body'), page.getByLabel('Message timer (seconds)'), button(page, 'Send message')]) {
      assert.ok(await inView(page, what), `${await what.evaluate((e) => e.outerHTML.slice(0, 80))} out of view`);
    }
    await screenshot(`page-sandbox-${width}x${height}`);
    assert.deepEqual(await clipped(page), [], 'cut on the first screen');
    await button(producer, 'Send message').click();
    const card = queue.getByRole('listitem', { name: /^order-1, visible/ });
    await card.waitFor();
    assert.ok(await inView(page, card), 'the message is out of view');
    const worker = region(page, 'Worker 1');
    assert.ok(await inView(page, worker), 'Worker 1 is out of view');
    await dragInView(page, card, worker);
    await waitForMessage(worker, /^order-1, in flight/);
    const { x, y } = await scroll(page);
    assert.deepEqual({ x, y }, { x: 0, y: 0 }, 'the page scrolled');
  });
}

test('R-022 cuts nothing on the first screen at 1280x720 and 800x500, nor its title in the picker at 1280x720', async ({ page, url }) => {
  for (const [width, height] of [[1280, 720], [800, 500]]) {
    await page.setViewportSize({ width, height });
    // A card in Worker 1's lane, both lanes' policy lines and buttons, the counters.
    await open(page, url, '?scenario=r-022&t=20');
    await waitForMessage(region(page, 'Worker 1'), /^R-022, in flight/);
    assert.deepEqual(await clipped(page), [], `cut at ${width}x${height}`);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, url, '?scenario=r-022-ledger');
  const { text, room } = await page.getByLabel('Scenario', { exact: true }).evaluate((select) => {
    const s = getComputedStyle(select);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const text = ctx.measureText(select.selectedOptions[0].textContent).width;
    return { text, room: select.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) };
  });
  assert.ok(text <= room, `the title is ${Math.round(text)} px wide in a select with ${Math.round(room)} px for it`);
});

test('the panels are a tab list below the stage, one key apart, the open one in the address', async ({ page, url, screenshot }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, url, '?scenario=crash-before-delete');
  const tabs = page.getByRole('tablist', { name: 'Panels' });
  const names = await tabs.getByRole('tab').allTextContents();
  assert.deepEqual(names, ['Event log', 'Story', 'Queue depth', 'Side effects', 'Settings', 'Producer', 'Share']);
  // The tab row is on the first screen; the page is at most the viewport and the open panel.
  await eventually(async () => assert.ok(await inView(page, tabs), 'the tab row is below the fold'));
  for (let i = 0; i < 6; i++) await button(page, 'Step').click();
  const open1 = page.getByRole('tabpanel');
  assert.equal(await open1.count(), 1);
  const { height } = await scroll(page);
  const panel = await open1.boundingBox();
  assert.ok(height <= 720 + panel.height + 16, `the page is ${height} px tall, the open panel ${panel.height}`);
  // The keyboard: the open tab is the one tab stop; arrows, Home and End move along the row.
  await page.getByRole('tab', { name: 'Event log' }).focus();
  // A key press answers when its events are dispatched; the page draws (and moves the focus)
  // after that, so each check waits for the drawing.
  const selected = (name) =>
    eventually(async () =>
      assert.equal(await page.getByRole('tab', { name, exact: true }).getAttribute('aria-selected'), 'true'),
    );
  for (const name of names.slice(1)) {
    await page.keyboard.press('ArrowRight');
    await selected(name);
    const tab = page.getByRole('tab', { name, exact: true });
    await eventually(async () =>
      assert.equal(await page.evaluate(() => document.activeElement.textContent), name),
    );
    const shown = page.getByRole('tabpanel');
    assert.equal(await shown.getAttribute('aria-labelledby'), await tab.getAttribute('id'));
    assert.ok((await shown.textContent()).length > 0, `${name}: an empty panel`);
  }
  await page.keyboard.press('ArrowRight');
  await selected('Event log');
  await page.keyboard.press('End');
  await selected('Share');
  await eventually(async () => assert.match(page.url(), /[?&]tab=share/));
  await page.keyboard.press('Home');
  await eventually(async () => assert.match(page.url(), /[?&]tab=log/));
  // A click opens its panel and brings it into view.
  await page.getByRole('tab', { name: 'Side effects' }).click();
  assert.ok(await region(page, 'Side-effect ledger').isVisible());
  await screenshot('page-tabs-side-effects');
  // A link opens on its tab; another scenario keeps it.
  await open(page, url, '?scenario=heartbeat&tab=story');
  assert.equal(await page.getByRole('tab', { name: 'Story' }).getAttribute('aria-selected'), 'true');
  assert.match(await region(page, 'Story').textContent(), /What to watch/);
  await page.getByLabel('Scenario', { exact: true }).selectOption('poison-to-dlq');
  await eventually(async () => assert.match(page.url(), /\?scenario=poison-to-dlq&tab=story$/));
});

/**
 * Opens every library scenario (or each of `ids`) in a page of its own at `viewport` with `query`
 * (after `prepare(page)`), calls `visit(page, id)`, and returns the problems it found, one line
 * each.
 */
async function everyScenario(context, url, viewport, query, visit, prepare = async () => {}, ids = LIBRARY) {
  const problems = [];
  for (const id of ids) {
    const page = await context.newPage();
    await page.setViewportSize(viewport);
    await prepare(page);
    await open(page, url, `?scenario=${id}${query}`);
    for (const p of await visit(page, id)) problems.push(`${id} ${p}`);
    await page.close();
  }
  return problems;
}

/** The problems `check(page)` (a list of lines) finds at the start and after every step. */
async function atEveryStep(page, check) {
  const found = [];
  await stepToEnd(page, async (n) => {
    for (const p of await check(page)) found.push(`at step ${n}: ${p}`);
  });
  return found;
}

test('every library scenario fits a phone at 390x844: no horizontal overflow at any step', async ({ context, url }) => {
  const problems = await everyScenario(context, url, { width: 390, height: 844 }, '', (page) =>
    atEveryStep(page, async () => {
      const { width } = await scroll(page);
      return width > 390 ? [`${width} px wide`] : [];
    }));
  assert.deepEqual(problems, []);
}, { timeout: 240_000 });

/** What is cut in the lanes: any of a lane's text sticking out sideways, or below a lane that
 * does not scroll (one that scrolls keeps its text whole), a card below such a lane, anything
 * ending in an ellipsis or the lane itself wider than it is; and the page wider than the
 * window. Text kept for screen readers alone is left out. */
const cutInLanes = (page) =>
  page.evaluate(() => {
    const bad = [];
    const px = (r) => `${Math.round(r.left)}-${Math.round(r.right)}x${Math.round(r.bottom)}`;
    for (const lane of document.querySelectorAll('section.lane')) {
      const name = lane.getAttribute('aria-label');
      const l = lane.getBoundingClientRect();
      const scrolls = lane.scrollHeight > lane.clientHeight + 1 && getComputedStyle(lane).overflowY === 'auto';
      const out = (r) => r.left < l.left - 1 || r.right > l.right + 1 || (!scrolls && r.bottom > l.bottom + 1);
      if (lane.scrollWidth > lane.clientWidth + 1) bad.push(`${name}: ${lane.scrollWidth} px wide in ${lane.clientWidth}`);
      for (const el of lane.querySelectorAll('.msg')) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && out(r)) bad.push(`${name}: a card at ${px(r)} in ${px(l)}`);
      }
      for (const el of lane.querySelectorAll('*')) {
        if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).textOverflow === 'ellipsis') bad.push(`${name}: "${el.textContent.trim()}" ends in an ellipsis`);
      }
      const texts = document.createTreeWalker(lane, NodeFilter.SHOW_TEXT);
      while (texts.nextNode()) {
        const node = texts.currentNode;
        if (!node.textContent.trim() || node.parentElement.closest('.visually-hidden')) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of range.getClientRects()) {
          if (r.width > 0 && out(r)) {
            bad.push(`${name}: "${node.textContent.trim().slice(0, 40)}" at ${px(r)} in ${px(l)}`);
            break;
          }
        }
      }
    }
    if (document.documentElement.scrollWidth > window.innerWidth) bad.push(`page ${document.documentElement.scrollWidth} px wide`);
    return bad;
  });

test('the sandboxes and every library scenario embedded at 640x400 keep their lanes\' text and cards whole', async ({ context, url, screenshot }) => {
  // Cards glide from place to place: measure where they come to rest.
  const still = (page) => page.emulateMedia({ reducedMotion: 'reduce' });
  const problems = await everyScenario(context, url, { width: 640, height: 400 }, '&embed=1', async (page, id) => {
    if (id === 'sandbox') await screenshot('page-sandbox-embed-640x400', page);
    // A sandbox has no script to step through: it waits for the user.
    return id.startsWith('sandbox') ? cutInLanes(page) : atEveryStep(page, cutInLanes);
  }, still, ['sandbox', 'sandbox-fifo', ...LIBRARY]);
  assert.deepEqual(problems.slice(0, 20), []);
}, { timeout: 240_000 });

test('axe finds nothing in any library scenario after a while of play, in any panel', async ({ context, url }) => {
  const problems = await everyScenario(context, url, { width: 1280, height: 720 }, '', async (page, id) => {
    // Half way through, then a few steps: the log, the ledger and the chart have filled and the
    // story's markers are drawn.
    const end = await scenarioEnd(page);
    await open(page, url, `?scenario=${id}&t=${Math.round(end / 2000)}`);
    for (let i = 0; i < 3; i++) await button(page, 'Step').click();
    await page.waitForTimeout(1600);
    const found = [];
    for (const name of ['Event log', 'Side effects', 'Story', 'Queue depth']) {
      await page.getByRole('tab', { name, exact: true }).click();
      for (const v of await violations(page)) found.push(`(${name}): ${v}`);
    }
    return found;
  });
  assert.deepEqual(problems, []);
}, { timeout: 300_000 });

test('?src= opens a scenario file beside the page; a malformed one and one from a site without CORS are named', async ({ page, url, subUrl }) => {
  const picker = page.getByLabel('Scenario', { exact: true });
  const problem = page.locator('.picker .error');
  await open(page, url, '?src=scenarios/slow-worker.json');
  await eventually(async () =>
    assert.equal(await picker.locator('option:checked').textContent(), 'A worker slower than the visibility timeout'));
  assert.match(await region(page, 'Story line').textContent(), /M is visible again while Worker A still works on it/);
  assert.equal(await problem.count(), 0);
  assert.match(page.url(), /\?src=scenarios\/slow-worker\.json$/, 'the address still names the file');

  // Not JSON: the reader's words, and the sandbox stays.
  await page.route('**/broken.json', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"title": "half' }));
  await open(page, url, '?src=broken.json');
  await eventually(async () =>
    assert.match(await problem.textContent(), /^The scenario file broken\.json cannot be opened: The file is not valid JSON: /));
  assert.equal(await picker.inputValue(), 'sandbox');
  // JSON, but no scenario.
  await page.route('**/notes.json', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"steps": 5}' }));
  await open(page, url, '?src=notes.json');
  await eventually(async () => assert.match(await problem.textContent(), /notes\.json cannot be opened: The file is not a scenario file/));
  // Not there.
  await open(page, url, '?src=missing.json');
  await eventually(async () =>
    assert.match(await problem.textContent(), /^http:\/\/127\.0\.0\.1:\d+\/missing\.json could not be read: the server answered 404/));
  // Another origin that sends no CORS header: the browser keeps the file from the page.
  const elsewhere = subUrl('scenarios/slow-worker.json');
  assert.notEqual(new URL(elsewhere).origin, new URL(url()).origin);
  await open(page, url, `?src=${encodeURIComponent(elsewhere)}`);
  await eventually(async () => assert.match(await problem.textContent(), /slow-worker\.json could not be read: .*\(CORS\)\.$/));
  assert.equal(await picker.inputValue(), 'sandbox');
  await region(page, 'Queue').getByText(/Press Send message/).waitFor();
}, { allowErrors: true });
