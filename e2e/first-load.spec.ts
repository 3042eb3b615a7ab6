// What the two heaviest pages' first load carries: the scripts their HTML names (<script src>
// and script preloads), which a browser fetches before the page can run. Parts that only some
// records or rare states show are fetched on demand (components/verifications/on-demand.tsx) and the names
// are compared outside the browser's first load, so a pending request's page and an empty create
// form carry none of that code. This keeps the first-load JavaScript budget (npm run bench:
// ≤ 150 KB gzip) from being spent again by one import in the wrong place. Each part is recognised
// by a text of its own that minification keeps.
import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { createdId, fillBasics, openCreateForm, submitCreate, uniqueName } from './support/fixtures';
import { storageStateOf } from './support/staff';

test.use({ storageState: storageStateOf('operator') });

/** Only on the page of a completed request whose names differ, or of one that could not be read. */
const RARE_ON_THE_DETAIL_PAGE = {
  'the name review form': 'The difference is harmless',
  'the name comparison and its tables': 'Devanagari',
  'the lookup form of the problem page': 'Look up a verification by id or page address',
  'the copy button of a shareable link': 'Copy link',
};

/** Only once a create form is refused, follows up a request, or would notify nobody. */
const RARE_ON_THE_CREATE_FORM = {
  'the follow-up notice': 'Follow-up of an earlier request',
};

/** Only where a message is boxed: a refusal, a warning, a follow-up, the live part's problem. */
const RARE_EVERYWHERE = {
  'the boxed message (Alert) and its icons': 'bg-sky-50 ring-sky-200 text-sky-950',
};

/** next/link's own code (an error it throws), in the dashboard layout's chunk. */
const NEXT_LINK = '`<Link legacyBehavior>` received a direct child';

/** The text of every script the page's HTML loads or preloads. */
async function firstLoadScripts(request: APIRequestContext, path: string): Promise<string> {
  const response = await request.get(path);
  expect(response.status(), path).toBe(200);
  const html = await response.text();
  const sources = new Set<string>();
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const src = /\bsrc="([^"]+)"/.exec(tag)?.[1];
    if (tag.startsWith('<script') && src) sources.add(src);
    const href = /\bhref="([^"]+)"/.exec(tag)?.[1];
    if (tag.startsWith('<link') && /\bas="script"/.test(tag) && href) sources.add(href);
  }
  expect(sources.size, `${path} names its scripts`).toBeGreaterThan(0);
  const bodies = await Promise.all(
    [...sources].map(async (source) => {
      const script = await request.get(source.replaceAll('&amp;', '&'));
      expect(script.status(), source).toBe(200);
      return script.text();
    }),
  );
  return bodies.join('\n');
}

function expectNone(scripts: string, parts: Record<string, string>) {
  for (const [part, text] of Object.entries(parts)) expect(scripts.includes(text), `${part} is in the first load`).toBe(false);
}

test.describe('first-load JavaScript', () => {
  test('a pending request’s page carries its record and live parts, none of the rare states’ code', async ({ page }) => {
    await openCreateForm(page);
    await fillBasics(page, { name: uniqueName('First Load'), email: 'first.load@example.com' });
    await submitCreate(page);
    const id = await createdId(page);

    const scripts = await firstLoadScripts(page.request, `/verifications/${id}`);
    // The fetch works: the record's own view is there.
    expect(scripts).toContain('Not yet identified');
    expectNone(scripts, { ...RARE_ON_THE_DETAIL_PAGE, ...RARE_EVERYWHERE });
  });

  test('an empty create form carries its fields, none of the rare states’ code', async ({ page }) => {
    const scripts = await firstLoadScripts(page.request, '/verifications/new');
    expect(scripts).toContain('Create verification request');
    expectNone(scripts, { ...RARE_ON_THE_CREATE_FORM, ...RARE_EVERYWHERE });
    // Once, in the dashboard layout's chunk: the root error boundary (in every first load) links back without it.
    expect(scripts.split(NEXT_LINK).length - 1, 'copies of next/link in the first load').toBe(1);
  });

  test('the problem page’s lookup form, fetched on demand, still checks what is typed in the browser', async ({ page }) => {
    const id = randomUUID();
    await page.goto(`/verifications/${id}`);
    const lookup = page.getByRole('search');
    // Until its code has come and React has taken over the server's HTML, the form posts natively.
    await page.waitForFunction(() =>
      Object.keys(document.querySelector('form[role="search"]') ?? {}).some((key) => key.startsWith('__reactProps')),
    );
    await lookup.getByLabel('Look up a verification by id or page address').fill('https://example.com/elsewhere');
    await lookup.getByRole('button', { name: 'Look up' }).click();
    await expect(lookup).toContainText('That address is not a verification’s page.');
    // Answered by the form's code in the browser: without it, the form would have gone to /verifications.
    expect(new URL(page.url()).pathname).toBe(`/verifications/${id}`);
  });
});
