// A French and a Dutch officer each work a request through in their language: sign in, create a
// request (the person's language defaults to theirs), review a name mismatch, export the register
// and read the audit trail, with axe checking the pages in their language and, at 390 px, nothing
// wider than the screen and no label cut short. The French officer's browser asks for French
// before anyone signs in; the Dutch one starts in English and switches on the create form, which
// keeps what was typed. The words come from the catalogs themselves (support/catalog.ts).
// The other instance honouring the choice: two-instances.spec.ts.
import { readFileSync } from 'node:fs';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/accessibility';
import { type CatalogLanguage, catalog } from './support/catalog';
import { uniqueName } from './support/fixtures';
import { completeAsThePerson } from './support/sandbox-person';
import { type SeededKey, seededAccount } from './support/staff';

type Officer = { language: Exclude<CatalogLanguage, 'en'>; account: SeededKey; browserLocale: string; switchesOnTheForm: boolean };

const OFFICERS: Officer[] = [
  { language: 'fr', account: 'frenchOfficer', browserLocale: 'fr-BE', switchesOnTheForm: false },
  { language: 'nl', account: 'dutchOfficer', browserLocale: 'en-GB', switchesOnTheForm: true },
];

const LANGUAGE_NAME = { en: 'English', fr: 'Français', nl: 'Nederlands' } as const;

/** At the phone's width: the page no wider than the screen, and no label, button or heading cut short. */
async function expectFitsAPhone(page: Page, state: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  const problems = await page.evaluate(() => {
    const found: string[] = [];
    if (document.documentElement.scrollWidth > window.innerWidth) {
      found.push(`page ${document.documentElement.scrollWidth}px wide`);
    }
    for (const element of document.querySelectorAll<HTMLElement>('label, button, a, h1, h2, h3, th, legend, [role="tab"]')) {
      if (!element.checkVisibility() || element.closest('.sr-only, [translate="no"]')) continue;
      const style = getComputedStyle(element);
      const clips = style.textOverflow === 'ellipsis' || style.overflow === 'hidden' || style.overflowX === 'hidden';
      if (clips && element.scrollWidth > element.clientWidth + 1) found.push(`cut short: ${element.textContent?.trim().slice(0, 60)}`);
    }
    return found;
  });
  expect(problems, state).toEqual([]);
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function signIn(browser: Browser, baseURL: string, officer: Officer) {
  const account = seededAccount(officer.account, test.info().retry);
  const context = await browser.newContext({ baseURL, locale: officer.browserLocale, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const before = officer.switchesOnTheForm ? 'en' : officer.language;
  const t = catalog(before);
  await page.goto('/sign-in');
  // Before sign-in the browser's language decides.
  await expect(page.locator('html')).toHaveAttribute('lang', before);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('auth.signIn.title'));
  await page.getByLabel(t('auth.signInForm.email')).fill(account.email);
  await page.getByLabel(t('auth.signInForm.password'), { exact: true }).fill(account.password);
  await page.getByRole('button', { name: t('auth.signInForm.submit'), exact: true }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(account.name);
  return { context, page, account };
}

for (const officer of OFFICERS) {
  test(`${officer.language}: create, review a mismatch, export and read the audit trail in ${LANGUAGE_NAME[officer.language]}`, async ({
    browser,
    baseURL,
  }) => {
    test.slow();
    const t = catalog(officer.language);
    const { context, page } = await signIn(browser, baseURL!, officer);
    const name = uniqueName(officer.language === 'fr' ? 'Hélène Dubois' : 'Joëlle Verhaeghe');

    // The create form, in their language; the Dutch officer switches there, and keeps the name.
    await page.goto('/verifications/new');
    const nameField = () => page.locator('#name');
    if (officer.switchesOnTheForm) {
      await nameField().fill(name);
      await page.getByRole('button', { name: LANGUAGE_NAME[officer.language] }).click();
      await expect(page.locator('html')).toHaveAttribute('lang', officer.language);
      await expect(page.getByLabel(t('create.form.nameLabel'))).toHaveValue(name);
      // Set on the account: a new page load stays Dutch although the browser asks for English.
      await page.reload();
      await nameField().fill(name);
    } else {
      await nameField().fill(name);
    }
    await expect(page.locator('html')).toHaveAttribute('lang', officer.language);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('create.page.title'));
    // New requests speak to the person in the officer's language unless they choose otherwise.
    const personLanguage = page.getByRole('combobox', { name: t('create.form.languageLabel') });
    await expect(personLanguage).toHaveValue(officer.language);
    await expectNoSeriousViolations(page, `${officer.language} create form`);
    await expectFitsAPhone(page, `${officer.language} create form`);
    // This person reads English (and the sandbox's person page is then the one the helper knows).
    await personLanguage.selectOption('en');

    // A refusal first, in their words, then the request.
    await page.getByRole('button', { name: t('create.form.submit') }).click();
    await expect(page.getByText(t('create.schema.purposeRequired'))).toBeVisible();
    await expect(nameField()).toHaveValue(name);
    await page.getByRole('switch', { name: t('create.form.shareableLinkLabel') }).check();
    await page.getByRole('radio', { name: t('common.purpose.legal_obligations') }).check();
    await page.getByRole('button', { name: t('create.form.submit') }).click();
    const result = page.getByTestId('creation-result');
    await expect(result).toContainText(t('create.result.created'));
    const id = (await result.getByTestId('verification-id').textContent())?.trim() ?? '';
    const link = await page.getByRole('textbox', { name: t('create.result.linkLabel') }).inputValue();

    // The person completes it with another name; the officer reviews the mismatch.
    await completeAsThePerson(browser, link, `${name.toUpperCase()} MARTENS`);
    await page.goto(`/verifications/${id}`);
    await expect(page.getByTestId('status')).toContainText(t('common.status.completed'));
    await expect(page.getByTestId('review-status')).toContainText(t('detail.details.reviewNeeded'));
    await expectNoSeriousViolations(page, `${officer.language} detail page, review needed`);
    await expectFitsAPhone(page, `${officer.language} detail page`);
    const review = page.locator('form').filter({ has: page.getByRole('button', { name: t('detail.review.record') }) });
    await review.getByRole('button', { name: t('detail.review.record') }).click();
    await expect(review.locator('#review-decision-error')).toHaveText(t('detail.review.errors.decision'));
    // The officer created the request: under four eyes, "same person" is a colleague's, and the form says so.
    await expect(review).toContainText(t('detail.review.fourEyesNotYou'));
    await review.getByRole('radio', { name: t('common.nameReviewDecision.different_person') }).check();
    await review
      .getByLabel(t('detail.review.note'))
      .fill(officer.language === 'fr' ? 'Date de naissance différente.' : 'Andere geboortedatum.');
    await review.getByRole('button', { name: t('detail.review.record') }).click();
    await expect(page.getByRole('status').filter({ hasText: t('detail.reviewAction.recorded') })).toBeVisible();
    await expect(page.getByTestId('review-decision')).toContainText(
      t('detail.review.decision', { decision: t('common.nameReviewDecision.different_person') }),
    );
    await expect(page.getByRole('heading', { name: t('detail.timeline.heading') })).toBeVisible();

    // The register, then its CSV: the exporter's separator, headers and words.
    await page.goto(`/?q=${encodeURIComponent(name)}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('register.page.title'));
    const row = page.getByRole('row').filter({ hasText: id });
    await expect(row).toContainText(t('register.table.reviewed.different_person'));
    await expectNoSeriousViolations(page, `${officer.language} register`);
    await expectFitsAPhone(page, `${officer.language} register`);
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: t('exports.link.label'), exact: true }).click();
    const csv = readFileSync(await (await download).path(), 'utf8').replace(/^\uFEFF/, '');
    const [header, ...rows] = csv.trim().split(/\r?\n/);
    expect(header?.split(';').slice(0, 1)).toEqual([t('exports.register.header.verificationId')]);
    const ours = rows.find((line) => line.startsWith(id));
    expect(ours?.split(';')).toContain(t('common.purpose.legal_obligations'));
    expect(ours?.split(';')).toContain(t('common.nameReviewDecision.different_person'));

    // The audit trail of the request, its actions in their words.
    await page.goto(`/audit?verification=${id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('audit.title'));
    for (const action of ['verification.created', 'verification.viewed', 'verification.reviewed'] as const) {
      await expect(page.getByRole('cell', { name: t(`audit.actions.${action}`), exact: true }).first()).toBeVisible();
    }
    await expectNoSeriousViolations(page, `${officer.language} audit trail`);
    await expectFitsAPhone(page, `${officer.language} audit trail`);
    await context.close();
  });
}
