// What Next.js compresses: pages and their scripts, for the browser on a real network; not the
// small JSON answers of the APIs (the dashboard's read route and the sandbox's), whose gzip costs
// both ends more CPU than it saves bytes — the dashboard's own calls to the sandbox above all.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { createdId, fillBasics, openCreateForm, submitCreate, uniqueName } from './support/fixtures';

const GZIP = { 'accept-encoding': 'gzip, deflate, br' };

test('API answers go out uncompressed; pages and scripts are compressed', async ({ page, playwright }) => {
  await openCreateForm(page);
  await fillBasics(page, { name: uniqueName('Compression Check'), email: 'compression.check@example.com' });
  await submitCreate(page);
  const id = await createdId(page);

  // The dashboard's read route, signed in.
  const read = await page.request.get(`/api/verifications/${id}`, { headers: GZIP });
  expect(read.status()).toBe(200);
  expect(read.headers()['content-encoding']).toBeUndefined();
  expect(read.headers()['cache-control']).toBe('no-store, no-transform');
  expect(((await read.json()) as { status: string }).status).toBe('pending');

  // The sandbox API: its answers all come from one helper, refusals included.
  const anonymous = await playwright.request.newContext({ storageState: { cookies: [], origins: [] } });
  try {
    const refused = await anonymous.get(`/v1/verifications/${randomUUID()}`, { headers: GZIP });
    expect(refused.status()).toBe(403);
    expect(refused.headers()['content-encoding']).toBeUndefined();

    // Compression is still on where it pays: the HTML and the JavaScript the browser loads.
    const signIn = await anonymous.get('/sign-in', { headers: GZIP });
    expect(signIn.headers()['content-encoding']).toBe('gzip');
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(await signIn.text())?.[1];
    expect(script).toBeTruthy();
    const chunk = await anonymous.get(script!, { headers: GZIP });
    expect(chunk.status()).toBe(200);
    expect(chunk.headers()['content-encoding']).toBe('gzip');
  } finally {
    await anonymous.dispose();
  }
});
