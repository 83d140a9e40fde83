// The scenario library as files beside the page (issue 35): the page opens on the sandbox
// without fetching any, fetches scenarios/<id>.json when one is picked (relative to the page, so
// under a sub-path too), says so while it comes, and names the file when it cannot be read.
import { test, assert, eventually } from '../lib/harness.mjs';
import { open, region } from '../lib/playground.mjs';

/** Records the addresses of the scenario files the page asks for. */
function scenarioRequests(page) {
  const asked = [];
  page.on('request', (request) => {
    if (/\/scenarios\/[^/]+\.json$/.test(request.url())) asked.push(request.url());
  });
  return asked;
}

test('under a sub-path, a picked scenario is fetched from beside the page while the picker says so', async ({ page, subUrl }) => {
  const asked = scenarioRequests(page);
  await open(page, subUrl, '');
  assert.deepEqual(asked, [], 'the default scenario is in the bundle');
  // Hold the file back until the loading line has been seen.
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await page.route('**/scenarios/heartbeat.json', async (route) => {
    await held;
    await route.continue();
  });
  const picker = page.getByLabel('Scenario', { exact: true });
  await picker.selectOption('heartbeat');
  const status = page.locator('.picker [role=status]');
  await eventually(async () => assert.match(await status.textContent(), /^Loading ".+"…$/));
  assert.equal(await picker.getAttribute('aria-busy'), 'true');
  release();
  await eventually(async () =>
    assert.match(await region(page, 'Story line').textContent(), /ChangeMessageVisibility/));
  assert.equal(await status.textContent(), '');
  assert.deepEqual(asked, [subUrl('scenarios/heartbeat.json')]);
  // Picked again later, it is not fetched again.
  await picker.selectOption('sandbox');
  await picker.selectOption('heartbeat');
  await eventually(async () => assert.equal(await picker.inputValue(), 'heartbeat'));
  assert.equal(asked.length, 1);
});

test('a library file that cannot be read is named, and the open scenario stays', async ({ page, url }) => {
  await page.route('**/scenarios/r-022.json', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.route('**/scenarios/r-023.json', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '{"title": "half' }));
  await open(page, url, '');
  const picker = page.getByLabel('Scenario', { exact: true });
  const problem = page.locator('.picker .error');
  await picker.selectOption('r-022');
  await eventually(async () =>
    assert.match(await problem.textContent(), /^http:\/\/127\.0\.0\.1:\d+\/scenarios\/r-022\.json could not be read: the server answered 404/));
  assert.equal(await picker.inputValue(), 'sandbox', 'the picker shows the scenario still open');
  await region(page, 'Queue').getByText(/Press Send message/).waitFor();
  await picker.selectOption('r-023');
  await eventually(async () =>
    assert.match(await problem.textContent(), /^The scenario file scenarios\/r-023\.json cannot be opened: The file is not valid JSON/));
  assert.equal(await picker.inputValue(), 'sandbox');
  // A link that names it: the file's problem and the fallback are both said.
  await open(page, url, '?scenario=r-022');
  await eventually(async () => {
    const text = await problem.textContent();
    assert.match(text, /scenarios\/r-022\.json could not be read: the server answered 404/);
    assert.match(text, /There is no scenario "r-022": this is the sandbox\./);
  });
}, { allowErrors: true });

test('a link to a library scenario opens on it once its file has come', async ({ page, subUrl }) => {
  const asked = scenarioRequests(page);
  await open(page, subUrl, '?scenario=slow-worker&t=20');
  const picker = page.getByLabel('Scenario', { exact: true });
  assert.equal(await picker.inputValue(), 'slow-worker');
  assert.equal(await page.locator('.picker .error').count(), 0);
  assert.deepEqual(asked, [subUrl('scenarios/slow-worker.json')]);
});
