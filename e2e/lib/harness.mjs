// The e2e test registry and helpers. A test file (e2e/tests/*.mjs) does:
//
//   import { test, assert, eventually } from '../lib/harness.mjs';
//   test('what it checks', async ({ page, url, subUrl, screenshot }) => { ... });
//
// Each test gets a fresh browser context and page. It fails if it throws, or (unless the test
// passes { allowErrors: true }) if the page logged a console error, threw an uncaught exception,
// or a request failed or answered >= 400.
import assert from 'node:assert/strict';

export { assert };

/** @type {{name: string, fn: Function, opts: object, file?: string}[]} */
export const registry = [];

/**
 * Registers a test. opts: { timeout (ms, default 30000), allowErrors (default false),
 * only (run just the tests marked only) }.
 */
export function test(name, fn, opts = {}) {
  registry.push({ name, fn, opts });
}

/** Polls `fn` (sync or async) until it stops throwing; rethrows its last error after `timeout` ms. */
export async function eventually(fn, { timeout = 5000, interval = 50 } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, interval));
    }
  }
}
