// `sqs-sim serve` for the live view's end-to-end tests: the binary SQS_SIM names (./check e2e
// builds a release one), else target/debug/sqs-sim, serving the live bundle (dist-live/, which ./check e2e builds beside the player), on a free port (or a given one, to start it again where it was),
// and SQS clients of their own: the Node SDK in the test, and workers as separate processes
// (e2e/lib/sqs-worker.mjs) that a test can let crash.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as SQS from '@aws-sdk/client-sqs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const binary = process.env.SQS_SIM ?? path.join(process.env.CARGO_TARGET_DIR ?? path.join(repo, 'target'), 'debug', 'sqs-sim');
const liveBundle = path.join(repo, 'dist-live');

/**
 * Starts `sqs-sim serve --ui DIST` (with `args` after); resolves to { url, port, pid, stop() }
 * once it listens.
 */
export function startSqsSim({ dist = liveBundle, port = 0, args = [] } = {}) {
  const child = spawn(binary, ['serve', '--port', String(port), '--ui', dist, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  // A runner that stops early (an uncaught error) must not leave a server behind.
  const orphan = () => child.kill('SIGTERM');
  process.once('exit', orphan);
  child.once('exit', () => process.off('exit', orphan));
  let output = '';
  return new Promise((resolve, reject) => {
    const fail = (why) => reject(new Error(`sqs-sim serve did not start (${why}): ${output}`));
    child.on('error', (e) => fail(e.message));
    const exited = (code) => fail(`exit ${code}`);
    child.on('exit', exited);
    child.stderr.on('data', (d) => (output += d));
    child.stdout.on('data', (d) => {
      output += d;
      const found = /listening on (http:\/\/[\d.]+:(\d+))/.exec(output);
      if (!found) return;
      child.off('exit', exited);
      resolve({
        url: found[1],
        port: Number(found[2]),
        pid: child.pid,
        stop: () =>
          new Promise((done) => {
            child.once('exit', done);
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** An SQS client of the server signing as `key` (its name in the live view) for `region`. */
export function client(endpoint, key, region = 'us-east-1') {
  const sqs = new SQS.SQSClient({
    endpoint,
    region,
    credentials: { accessKeyId: key, secretAccessKey: 'any' },
    maxAttempts: 1,
  });
  return (Command, input) => sqs.send(new SQS[Command](input));
}

/**
 * Runs e2e/lib/sqs-worker.mjs as its own process: receives one message as `key`, works on it
 * for `workMs`, then deletes it (`then: 'delete'`) or exits without deleting (`then: 'crash'`).
 * Resolves to what it printed: { body, receiveCount, deleted }.
 */
export function runWorker(endpoint, key, queueUrl, then, workMs = 0) {
  const script = path.join(repo, 'e2e', 'lib', 'sqs-worker.mjs');
  const child = spawn(process.execPath, [script, endpoint, key, queueUrl, then, String(workMs)], { stdio: ['ignore', 'pipe', 'pipe'] });
  // Its stderr (the SDK's notices) is told only when it printed no result.
  let [output, errors] = ['', ''];
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (errors += d));
  return new Promise((resolve, reject) => {
    child.on('exit', () => {
      try {
        resolve(JSON.parse(output));
      } catch {
        reject(new Error(`the worker ${key} printed no result: ${output}${errors}`));
      }
    });
  });
}

/**
 * The project's load tool (`sqs-sim load --bench`, 50 clients sending, receiving and deleting)
 * against `endpoint`, run by periods of `seconds` until at least `calls` requests were answered;
 * resolves to how many.
 */
export async function loadCalls(endpoint, calls, seconds = 20) {
  let made = 0;
  while (made < calls) {
    const args = ['load', '--endpoint', endpoint, '--bench', '--clients', '50', '--seconds', String(seconds)];
    const printed = await new Promise((resolve, reject) => {
      const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`sqs-sim load: exit ${code}: ${output}`))));
    });
    made += Number(/requests=(\d+)/.exec(printed)[1]);
  }
  return made;
}
