// axe-core on every page in its main states: no serious or critical violation.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/accessibility';
import { createdId, fillBasics, openCreateForm, submitCreate, uniqueName } from './support/fixtures';
import { storageStateOf } from './support/staff';

test.describe('accessibility (admin)', () => {
  test.use({ storageState: storageStateOf('admin') });
  // Each test analyses several pages or states with axe, the heaviest work a test does here.
  test.slow();

  // The register, the queue, the audit trail, staff, outbox and webhooks are analysed at 390 px with
  // rows in them (e2e/responsive-layout.spec.ts): the same markup, so not again here.
  test('dashboard pages', async ({ page }) => {
    for (const path of ['/overview', '/?view=expiring', '/verifications']) {
      await page.goto(path);
      await expectNoSeriousViolations(page, path);
    }
  });

  test("create form empty, with errors, with every switch on, and the result; the detail page and the person's page before and after the outcome; the detail page's problem states; the viewer's views", async ({
    page,
    browser,
  }) => {
    let id = '';
    let link = '';

    await test.step('the create form, then its result', async () => {
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
      id = await createdId(page);
      link = await page.getByRole('textbox', { name: 'Shareable link' }).inputValue();
      await expectNoSeriousViolations(page, 'result panel');
    });

    await test.step('the detail page', async () => {
      await page.goto(`/verifications/${id}`);
      await expect(page.getByTestId('status')).toContainText('Pending');
      await expectNoSeriousViolations(page, 'detail page');
    });

    await test.step("the person's page: open, thank you, then closed", async () => {
      // The sandbox's public page: the staff session this browser holds plays no part in it.
      await page.goto(link);
      await expectNoSeriousViolations(page, "person's page");
      await page.getByRole('button', { name: 'Complete with a passport' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you — your identity has been verified');
      await expectNoSeriousViolations(page, "person's page, completed");
      await page.goto(link);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('This verification is closed');
      await expectNoSeriousViolations(page, "person's page, closed");
    });

    await test.step('detail page of an invalid id and of an unknown one', async () => {
      await page.goto('/verifications/not-a-valid-id');
      await expectNoSeriousViolations(page, 'invalid id page');
      await page.goto(`/verifications/${randomUUID()}`);
      await expect(page.locator('[data-problem="not_found"]').getByRole('heading', { level: 1 })).toHaveText('Verification not found');
      await expectNoSeriousViolations(page, 'detail page, unknown id');
    });

    await test.step('as a viewer: the register, a detail page, the 403 and the 404 pages', async () => {
      const context = await browser.newContext({ storageState: storageStateOf('viewer') });
      const viewer = await context.newPage();
      await viewer.goto('/');
      await expect(viewer.getByRole('heading', { level: 1, name: 'Verification requests' })).toBeVisible();
      await expectNoSeriousViolations(viewer, 'viewer: register');
      await viewer.goto(`/verifications/${id}`);
      await expect(viewer.getByTestId('status')).toContainText('Completed');
      await expectNoSeriousViolations(viewer, 'viewer: detail page');
      const forbidden = await viewer.goto('/staff');
      expect(forbidden?.status()).toBe(403);
      await expect(viewer.getByRole('heading', { level: 1 })).toHaveText('Not available for your role');
      await expectNoSeriousViolations(viewer, 'viewer: 403 page');
      const missing = await viewer.goto('/no-such-page');
      expect(missing?.status()).toBe(404);
      await expect(viewer.getByRole('heading', { level: 1 })).toHaveText('Page not found');
      await expectNoSeriousViolations(viewer, '404 page');
      await context.close();
    });
  });
});

test.describe('accessibility (signed out)', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('sign-in and setup pages', async ({ page }) => {
    await page.goto('/sign-in');
    await expectNoSeriousViolations(page, 'sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The state under test is the answer: wait for it, not for the moment the form is pending.
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    await expect(page.locator('[aria-invalid="true"], [role="alert"]').first()).toBeVisible();
    await expectNoSeriousViolations(page, 'sign-in with errors');
    // Accounts exist, so setup answers 404 with its "already used — sign in" page.
    const setup = await page.goto('/setup');
    expect(setup?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Setup is done');
    await expectNoSeriousViolations(page, 'setup (404 once accounts exist)');
    await page.goto('/sandbox/verify/not-a-real-token-but-long-enough-0000000000');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link is not valid');
    await expectNoSeriousViolations(page, "person's page, invalid link");
  });
});
