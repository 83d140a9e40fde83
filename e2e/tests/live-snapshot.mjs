// The live view of a server of any age (issue 32): after more than 200,000 calls (the project's
// load tool, 50 clients), a page that connects is sent the server's latest snapshot and the calls
// after it, not every call since the start; it shows the queue as the server holds it and follows
// the calls that come next. "Save as scenario" saves the snapshot with the calls, and the file
// opens in the ordinary playground. A restart on the data directory starts the page's copy from
// the state recovered, not from an empty one. Prints the bytes a page is sent when it connects,
// the time to the live view's first paint and the server's memory.
//
// 200,000 calls take ~20 s on a release server and ~6 min on a debug one: ./check e2e runs the
// live tests against a release build (SQS_SIM=target/release/sqs-sim).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test, assert } from '../lib/harness.mjs';
import { button, importInto, region, saveAndImport, waitForMessage, waitForText } from '../lib/playground.mjs';
import { client, loadCalls, startSqsSim } from '../lib/sqs-sim.mjs';

/** More calls than the live view used to record in one run (`MAX_STEPS`, gone). */
const CALLS = 200_001;
/** The fewest calls the server keeps after its latest snapshot (server/src/journal.rs). */
const KEPT = 10_000;

/**
 * Connects to the live stream as a page does and reads it until it has caught up (its first
 * `clock` event: the server sends one once no step is left to send); the bytes read and the
 * hello's data.
 */
async function connect(url) {
  const controller = new AbortController();
  const response = await fetch(`${url}/_sqs-sim/events`, { signal: controller.signal });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let [bytes, text] = [0, ''];
  while (!text.includes('event: clock')) {
    const { value, done } = await reader.read();
    if (done) break;
    bytes += value.length;
    text += decoder.decode(value, { stream: true });
  }
  controller.abort();
  const hello = /event: hello\nid: [^\n]*\ndata: ([^\n]*)/.exec(text);
  assert.ok(hello, `no hello in ${text.slice(0, 200)}`);
  return { bytes, hello: JSON.parse(hello[1]) };
}

/** The server process's resident memory, in MB (Linux). */
async function residentMb(pid) {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

/** The stage's queue and its messages' states as the server lists them. */
async function listed(url, queue) {
  const answer = await (await fetch(`${url}/_sqs-sim/queues/${queue}/messages`)).json();
  return answer.messages.map((m) => `${m.Body} ${m.state}`);
}

test('after more than 200,000 calls a page starts from the latest snapshot, follows the next calls, saves them, and survives a restart', async ({ page, context, url, screenshot }) => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sqs-sim-live-'));
  let server = await startSqsSim({ args: ['--data-dir', dir, '--log-level', 'warn'] });
  try {
    const loading = Date.now();
    const calls = await loadCalls(server.url, CALLS);
    const loadSeconds = (Date.now() - loading) / 1000;
    // As many calls again as the server keeps after its snapshot, none a receive: the page's
    // snapshot comes after the load's consumers, whose lanes would put the load's queue on the
    // stage.
    const shop = client(server.url, 'shop');
    for (let i = 0; i < KEPT; i += 50) {
      await Promise.all(Array.from({ length: 50 }, () => shop('ListQueuesCommand', {})));
    }

    // The state the page must show: a queue with a dead-letter queue (the stage shows it),
    // three messages, the first of them received by billing-1.
    const dlq = await shop('CreateQueueCommand', { QueueName: 'orders-dlq' });
    const arn = (await shop('GetQueueAttributesCommand', { QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] })).Attributes.QueueArn;
    const redrive = JSON.stringify({ deadLetterTargetArn: arn, maxReceiveCount: 5 });
    const { QueueUrl } = await shop('CreateQueueCommand', { QueueName: 'orders', Attributes: { VisibilityTimeout: '600', RedrivePolicy: redrive } });
    for (const body of ['order-1', 'order-2', 'order-3']) await shop('SendMessageCommand', { QueueUrl, MessageBody: body });
    const billing = client(server.url, 'billing-1');
    const first = await billing('ReceiveMessageCommand', { QueueUrl, MaxNumberOfMessages: 1 });
    assert.equal(first.Messages[0].Body, 'order-1');

    const { bytes, hello } = await connect(server.url);
    assert.ok(hello.start?.version, 'the hello carries the snapshot');
    assert.ok(hello.from > calls, `the snapshot holds all but the last calls (from ${hello.from})`);
    assert.ok(bytes < 4_000_000, `${bytes} bytes: the snapshot and the calls after it, not ${calls} calls`);
    const memory = await residentMb(server.pid);

    await page.setViewportSize({ width: 1280, height: 720 });
    const opening = Date.now();
    await page.goto(`${server.url}/`);
    const queue = region(page, 'Queue');
    await waitForMessage(queue, /^order-3, visible/, 60_000);
    const firstPaint = Date.now() - opening;
    await waitForMessage(queue, /^order-2, visible/);
    // In flight: on billing-1's lane, or held by no lane if its receive is in the snapshot.
    await waitForMessage(page, /^order-1, in flight/);
    assert.deepEqual(await listed(server.url, 'orders'), ['order-1 in_flight', 'order-2 visible', 'order-3 visible']);
    // The story line says after how many calls the snapshot was taken: the counters start there.
    await waitForText(region(page, 'Story line'), new RegExp(`after ${hello.from.toLocaleString('en-US')} calls`));
    // Every counter shows whole: with thousands of calls the line wraps rather than cut the cost.
    const cut = await page.locator('.counters .tile').evaluateAll((tiles) => {
      const line = tiles[0].parentElement.getBoundingClientRect();
      return tiles.filter((tile) => tile.getBoundingClientRect().right > line.right + 0.5).map((tile) => tile.textContent);
    });
    assert.deepEqual(cut, [], 'counters cut off at the right edge of their line');
    await screenshot('live-snapshot-1280-after-200000-calls');

    // It follows what comes next: billing-1 receives order-2 (its lane appears), shop sends order-4.
    await billing('ReceiveMessageCommand', { QueueUrl, MaxNumberOfMessages: 1 });
    await waitForMessage(region(page, 'billing-1'), /^order-2, in flight/);
    await shop('SendMessageCommand', { QueueUrl, MessageBody: 'order-4' });
    await waitForMessage(queue, /^order-4, visible/);
    await waitForText(region(page, 'Event log'), /shop called SendMessage: order-4 stored in orders/);

    // Save as scenario: the snapshot the page started from and the calls since, which the
    // playground of the server's own page opens to the same queue.
    const onServer = (query) => `${server.url}/${query}`;
    const { saved, file, replay } = await saveAndImport(page, context, onServer);
    assert.equal(saved.start.version, hello.start.version, 'the file carries the state it starts from');
    assert.ok(saved.steps.some((s) => s.sim === 'Call' && s.input.by === 'billing-1'), 'and the calls since');
    const replayed = region(replay, 'Queue');
    await waitForMessage(replayed, /^order-4, visible/);
    await waitForMessage(replayed, /^order-3, visible/);
    await waitForMessage(region(replay, 'billing-1'), /^order-2, in flight/);
    await screenshot('live-snapshot-saved-scenario-replayed', replay);
    await replay.close();
    // The player (dist/, a static host's) does not read a server's state: it names the file and
    // says where it opens.
    const player = await importInto(context, url, file);
    await waitForText(player.locator('.share .status'),
      new RegExp(`^${path.basename(file)} cannot be opened: .*saved state: open it on the page sqs-sim serve serves`));
    await screenshot('live-snapshot-saved-scenario-in-the-player', player);
    await player.close();

    // A restart on the data directory: the page's copy starts from the state recovered.
    await server.stop();
    server = await startSqsSim({ port: server.port, args: ['--data-dir', dir, '--log-level', 'warn'] });
    await button(page, 'Save previous run').waitFor({ timeout: 15_000 });
    await waitForMessage(queue, /^order-4, visible/);
    await waitForMessage(queue, /^order-3, visible/);
    await waitForMessage(page, /^order-2, in flight/);
    const again = client(server.url, 'shop');
    await again('SendMessageCommand', { QueueUrl, MessageBody: 'order-5' });
    await waitForMessage(queue, /^order-5, visible/);
    await screenshot('live-snapshot-1280-after-a-restart');

    console.log(
      `live-snapshot: calls=${calls} load_seconds=${loadSeconds.toFixed(1)} connect_bytes=${bytes} ` +
        `snapshot_from=${hello.from} first_paint_ms=${firstPaint} server_rss_mb=${memory.toFixed(1)}`,
    );
  } finally {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}, { timeout: 1_200_000, allowErrors: true });
