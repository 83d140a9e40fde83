// A worker of its own for the live view's tests, as a user's process would be:
//
//   node e2e/lib/sqs-worker.mjs ENDPOINT ACCESS_KEY_ID QUEUE_URL delete|crash [WORK_MS]
//
// Long-polls one message (ReceiveMessage, WaitTimeSeconds 10, with its ApproximateReceiveCount),
// works on it for WORK_MS (default 0), then deletes it, or exits without DeleteMessage, as a
// process that crashed mid-job (its message comes back after the visibility timeout). Prints
// {"body", "receiveCount", "deleted"} as one JSON line.
import * as SQS from '@aws-sdk/client-sqs';

const [endpoint, key, queueUrl, then, work = '0'] = process.argv.slice(2);
const sqs = new SQS.SQSClient({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: key, secretAccessKey: 'any' },
  maxAttempts: 1,
});
const got = await sqs.send(
  new SQS.ReceiveMessageCommand({
    QueueUrl: queueUrl,
    WaitTimeSeconds: 10,
    MessageSystemAttributeNames: ['ApproximateReceiveCount'],
  }),
);
const message = got.Messages?.[0];
await new Promise((done) => setTimeout(done, Number(work)));
if (message && then === 'delete') {
  await sqs.send(new SQS.DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }));
}
console.log(
  JSON.stringify({
    body: message?.Body ?? null,
    receiveCount: Number(message?.Attributes?.ApproximateReceiveCount ?? 0),
    deleted: Boolean(message && then === 'delete'),
  }),
);
// A crash: gone without a word to SQS.
process.exit(then === 'crash' ? 1 : 0);
