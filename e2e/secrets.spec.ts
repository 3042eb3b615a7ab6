// No secret reaches the build output: the build of this run was made with canary values in
// every secret (e2e/support/build-with-canaries.mjs), and none may appear anywhere under .next/.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import canaries from './support/canaries.json' with { type: 'json' };

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* filesUnder(full);
    else yield full;
  }
}

test('no secret value appears anywhere in the build output, nor in a served page', async ({ request }) => {
  const needles = Object.values(canaries as Record<string, string>);
  const found: string[] = [];
  let scanned = 0;
  for (const file of filesUnder(path.resolve('.next'))) {
    if (file.includes(`${path.sep}cache${path.sep}`)) continue; // the compiler's own cache, not shipped
    const content = readFileSync(file);
    scanned += 1;
    for (const needle of needles) if (content.includes(needle)) found.push(`${needle.slice(0, 12)}… in ${file}`);
  }
  expect(scanned).toBeGreaterThan(50);
  expect(found).toEqual([]);

  for (const pagePath of ['/sign-in', '/', '/verifications/new']) {
    const body = await (await request.get(pagePath)).text();
    for (const needle of needles) expect(body, pagePath).not.toContain(needle);
  }
});
