// The live view (issue 25): `sqs-sim serve` serves the playground at its root, which follows
// the server: real clients (the Node SDK, and workers in processes of their own) call it, and
// the page shows their queue, each consumer's lane with what it holds counting down, and every
// call in the event log. "Save as scenario" writes what it recorded, which the ordinary
// playground replays to the same event log; a server that goes away is said, its history kept.
import { test, assert, eventually } from '../lib/harness.mjs';
import { violations } from '../lib/axe.mjs';
import { button, region, saveAndImport, waitForMessage, waitForText, openTab } from '../lib/playground.mjs';
import { client, runWorker, startSqsSim } from '../lib/sqs-sim.mjs';

const badge = (page) => page.locator('.live-badge');

/** Opens `server`'s live view in `page` at 1280x720, once its badge says it follows. */
async function follow(page, server) {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${server.url}/`);
  await waitForText(badge(page), /Live ·/);
}

/** The event log's lines, as shown: time, action and words. */
const logLines = (page) =>
  region(page, 'Event log')
    .getByRole('listitem')
    .evaluateAll((items) => items.map((i) => i.textContent.trim()));

test('a consumer that crashes: its lane holds the message, it comes back, the next takes it; Save as scenario replays it; a client can be renamed', async ({ page, context, url, screenshot }) => {
  const server = await startSqsSim();
  try {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${server.url}/`);
    assert.match(page.url(), /\?live=1$/, 'the server opens the live view at its root');
    await waitForText(badge(page), new RegExp(`Live · 127\\.0\\.0\\.1:${server.port}`));

    const shop = client(server.url, 'shop');
    const { QueueUrl } = await shop('CreateQueueCommand', { QueueName: 'orders', Attributes: { VisibilityTimeout: '6' } });
    await shop('SendMessageCommand', { QueueUrl, MessageBody: 'order-7' });
    await waitForMessage(region(page, 'Queue'), /^order-7, visible/);

    // billing-1 receives, then its process dies before DeleteMessage.
    const first = await runWorker(server.url, 'billing-1', QueueUrl, 'crash');
    assert.deepEqual(first, { body: 'order-7', receiveCount: 1, deleted: false });
    const lane1 = region(page, 'billing-1');
    await waitForMessage(lane1, /^order-7, in flight, \d+ s left, receive count 1$/);
    const ring = lane1.locator('.msg .ring');
    assert.equal(await ring.count(), 1, 'the in-flight card draws its countdown ring');
    await screenshot('live-1280-held-by-the-first-consumer');

    // Its visibility timeout runs out: the message is visible in the queue again.
    await waitForMessage(region(page, 'Queue'), /^order-7, visible/, 12_000);
    await screenshot('live-1280-back-in-the-queue');

    // billing-2 receives it again (receive count 2), works 3 s, deletes it.
    const second = runWorker(server.url, 'billing-2', QueueUrl, 'delete', 3000);
    second.catch(() => {}); // awaited below; a failure before then must not go unhandled
    await waitForMessage(region(page, 'billing-2'), /^order-7, in flight, \d+ s left, receive count 2$/);
    await screenshot('live-1280-taken-by-the-second-consumer');
    assert.deepEqual(await violations(page), [], 'axe: the live view with a stale copy and a held message');
    assert.deepEqual(await second, { body: 'order-7', receiveCount: 2, deleted: true });

    const log = region(page, 'Event log');
    await waitForText(log, /billing-2 called DeleteMessage/);
    const text = await log.textContent();
    for (const line of [
      /shop called CreateQueue: queue orders created/,
      /shop called SendMessage: order-7 stored in orders/,
      /billing-1 called ReceiveMessage: got order-7 \(receive count 1\)/,
      /Visibility timeout of order-7 ran out: it is visible again/,
      /billing-2 called ReceiveMessage: got order-7 \(receive count 2\)/,
    ]) {
      assert.match(text, line);
    }
    await screenshot('live-1280-after-the-delete');
    for (const [width, height] of [[800, 500], [390, 844]]) {
      await page.setViewportSize({ width, height });
      await screenshot(`live-${width}x${height}`);
    }
    await page.setViewportSize({ width: 1280, height: 720 });
    const lines = await logLines(page);

    // Save as scenario, and open the file in the ordinary playground (a static host).
    const { saved, replay } = await saveAndImport(page, context, url);
    assert.ok(saved.steps.some((s) => s.sim === 'Call' && s.input.by === 'billing-1'), 'the recorded calls are its steps');
    // The file is read and opened after the input's change: a tab clicked before then can be
    // missed when the page redraws under the pointer (the Story tab took the click).
    const replayed = region(replay, 'billing-1');
    await replayed.waitFor();
    await openTab(replay, 'Event log');
    await eventually(async () => assert.deepEqual(await logLines(replay), lines), { timeout: 8000 });
    await screenshot('live-saved-scenario-replayed', replay);
    assert.equal(await button(replayed, 'Kill').count(), 0, "a recorded client's lane is its own process: no Kill");

    // A client's name can be edited: its lane and its lines in the event log show the new one.
    const lane2 = region(page, 'billing-2');
    await lane2.getByText('Rename').click();
    await lane2.getByLabel('Name shown').fill('Billing worker B');
    await lane2.getByLabel('Name shown').press('Enter');
    await region(page, 'Billing worker B').waitFor();
    await waitForText(region(page, 'Event log'), /Billing worker B called DeleteMessage: order-7 deleted/);
    assert.doesNotMatch(await region(page, 'Event log').textContent(), /billing-2 called/);
  } finally {
    await server.stop();
  }
}, { timeout: 90_000 });

test('the page says when the server is gone, keeps what it recorded, and reconnects when it is back', async ({ page, screenshot }) => {
  let server = await startSqsSim();
  try {
    await follow(page, server);
    const shop = client(server.url, 'shop');
    const { QueueUrl } = await shop('CreateQueueCommand', { QueueName: 'orders' });
    await shop('SendMessageCommand', { QueueUrl, MessageBody: 'order-1' });
    await waitForMessage(region(page, 'Queue'), /^order-1, visible/);
    const before = await logLines(page);

    await server.stop();
    await waitForText(badge(page), /Server gone · 127\.0\.0\.1:\d+ · reconnecting/);
    await page.waitForTimeout(1500);
    assert.deepEqual(await logLines(page), before, 'the event log keeps its history');
    await waitForMessage(region(page, 'Queue'), /^order-1, visible/);
    await screenshot('live-1280-server-gone');
    assert.deepEqual(await violations(page), [], 'axe: the live view with its server gone');

    // The same port again: the page reconnects by itself and follows the new run.
    server = await startSqsSim({ port: server.port });
    await waitForText(badge(page), /Live · 127\.0\.0\.1:\d+/, 10_000);
    await button(page, 'Save previous run').waitFor();
    const again = client(server.url, 'shop');
    const created = await again('CreateQueueCommand', { QueueName: 'orders' });
    await again('SendMessageCommand', { QueueUrl: created.QueueUrl, MessageBody: 'order-2' });
    await waitForMessage(region(page, 'Queue'), /^order-2, visible/);

    // Hands on: the page's own Send message and Pause are requests to the server, and what they
    // change comes back through its stream.
    await page.getByLabel('Message body').fill('from-the-page');
    await button(page, 'Send message').click();
    await waitForMessage(region(page, 'Queue'), /^from-the-page, visible/);
    await waitForText(region(page, 'Event log'), /You called SendMessage: from-the-page stored in orders/);
    await button(page, 'Pause').click();
    await waitForText(badge(page), /clock paused/);
    const state = await (await fetch(`${server.url}/_sqs-sim/state`)).json();
    assert.equal(state.paused, true);
    await button(page, 'Play').click();
    await eventually(async () => assert.doesNotMatch(await badge(page).textContent(), /paused/));
  } finally {
    await server.stop();
  }
}, { timeout: 60_000, allowErrors: true });

test('an application signed for another region than the server\'s: the page shows its queue and what its consumer holds, and sends there', async ({ page, screenshot }) => {
  const server = await startSqsSim();
  try {
    await follow(page, server);
    // The server's region is us-east-1; the application's SDK is set to eu-west-1, so its queue
    // is there, as on AWS (ListQueues in us-east-1 does not list it).
    const shop = client(server.url, 'shop', 'eu-west-1');
    const { QueueUrl } = await shop('CreateQueueCommand', { QueueName: 'orders' });
    for (const body of ['order-1', 'order-2']) await shop('SendMessageCommand', { QueueUrl, MessageBody: body });
    const home = await client(server.url, 'shop')('ListQueuesCommand', {});
    assert.equal(home.QueueUrls, undefined, 'no queue in the server\'s own region');
    const queue = region(page, 'Queue');
    await waitForMessage(queue, /^order-2, visible/);
    // The badge says where the stage looks, which is not the server's own region.
    await waitForText(badge(page), /^Live · 127\.0\.0\.1:\d+ · queues in eu-west-1$/);

    const billing = client(server.url, 'billing-1', 'eu-west-1');
    const received = await billing('ReceiveMessageCommand', { QueueUrl, MaxNumberOfMessages: 1 });
    assert.equal(received.Messages[0].Body, 'order-1');
    await waitForMessage(region(page, 'billing-1'), /^order-1, in flight, \d+ s left/);
    await screenshot('live-1280-a-client-in-another-region');

    // The page's own Send message reaches the queue it shows.
    await page.getByLabel('Message body').fill('from-the-page');
    await button(page, 'Send message').click();
    await waitForMessage(queue, /^from-the-page, visible/);
    const { Attributes } = await shop('GetQueueAttributesCommand', { QueueUrl, AttributeNames: ['ApproximateNumberOfMessages'] });
    assert.equal(Attributes.ApproximateNumberOfMessages, '2', 'order-2 and from-the-page, in eu-west-1');
    // Closed before the server stops: its stream cut short is not what this test is about.
    await page.close();
  } finally {
    await server.stop();
  }
}, { timeout: 60_000 });

test('the player (dist/, what static hosts ship) says where the live view is and opens the sandbox', async ({ page, url }) => {
  await page.goto(url('?live=1'));
  const problem = page.locator('.picker .error');
  await waitForText(problem, /This player does not follow a server: the live view is the page sqs-sim serve serves/);
  assert.equal(await badge(page).count(), 0, 'no live badge');
  assert.equal(await page.getByLabel('Scenario', { exact: true }).inputValue(), 'sandbox');
  await button(page, 'Send message').waitFor();
});
