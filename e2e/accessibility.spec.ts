// axe-core on every page in its main states: no serious or critical violation.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createdId, fillBasics, openCreateForm, submitCreate, uniqueName } from './support/fixtures';
import { storageStateOf } from './support/staff';

async function expectNoSeriousViolations(page: Page, state: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${state}: ${v.id} (${v.impact}) — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  expect(serious).toEqual([]);
}

test.describe('accessibility (admin)', () => {
  test.use({ storageState: storageStateOf('admin') });

  test('dashboard pages', async ({ page }) => {
    for (const path of ['/', '/?view=expiring', '/staff', '/audit', '/outbox', '/webhooks', '/verifications']) {
      await page.goto(path);
      await expectNoSeriousViolations(page, path);
    }
  });

  test('create form empty, with errors, with every switch on, and the result', async ({ page }) => {
    await openCreateForm(page);
    await expectNoSeriousViolations(page, 'create form');
    await submitCreate(page);
    await expect(page.locator('#name-error')).not.toBeEmpty();
    await expectNoSeriousViolations(page, 'create form with errors');
    await page.getByRole('switch', { name: 'Shareable link' }).check();
    await page.getByRole('switch', { name: 'SMS notification' }).check();
    await page.getByRole('radio', { name: 'Other…' }).check();
    await expectNoSeriousViolations(page, 'create form, everything on');
    await page.getByLabel('Mobile number').fill('+32 470 12 34 56');
    await page.getByRole('textbox', { name: 'Describe the purpose' }).fill('Supplier onboarding');
    await fillBasics(page, { name: uniqueName('Axe Person'), purpose: 'Other…' });
    await submitCreate(page);
    const id = await createdId(page);
    await expectNoSeriousViolations(page, 'result panel');
    await page.goto(`/verifications/${id}`);
    await expectNoSeriousViolations(page, 'detail page');
    const link = await page.locator('code').filter({ hasText: '/sandbox/verify/' }).textContent();
    await page.goto(link!.trim());
    await expectNoSeriousViolations(page, "person's page");
    await page.goto('/verifications/not-a-valid-id');
    await expectNoSeriousViolations(page, 'invalid id page');
  });
});

test.describe('accessibility (signed out)', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('sign-in and setup pages', async ({ page }) => {
    await page.goto('/sign-in');
    await expectNoSeriousViolations(page, 'sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectNoSeriousViolations(page, 'sign-in with errors');
  });
});
