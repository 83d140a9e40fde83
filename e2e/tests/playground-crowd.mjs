// A crowd: more messages than can be drawn legibly are shown as counts per state and per
// worker, with a note saying so; the cards come back when the crowd drains.
import { test, assert, eventually } from '../lib/harness.mjs';
import { region, button, messages, openTab } from '../lib/playground.mjs';
import { permalink } from '../lib/permalink.mjs';

const DLQ_ARN = 'arn:aws:sqs:us-east-1:000000000000:orders-dlq';

/** A queue with `waiting` messages, `delayed` more behind a 15-minute delay, `dead` sent straight
 *  to its dead-letter queue (none without `dlq`), and `workers` workers whose jobs take `job`
 *  seconds. */
function crowd({ waiting, delayed = 0, dead = 0, workers, job, dlq = true }) {
  const redrive = { RedrivePolicy: JSON.stringify({ deadLetterTargetArn: DLQ_ARN, maxReceiveCount: '5' }) };
  const steps = [
    ...(dlq ? [{ call: 'CreateQueue', input: { QueueName: 'orders-dlq' } }] : []),
    {
      call: 'CreateQueue',
      input: {
        QueueName: 'orders',
        Attributes: { VisibilityTimeout: String(job * 2), ...(dlq ? redrive : {}) },
      },
    },
    { sim: 'AddProducer', input: { name: 'Now', queue: 'orders', every: 0.001, count: waiting, body: 'order-{n}' } },
  ];
  if (delayed > 0) {
    steps.push({ sim: 'AddProducer', input: { name: 'Later', queue: 'orders', every: 0.001, count: delayed, body: 'later-{n}', delay_seconds: 900 } });
  }
  if (dead > 0) {
    steps.push({ sim: 'AddProducer', input: { name: 'Dead', queue: 'orders-dlq', every: 0.001, count: dead, body: 'dead-{n}' } });
  }
  for (let n = 1; n <= workers; n++) {
    steps.push({
      sim: 'AddWorker',
      input: { name: `Worker ${n}`, policy: { queue: 'orders', wait_time_seconds: 20, processing: { kind: 'Fixed', seconds: job } } },
    });
  }
  steps.push({ advance: 3600 });
  return { id: 'crowd', title: 'A crowd', seed: 3, steps };
}

/** The tiles of the list named `name` in `scope`, as { words: count } (a tile's text is its
 *  badge, if the badge has text, then `count words`). */
async function tiles(scope, name) {
  const texts = await scope.getByRole('list', { name, exact: true }).getByRole('listitem').allTextContents();
  return Object.fromEntries(
    texts.map((t) => {
      const [, n, words] = t.trim().match(/([\d,]+) (.+)$/);
      return [words, Number(n.replace(/,/g, ''))];
    }),
  );
}

test('a crowded stage shows counts per state and per worker, says so, and they add up', async ({ page, url, screenshot }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  // At 10 s everything has arrived and each worker is in the middle of a 1,000 s job.
  await page.goto(url('') + permalink(crowd({ waiting: 300, delayed: 30, dead: 20, workers: 4, job: 1000 }), { playhead: 10_000, speed: 1 }));
  const queue = region(page, 'Queue');
  const note = queue.getByText(/too many to draw one by one/);
  await note.waitFor();
  assert.match(await note.textContent(), /^350 messages: too many to draw one by one, .* The cards come back when 100 or fewer are left\.$/);

  const byState = await tiles(queue, 'Messages by state');
  assert.deepEqual(byState, { delayed: 30, visible: 296, 'in flight': 4, 'in dead-letter queue': 20 });
  assert.equal(Object.values(byState).reduce((a, b) => a + b), 350);
  // The same numbers as the depth chart's legend (the World's own samples).
  await openTab(page, 'Queue depth');
  const legend = await region(page, 'Queue depth').getByRole('listitem').allTextContents();
  assert.deepEqual(legend.map((t) => t.trim()), ['visible 296', 'in flight 4', 'delayed 30', 'dead-letter 20']);
  assert.match(await queue.textContent(), /296 visible · 30 delayed/);

  // Per worker: each lane holds one, and together they hold every message in flight.
  let held = 0;
  for (let n = 1; n <= 4; n++) {
    const lane = await tiles(region(page, `Worker ${n}`), `Messages Worker ${n} holds`);
    assert.deepEqual(lane, { 'in flight': 1 });
    held += lane['in flight'];
  }
  assert.equal(held, byState['in flight']);
  assert.deepEqual(await tiles(region(page, 'Dead-letter queue'), 'Dead-lettered messages'), { 'in dead-letter queue': 20 });
  // Counted, not drawn: no message card anywhere.
  assert.equal(await page.locator('li.msg').count(), 0);
  await screenshot('playground-crowd');
});

test('a crowd without a dead-letter queue has no dead-letter tile', async ({ page, url }) => {
  await page.goto(url('') + permalink(crowd({ waiting: 150, workers: 2, job: 1000, dlq: false }), { playhead: 10_000, speed: 1 }));
  const queue = region(page, 'Queue');
  await queue.getByText(/^150 messages: too many to draw/).waitFor();
  assert.deepEqual(await tiles(queue, 'Messages by state'), { delayed: 0, visible: 148, 'in flight': 2 });
  // A queue without one says so under Settings, where a RedrivePolicy is set.
  await openTab(page, 'Settings');
  assert.match(await region(page, 'Dead-letter queue').textContent(), /no dead-letter queue/);
});

test('the cards come back when the crowd drains to the limit', async ({ page, url }) => {
  // 105 messages and 10 workers taking 1 s each: at 0.5 s it is a crowd, a second later not.
  await page.goto(url('') + permalink(crowd({ waiting: 105, workers: 10, job: 1 }), { playhead: 500, speed: 1 }));
  const queue = region(page, 'Queue');
  await queue.getByText(/^105 messages: too many to draw/).waitFor();
  assert.deepEqual(await messages(queue), []);

  await button(page, 'Play').click();
  await eventually(async () => {
    assert.equal(await queue.getByText(/too many to draw/).count(), 0);
    assert.ok((await messages(queue)).length > 75, 'the queue draws its cards again');
  }, { timeout: 10_000 });
  await button(page, 'Pause').click();
  const lane = await messages(region(page, 'Worker 1'));
  assert.ok(lane.some((m) => /^order-\d+, in flight/.test(m)), JSON.stringify(lane));
});
