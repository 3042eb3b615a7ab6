// What the two heaviest pages' first load carries: the scripts their HTML names (<script src>
// and script preloads), which a browser fetches before the page can run. The names are compared
// outside the browser's first load (by the server for the record it renders, by the lazily
// loaded live part for the records it fetches), and next/link comes once, in the dashboard
// layout's chunk: the root error boundary, in every first load, does without it. This keeps the
// first-load JavaScript budget (npm run bench: ≤ 150 KB gzip) from being spent again by one
// import in the wrong place. Each part is recognised by a text of its own that minification keeps.
import { type APIRequestContext, expect, test } from '@playwright/test';
import { createdId, fillBasics, openCreateForm, submitCreate, uniqueName } from './support/fixtures';
import { storageStateOf } from './support/staff';

test.use({ storageState: storageStateOf('operator') });

/** lib/verifications/review/name-match.ts: one of the scripts it knows. */
const NAME_MATCH = 'Devanagari';

// Markers from each component's own code: its words are the catalogs' now, and travel in the page
// data, not in the scripts.
/** components/verifications/name-review-panel.tsx: its error's element id. */
const REVIEW_FORM = 'review-decision-error';

/** components/verifications/lookup-form-fields.tsx: its error's element id. */
const LOOKUP_FORM = 'lookup-id-error';

/** components/verifications/verification-details.tsx: the status line's test id. */
const DETAILS = 'review-status';

/** next/link's own code (an error it throws). */
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

const copies = (scripts: string, text: string) => scripts.split(text).length - 1;

test.describe('first-load JavaScript', () => {
  test('a pending request’s page carries its record, not the name comparison or forms it hides, and next/link once', async ({ page }) => {
    await openCreateForm(page);
    await fillBasics(page, { name: uniqueName('First Load'), email: 'first.load@example.com' });
    await submitCreate(page);
    const id = await createdId(page);

    const scripts = await firstLoadScripts(page.request, `/verifications/${id}`);
    // The fetch works: the record's own view is there.
    expect(scripts).toContain(DETAILS);
    expect(copies(scripts, NAME_MATCH), 'the name comparison in the first load').toBe(0);
    // Shown only for a name mismatch and on a problem page: loaded when rendered (loaded-on-demand.tsx).
    expect(copies(scripts, REVIEW_FORM), 'the name review form in the first load').toBe(0);
    expect(copies(scripts, LOOKUP_FORM), 'the lookup form in the first load').toBe(0);
    expect(copies(scripts, NEXT_LINK), 'copies of next/link in the first load').toBe(1);
  });

  test('an empty create form carries its fields, and next/link once', async ({ page }) => {
    const scripts = await firstLoadScripts(page.request, '/verifications/new');
    // The field set's own code (its words come from the page's messages since issue 28).
    expect(scripts).toContain('group-has-[#purpose-other:checked]/purpose:block');
    expect(copies(scripts, NEXT_LINK), 'copies of next/link in the first load').toBe(1);
  });
});
