// axe-core (npm) with the WCAG 2.2 A and AA rules, for the accessibility checks of the e2e tests.
import { createRequire } from 'node:module';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** axe's violations on the page as it is now, one line each (rule, impact, first targets). */
export async function violations(page) {
  await page.addScriptTag({ path: axePath });
  const found = await page.evaluate(
    (tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags } }).then((r) => r.violations),
    TAGS,
  );
  return found.map(
    (v) => `${v.id} (${v.impact}): ${v.help}; at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`,
  );
}
