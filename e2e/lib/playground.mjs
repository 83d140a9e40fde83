// Helpers for the playground's end-to-end tests: find things by their accessible names (as
// teachers' scripts and embedding pages do), drag with real pointer events, drive the clock.
import { readFile } from 'node:fs/promises';
import { assert, eventually } from './harness.mjs';

/** Opens the playground with a query (e.g. '?scenario=sandbox') and waits for the stage. */
export async function open(page, url, query = '') {
  await page.goto(url(query));
  await region(page, 'Queue').waitFor();
}

/** The region (section with aria-label) named exactly `name`. */
export const region = (scope, name) => scope.getByRole('region', { name, exact: true });

/** Opens the panel under the tab named `name` (Event log, Story, Queue depth, Side effects,
 * Settings, Producer, Share): the panels below the stage are a tab list, one shown at a time. */
export const openTab = (page, name) => page.getByRole('tab', { name, exact: true }).click();

/** The button named exactly `name`. */
export const button = (scope, name) => scope.getByRole('button', { name, exact: true });

/** The message items of a region, by accessible name. */
export async function messages(scope) {
  return scope.getByRole('listitem').evaluateAll((items) =>
    items.filter((i) => i.classList.contains('msg')).map((i) => i.getAttribute('aria-label')),
  );
}

/** Waits until some message in `scope` has a name matching `pattern`; returns its name. */
export async function waitForMessage(scope, pattern, timeout = 8000) {
  return eventually(
    async () => {
      const names = await messages(scope);
      const hit = names.find((n) => pattern.test(n));
      assert.ok(hit, `no message matching ${pattern} in ${JSON.stringify(names)}`);
      return hit;
    },
    { timeout },
  );
}

/** Waits until the text of `scope` matches `pattern` (the event log and the counters refresh a
 * few times a second while playing, not every frame); returns the text. */
export async function waitForText(scope, pattern, timeout = 8000) {
  return eventually(
    async () => {
      const text = await scope.textContent();
      assert.match(text, pattern);
      return text;
    },
    { timeout },
  );
}

/**
 * The live view's "Save as scenario" on `page`, and the file imported into the playground at
 * `url` (the test's: the player; or the server's page) in a new page of `context`; resolves to
 * the file's JSON, its path and that page.
 */
export async function saveAndImport(page, context, url) {
  const [download] = await Promise.all([page.waitForEvent('download'), button(page, 'Save as scenario').click()]);
  const file = await download.path();
  const saved = JSON.parse(await readFile(file, 'utf8'));
  return { saved, file, replay: await importInto(context, url, file) };
}

/** A new page of `context` on the playground at `url`, with `file` given to Share → Import scenario file. */
export async function importInto(context, url, file) {
  const replay = await context.newPage();
  await replay.setViewportSize({ width: 1280, height: 720 });
  await replay.goto(url('?scenario=sandbox'));
  await openTab(replay, 'Share');
  await replay.getByLabel('Import scenario file').setInputFiles(file);
  return replay;
}

/** Presses Send message `n` times (in the sandbox: order-1, order-2, ...). */
export async function send(page, n = 1) {
  for (let i = 0; i < n; i++) await button(page, 'Send message').click();
}

/** Drags `source` onto `target` with pointer events (mouse down, gradual moves, up). */
export async function drag(page, source, target) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await target.scrollIntoViewIfNeeded();
  await source.scrollIntoViewIfNeeded();
  await dragInView(page, source, target);
}

/** The same drag where `source` and `target` are, without scrolling anything into view. */
export async function dragInView(page, source, target) {
  const a = await source.boundingBox();
  const b = await target.boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 3, { steps: 12 });
  await page.mouse.up();
}

/** The clock's wall-time text (12:00:30). */
export const clock = (page) => page.locator('.clock-wall').textContent();

/** The value of the counter whose full label is `label` (e.g. "Dead-lettered"): narrow pages
 * show a short label beside the full one, which stays for screen readers. */
export const counter = (page, label) =>
  region(page, 'Counters').locator('.tile').filter({ has: page.locator('.long', { hasText: label }) }).locator('dd').textContent();
