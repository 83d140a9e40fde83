// A pasted link unfurls: the page names itself, describes itself and has a picture, whose
// files are served beside the bundle (also under a sub-path).
import { test, assert } from '../lib/harness.mjs';
import { region } from '../lib/playground.mjs';

test('the page carries a favicon and Open Graph / Twitter card tags whose files exist', async ({ page, subUrl }) => {
  await page.goto(subUrl(''));
  await region(page, 'Queue').waitFor();
  const meta = (attr, name) => page.locator(`meta[${attr}="${name}"]`).getAttribute('content');
  assert.equal(await meta('property', 'og:title'), 'SQS Playground');
  assert.match(await meta('property', 'og:description'), /visibility timeouts/);
  assert.equal(await meta('name', 'twitter:card'), 'summary_large_image');
  const image = await meta('property', 'og:image');
  assert.equal(await meta('name', 'twitter:image'), image);
  const icon = await page.locator('link[rel="icon"]').getAttribute('href');
  for (const [file, type] of [[image, 'image/png'], [icon, 'image/svg+xml']]) {
    const response = await page.request.get(new URL(file, page.url()).href);
    assert.equal(response.status(), 200, `${file} is served under the sub-path`);
    assert.equal(response.headers()['content-type'], type);
  }
  // The picture is the size the tags announce.
  const png = await (await page.request.get(new URL(image, page.url()).href)).body();
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)],
    [Number(await meta('property', 'og:image:width')), Number(await meta('property', 'og:image:height'))]);
});
