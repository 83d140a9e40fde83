// Share and embed, as a documentation author and a teacher use them: a copied link reopens the
// exact moment; the player embedded on another origin tells its host page what happens and
// takes its commands; a damaged link opens the defaults and says why.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, assert, eventually } from '../lib/harness.mjs';
import { startServer } from '../lib/server.mjs';
import { open, region, button, messages, clock } from '../lib/playground.mjs';
import { reopenShared } from '../lib/permalink.mjs';

/** What a viewer sees of the moment: the clock, the queue, the lanes, the DLQ. */
async function moment(page) {
  return {
    clock: await clock(page),
    queue: await messages(region(page, 'Queue')),
    dlq: await messages(region(page, 'Dead-letter queue')),
    lanes: await page.locator('section[aria-label^="Worker "]').evaluateAll((ls) =>
      ls.map((l) => [l.getAttribute('aria-label'), l.querySelector('.lane-status')?.textContent ?? '',
        [...l.querySelectorAll('.msg')].map((m) => m.getAttribute('aria-label'))]),
    ),
  };
}

test('a link copied after the user broke things reopens that exact moment', async ({ page, url, screenshot }) => {
  await open(page, url, '?scenario=crash-before-delete');
  for (let i = 0; i < 3; i++) await button(page, 'Step').click();
  await button(region(page, 'Worker B'), 'Kill').click();
  for (let i = 0; i < 3; i++) await button(page, 'Step').click();
  const before = await moment(page);
  const again = await reopenShared(page);
  await eventually(async () => assert.deepEqual(await moment(again), before));
  await screenshot('permalink-reopened');
});

test('a damaged link opens the defaults and names the problem', async ({ page, url }) => {
  await page.goto(url('#s=1.@@not-a-link'));
  await region(page, 'Queue').waitFor();
  const alert = page.getByRole('alert');
  await eventually(async () => assert.match(await alert.first().textContent(), /link is damaged/i));
});

test('the embedded player talks to its host page on another origin', async ({ page, url, screenshot }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'host-'));
  const player = url('?scenario=crash-before-delete&embed=1&speed=20');
  fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><title>Docs page</title><link rel="icon" href="data:,">
    <h1>Visibility timeout</h1>
    <iframe id="player" src="${player}" width="960" height="600"></iframe>
    <script>
      window.received = [];
      addEventListener('message', (e) => window.received.push(e.data));
    </script>`);
  const host = await startServer({ dir });
  try {
    await page.goto(host.url);
    assert.notEqual(new URL(host.url).port, new URL(player).port, 'the host must be another origin');
    await eventually(async () => {
      const got = await page.evaluate(() => window.received.map((m) => m.type));
      assert.ok(got.includes('sqs-playground:ready'), JSON.stringify(got));
    }, { timeout: 15000 });
    const frame = page.frameLocator('#player');
    assert.equal(await frame.getByRole('button', { name: 'Add worker', exact: true }).count(), 0, 'embed shows editing panels');
    await page.evaluate(() => document.getElementById('player').contentWindow.postMessage(
      { type: 'sqs-playground:command', command: 'play' }, '*'));
    await eventually(async () => {
      const kinds = await page.evaluate(() => window.received
        .filter((m) => m.type === 'sqs-playground:event').map((m) => m.event.engine?.event));
      assert.ok(kinds.includes('Received'), JSON.stringify(kinds));
    }, { timeout: 20000 });
    const first = await page.evaluate(() => window.received.find((m) => m.type === 'sqs-playground:event'));
    assert.equal(first.version, 1);
    assert.equal(typeof first.event.text, 'string');
    // Its empty queue does not point at a Send message button it does not have.
    await eventually(async () => assert.match(await frame.locator('.queue .empty').textContent(), /^No message waiting/));
    assert.doesNotMatch(await frame.locator('.queue .empty').textContent(), /Send message|Producer/);
    await screenshot('embedded-player');
  } finally {
    await host.close();
  }
}, { timeout: 60000 });
