// Permalinks with an inline scenario, as the Share panel makes them: a fragment `#s=1.…` holding
// the session (scenario, the user's actions, playhead, speed) as raw DEFLATE + base64url JSON.
import zlib from 'node:zlib';
import { assert, eventually } from './harness.mjs';

/** The fragment that opens `scenario` at `playhead` (virtual ms), paused, at `speed`. */
export function permalink(scenario, { playhead = 0, speed = 1000 } = {}) {
  const session = { scenario, actions: [], playhead, speed };
  const packed = zlib.deflateRawSync(Buffer.from(JSON.stringify(session)), { level: 9 });
  return `#s=1.${packed.toString('base64url')}`;
}

/** Presses Share → Copy link and returns the link it made (the clipboard may be refused). */
export async function copyLink(page) {
  await page.getByRole('tab', { name: 'Share', exact: true }).click();
  const share = page.getByRole('region', { name: 'Share', exact: true });
  const field = share.getByLabel('Link to this moment');
  const before = (await field.count()) ? await field.inputValue() : '';
  await share.getByRole('button', { name: 'Copy link', exact: true }).click();
  return eventually(async () => {
    const link = await field.inputValue();
    assert.notEqual(link, before, 'no new link yet');
    return link;
  });
}

/** What a shared moment shows, as text: the clock, every line of the event log, the counters,
 *  the chart's lines and the text of each region of the stage (queue, lanes, dead-letter queue). */
export async function moment(page) {
  return page.evaluate(() => {
    const named = (name) => document.querySelector(`section[aria-label="${name}"]`);
    const text = (el) => (el ? el.textContent.replace(/\s+/g, ' ').trim() : null);
    const stage = [...document.querySelectorAll('main.stage section[aria-label]'), named('Dead-letter queue')]
      .filter(Boolean)
      .map((s) => `${s.getAttribute('aria-label')}: ${text(s)}`);
    return {
      clock: text(document.querySelector('.clock-wall')),
      log: [...named('Event log').querySelectorAll('li')].map(text),
      counters: text(named('Counters')),
      chart: [...named('Queue depth').querySelectorAll('polyline')].map((p) => p.getAttribute('points')),
      stage: [...new Set(stage)],
      messages: [...document.querySelectorAll('.msg')].map((m) => m.getAttribute('aria-label')),
    };
  });
}

/** Opens the Share panel's "Link to this moment" (shown by Embed code) in a new page of the same
 *  context, once its stage is drawn, and returns that page. */
export async function reopenShared(page) {
  await page.getByRole('tab', { name: 'Share', exact: true }).click();
  const share = page.getByRole('region', { name: 'Share', exact: true });
  await share.getByRole('button', { name: 'Embed code', exact: true }).click();
  const link = await share.getByLabel('Link to this moment').inputValue();
  assert.match(link, /#s=1\./);
  const again = await page.context().newPage();
  await again.goto(link);
  await again.getByRole('region', { name: 'Queue', exact: true }).waitFor();
  return again;
}
