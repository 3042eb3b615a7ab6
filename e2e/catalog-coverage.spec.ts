// No word on a page bypasses the catalogs. In the pseudo-language (lib/i18n/pseudo.ts) every
// catalog message reads ⟦…⟧; this walks the pages and states the other browser tests reach and
// fails on visible text, a document title or an accessible name outside the brackets. What may
// stand outside: user data (marked translate="no", as it must not be machine-translated either),
// times (<time>, written by Intl in the reader's language), ids, e-mail addresses, numbers and
// punctuation, the product's name and the languages' own names on the switcher.
import { type Browser, expect, type Page, test } from '@playwright/test';
import { createSharedRequest, fillBasics, openCreateForm, submitCreate, uniqueName } from './support/fixtures';
import { completeAsThePerson } from './support/sandbox-person';
import { storageStateOf } from './support/staff';

const ALLOWED = [
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, // ids
  /\bmsg_[0-9a-f]+\b/g, // the service's webhook ids
  /[\w.+-]+@[\w-]+(\.[\w-]+)+/g, // e-mail addresses (staff's own, in the staff list and account)
  /https?:\/\/\S+/g, // links shown as text
  /Verification Desk/g, // the product's name
  /English|Français|Nederlands/g, // the switcher and the person's language: each in its own words
  /\b(en|fr|nl)\b/g, // and their codes
];

/** The text of a page a reader meets, with each catalog message taken out. */
async function wordsOutsideTheCatalogs(page: Page): Promise<string[]> {
  const { text, names, title } = await page.evaluate(() => {
    const skipped = (node: Node) => node.parentElement?.closest('script, style, noscript, template, time, [translate="no"]') != null;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let body = '';
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (skipped(node) || !element?.checkVisibility()) continue;
      body += node.textContent;
      // Block boundaries keep unrelated texts apart.
      if (element.nextSibling === null) body += '\n';
    }
    const labelled = [...document.querySelectorAll('[aria-label], [title], [alt], [placeholder]')].filter(
      (element) => !element.closest('time, [translate="no"]') && (element as HTMLElement).checkVisibility?.() !== false,
    );
    return {
      text: body,
      names: labelled.flatMap((element) =>
        ['aria-label', 'title', 'alt', 'placeholder'].map((name) => element.getAttribute(name)).filter((value): value is string => !!value),
      ),
      title: document.title,
    };
  });
  return [text, title, ...names]
    .map((piece) => {
      let rest = piece;
      // Innermost first: a message may hold another as an argument.
      for (let previous = ''; previous !== rest; ) {
        previous = rest;
        rest = rest.replace(/⟦[^⟦⟧]*⟧/g, ' ');
      }
      for (const pattern of ALLOWED) rest = rest.replace(pattern, ' ');
      return rest;
    })
    .flatMap((rest) => rest.split('\n'))
    .map((line) => line.trim())
    .filter((line) => !/^[\s\p{P}\p{S}\d]*$/u.test(line));
}

async function expectOnlyCatalogWords(page: Page, state: string) {
  await expect(page.locator('body')).not.toBeEmpty();
  // Soft: one run lists every state's stray words.
  expect.soft(await wordsOutsideTheCatalogs(page), state).toEqual([]);
}

async function pseudoPage(browser: Browser, storageState: string | { cookies: []; origins: [] }, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ storageState, baseURL });
  await context.addCookies([{ name: 'vd-pseudo', value: 'on', url: baseURL }]);
  return context.newPage();
}

test.describe('words outside the catalogs (pseudo-language)', () => {
  test.slow();

  test('none on any page or state a staff member reaches', async ({ browser, baseURL }) => {
    const page = await pseudoPage(browser, storageStateOf('admin'), baseURL!);
    const visit = async (path: string, state = path) => {
      await page.goto(path);
      await expectOnlyCatalogWords(page, state);
    };

    // Creating: the empty form, its refusal, and the result with its link.
    await openCreateForm(page);
    await expectOnlyCatalogWords(page, 'create form');
    await submitCreate(page);
    await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
    await expectOnlyCatalogWords(page, 'create form with errors');
    const name = uniqueName('Pseudo Person');
    await openCreateForm(page);
    await page.getByRole('switch', { name: 'E-mail' }).check();
    await page.getByRole('switch', { name: 'SMS' }).check();
    await fillBasics(page, { name, email: 'pseudo.person@example.com' });
    await page.getByLabel('Mobile number').fill('+32470123456');
    await submitCreate(page);
    await expect(page.getByTestId('creation-result')).toBeVisible();
    await expectOnlyCatalogWords(page, 'create result');

    // One request through its life: pending with its link, then completed with another name.
    const shared = await createSharedRequest(page, uniqueName('Pseudo Shared'));
    await expectOnlyCatalogWords(page, 'create result with a link');
    await visit(`/verifications/${shared.id}`, 'detail page, pending');
    await completeAsThePerson(browser, shared.link, 'SOMEONE ELSE');
    await visit(`/verifications/${shared.id}`, 'detail page, completed, names differ');
    const reviewButton = page.getByRole('button', { name: 'Record the decision' });
    await reviewButton.click();
    await expect(page.locator('#review-decision-error')).toBeVisible();
    await expectOnlyCatalogWords(page, 'name review refused');

    // The register and its views, the audit trail, the rooms of an administrator.
    await visit(`/?q=${encodeURIComponent('Pseudo')}`, 'register, searched');
    await visit('/?view=review', 'register, needs review');
    await visit('/?status=failed&from=2020-01-01', 'register, filtered');
    await visit('/?from=not-a-date', 'register, a filter it cannot read');
    await visit('/queue', 'needs attention');
    await visit('/overview', 'overview');
    await visit('/audit', 'audit trail');
    await visit('/staff', 'staff');
    await visit('/account', 'account');
    await visit('/account/two-factor', 'two-factor set-up');
    await visit('/outbox', 'outbox');
    await visit('/webhooks', 'webhooks');
    await visit('/verifications/00000000-0000-4000-8000-000000000000', 'detail page, not found');
    await visit('/verifications/not-an-id', 'detail page, not an id');
    await visit('/no-such-page', 'page not found');
    await page.context().close();

    // A viewer's refusal, and the pages before sign-in.
    const viewer = await pseudoPage(browser, storageStateOf('viewer'), baseURL!);
    await viewer.goto('/staff');
    await expectOnlyCatalogWords(viewer, 'forbidden');
    await viewer.context().close();

    const signedOut = await pseudoPage(browser, { cookies: [], origins: [] }, baseURL!);
    await signedOut.goto('/sign-in');
    await expectOnlyCatalogWords(signedOut, 'sign-in');
    // Refused before any attempt is made (a failed attempt would count in other tests' figures).
    await signedOut.getByRole('button', { name: 'Sign in' }).click();
    await expect(signedOut.locator('[aria-invalid="true"]').first()).toBeVisible();
    await expectOnlyCatalogWords(signedOut, 'sign-in refused');
    for (const path of ['/setup', `/invitation/${'a'.repeat(43)}`, '/sign-in/two-factor']) {
      await signedOut.goto(path);
      await expectOnlyCatalogWords(signedOut, path);
    }
    await signedOut.context().close();
  });
});
