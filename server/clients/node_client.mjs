// @aws-sdk/client-sqs (v3, which checks every message's MD5) against `sqs-sim serve`: queues of
// each kind, messages with attributes, batches with a failed entry, ChangeMessageVisibility, long
// polls, a DLQ move, a move task, typed errors, and the clock API making a visibility timeout
// pass without sleeping.
//
//   node server/clients/node_client.mjs ENDPOINT   (a freshly started server, account 000000000000)
//
// One line per test, then `N passed, N failed`; exits 1 if any failed.
import assert from "node:assert/strict";
import * as SQS from "@aws-sdk/client-sqs";

const endpoint = process.argv[2];
const sqs = new SQS.SQSClient({
  endpoint,
  region: "us-east-1",
  credentials: { accessKeyId: "any", secretAccessKey: "any" },
  maxAttempts: 1,
});
const call = (Command, input) => sqs.send(new Command(input));
const clock = async (change) => {
  const response = await fetch(`${endpoint}/_sqs-sim/clock`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(change) });
  assert.equal(response.status, 200);
  return response.json();
};
const urlOf = async (QueueName) => (await call(SQS.GetQueueUrlCommand, { QueueName })).QueueUrl;
const rejects = async (promise, check) => {
  try {
    await promise;
  } catch (error) {
    check(error);
    return;
  }
  assert.fail("no error");
};

const tests = {
  async queuesOfEachKind() {
    const standard = (await call(SQS.CreateQueueCommand, { QueueName: "node" })).QueueUrl;
    assert.equal(standard, `${endpoint}/000000000000/node`);
    await call(SQS.CreateQueueCommand, { QueueName: "node.fifo", Attributes: { FifoQueue: "true" } });
    const dlq = (await call(SQS.CreateQueueCommand, { QueueName: "node-dlq" })).QueueUrl;
    const { Attributes } = await call(SQS.GetQueueAttributesCommand, { QueueUrl: dlq, AttributeNames: ["QueueArn"] });
    const RedrivePolicy = JSON.stringify({ deadLetterTargetArn: Attributes.QueueArn, maxReceiveCount: 1 });
    const source = (await call(SQS.CreateQueueCommand, { QueueName: "node-src", Attributes: { RedrivePolicy } })).QueueUrl;
    const { QueueUrls } = await call(SQS.ListQueuesCommand, { QueueNamePrefix: "node" });
    assert.equal(QueueUrls.length, 4);
    assert.deepEqual((await call(SQS.ListDeadLetterSourceQueuesCommand, { QueueUrl: dlq })).queueUrls, [source]);
  },

  async messagesWithAttributesAndCheckedDigests() {
    const QueueUrl = await urlOf("node");
    const MessageAttributes = {
      s: { DataType: "String", StringValue: "ünïcode 🌍" },
      n: { DataType: "Number", StringValue: "-1.5" },
      b: { DataType: "Binary", BinaryValue: new Uint8Array([0, 255, 7]) },
    };
    const sent = await call(SQS.SendMessageCommand, { QueueUrl, MessageBody: "body\r\n🌍", MessageAttributes });
    assert.ok(sent.MD5OfMessageAttributes);
    const { Messages } = await call(SQS.ReceiveMessageCommand, { QueueUrl, MessageAttributeNames: ["All"] });
    assert.equal(Messages[0].Body, "body\r\n🌍");
    assert.deepEqual([...Messages[0].MessageAttributes.b.BinaryValue], [0, 255, 7]);
    await call(SQS.ChangeMessageVisibilityCommand, { QueueUrl, ReceiptHandle: Messages[0].ReceiptHandle, VisibilityTimeout: 5 });
    await call(SQS.DeleteMessageCommand, { QueueUrl, ReceiptHandle: Messages[0].ReceiptHandle });
  },

  async fifoBatchesAndAFailedEntry() {
    const QueueUrl = await urlOf("node.fifo");
    const Entries = ["a", "b", "c"].map((Id, i) => ({ Id, MessageBody: `m${i}`, MessageGroupId: "g", MessageDeduplicationId: Id }));
    const sent = await call(SQS.SendMessageBatchCommand, { QueueUrl, Entries });
    assert.equal(sent.Successful.length, 3);
    const { Messages } = await call(SQS.ReceiveMessageCommand, { QueueUrl, MaxNumberOfMessages: 10 });
    assert.deepEqual(Messages.map((m) => m.Body), ["m0", "m1", "m2"]);
    const changed = await call(SQS.ChangeMessageVisibilityBatchCommand, {
      QueueUrl,
      Entries: [{ Id: "x", ReceiptHandle: Messages[0].ReceiptHandle, VisibilityTimeout: 60 }],
    });
    assert.deepEqual(changed.Successful.map((e) => e.Id), ["x"]);
    const deleted = await call(SQS.DeleteMessageBatchCommand, {
      QueueUrl,
      Entries: [...Messages.map((m, i) => ({ Id: `d${i}`, ReceiptHandle: m.ReceiptHandle })), { Id: "bad", ReceiptHandle: "garbage" }],
    });
    assert.equal(deleted.Successful.length, 3);
    assert.equal(deleted.Failed[0].Code, "ReceiptHandleIsInvalid");
    await rejects(
      call(SQS.SendMessageBatchCommand, { QueueUrl, Entries: [Entries[0], Entries[0]] }),
      (e) => assert.ok(e instanceof SQS.BatchEntryIdsNotDistinct, e.name),
    );
  },

  async typedErrors() {
    await rejects(urlOf("nope"), (e) => assert.ok(e instanceof SQS.QueueDoesNotExist, e.name));
    const QueueUrl = await urlOf("node");
    await rejects(call(SQS.DeleteMessageCommand, { QueueUrl, ReceiptHandle: "garbage" }), (e) =>
      assert.ok(e instanceof SQS.ReceiptHandleIsInvalid, e.name),
    );
    await rejects(call(SQS.SendMessageBatchCommand, { QueueUrl, Entries: [] }), (e) =>
      assert.ok(e instanceof SQS.EmptyBatchRequest, e.name),
    );
  },

  async visibilityTimeoutPassesByTheClock() {
    const QueueUrl = await urlOf("node");
    await clock({ pause: true });
    try {
      await call(SQS.SendMessageCommand, { QueueUrl, MessageBody: "tick" });
      const first = (await call(SQS.ReceiveMessageCommand, { QueueUrl, VisibilityTimeout: 120 })).Messages[0];
      await clock({ advance: 119 });
      assert.equal((await call(SQS.ReceiveMessageCommand, { QueueUrl })).Messages, undefined);
      await clock({ advance: 1 });
      const again = (await call(SQS.ReceiveMessageCommand, { QueueUrl })).Messages[0];
      assert.equal(again.MessageId, first.MessageId);
      await call(SQS.DeleteMessageCommand, { QueueUrl, ReceiptHandle: again.ReceiptHandle });
    } finally {
      await clock({ pause: false });
    }
  },

  async longPollsEndOnAMessageOrAtTheirVirtualDeadline() {
    const QueueUrl = await urlOf("node");
    let started = Date.now();
    const waiting = call(SQS.ReceiveMessageCommand, { QueueUrl, WaitTimeSeconds: 20 });
    await new Promise((r) => setTimeout(r, 200));
    await call(SQS.SendMessageCommand, { QueueUrl, MessageBody: "wake" });
    const woken = await waiting;
    assert.equal(woken.Messages[0].Body, "wake");
    assert.ok(Date.now() - started < 5000);
    await call(SQS.DeleteMessageCommand, { QueueUrl, ReceiptHandle: woken.Messages[0].ReceiptHandle });
    await clock({ pause: true });
    try {
      started = Date.now();
      const timingOut = call(SQS.ReceiveMessageCommand, { QueueUrl, WaitTimeSeconds: 20 });
      await new Promise((r) => setTimeout(r, 200));
      await clock({ advance: 20 });
      assert.equal((await timingOut).Messages, undefined);
      assert.ok(Date.now() - started < 5000);
    } finally {
      await clock({ pause: false });
    }
  },

  async aDlqMoveAndAMoveTaskBack() {
    const [source, dlq] = [await urlOf("node-src"), await urlOf("node-dlq")];
    await clock({ pause: true });
    try {
      await call(SQS.SendMessageCommand, { QueueUrl: source, MessageBody: "poison" });
      await call(SQS.ReceiveMessageCommand, { QueueUrl: source, VisibilityTimeout: 30 });
      await clock({ advance: 30 });
      assert.equal((await call(SQS.ReceiveMessageCommand, { QueueUrl: source })).Messages, undefined);
      const moved = await call(SQS.ReceiveMessageCommand, { QueueUrl: dlq, VisibilityTimeout: 0 });
      assert.equal(moved.Messages[0].Body, "poison");
      const arn = (await call(SQS.GetQueueAttributesCommand, { QueueUrl: dlq, AttributeNames: ["QueueArn"] })).Attributes.QueueArn;
      const { TaskHandle } = await call(SQS.StartMessageMoveTaskCommand, { SourceArn: arn });
      assert.ok(TaskHandle);
      await clock({ advance: 5 });
      const { Results } = await call(SQS.ListMessageMoveTasksCommand, { SourceArn: arn });
      assert.equal(Results[0].Status, "COMPLETED");
      assert.equal((await call(SQS.ReceiveMessageCommand, { QueueUrl: source })).Messages[0].Body, "poison");
    } finally {
      await clock({ pause: false });
    }
  },
};

let passed = 0;
let failed = 0;
for (const [name, test] of Object.entries(tests)) {
  try {
    await test();
    console.log(`ok   node ${name}`);
    passed++;
  } catch (error) {
    console.log(`FAIL node ${name}\n    ${String(error.stack).replaceAll("\n", "\n    ")}`);
    failed++;
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
