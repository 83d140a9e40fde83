// Settings are validated by the engine: an out-of-range value is refused with SQS's message
// next to the field, and nothing changes.
import { test, assert } from '../lib/harness.mjs';
import { open, region, send, waitForMessage, openTab } from '../lib/playground.mjs';

test('an out-of-range setting is refused with SQS\'s message and changes nothing', async ({ page, url, screenshot }) => {
  await open(page, url, '?scenario=sandbox');
  await openTab(page, 'Settings');
  const field = page.getByLabel('Visibility timeout (seconds)', { exact: true });
  const form = page.locator('form.field', { has: field });
  assert.equal(await field.inputValue(), '30');
  await field.fill('50000');
  await field.press('Enter');
  const error = form.getByRole('alert');
  await error.waitFor();
  assert.match(await error.textContent(), /VisibilityTimeout|InvalidAttributeValue/);
  assert.equal(await form.locator('.field-now').textContent(), 'now 30');
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  assert.equal(await field.inputValue(), '50000', 'the refused value stays to be corrected');
  await screenshot('playground-setting-refused');

  // A valid value is taken, and the next receive uses it.
  await field.fill('45');
  await field.press('Enter');
  await form.locator('.field-now', { hasText: 'now 45' }).waitFor();
  assert.equal(await form.getByRole('alert').count(), 0);
  assert.equal(await field.inputValue(), '45');

  const receives = page.getByLabel('Max receive count', { exact: true });
  await receives.fill('0');
  await receives.press('Enter');
  await page.locator('form.field', { has: receives }).getByRole('alert').waitFor();

  const delay = page.getByLabel('Message timer (seconds)', { exact: true });
  await delay.fill('901');
  await send(page, 1);
  await page.getByRole('form', { name: 'Producer' }).getByRole('alert').waitFor();
  await delay.fill('5');
  await send(page, 1);
  await waitForMessage(region(page, 'Queue'), /, delayed, 5 s left$/);
});
