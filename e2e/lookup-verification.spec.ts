// Looking verifications up by id and reading their details.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { createdId, fillBasics, openCreateForm, submitCreate, uniqueName } from './support/fixtures';

test.describe('look up a verification', () => {
  test('found: whitespace is trimmed and the detail page shows the pending record', async ({ page }) => {
    const name = uniqueName('Greta Willems');
    await openCreateForm(page);
    await fillBasics(page, { name, email: 'greta@example.com' });
    await submitCreate(page);
    const id = await createdId(page);

    await page.goto('/');
    await page.getByLabel('Look up a verification by id').fill(`   ${id}  `);
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect(page).toHaveURL(new RegExp(`/verifications/${id}$`));

    const details = page.locator('dl').first();
    await expect(page.getByTestId('status')).toContainText('Pending');
    await expect(details).toContainText('Requested name');
    await expect(details).toContainText(name);
    await expect(details).toContainText('Not yet identified');
    await expect(details).toContainText('Legal obligation');
    await expect(details).toContainText(/expires in (7 days|6 days)/);
    await expect(details).toContainText(/data purged in (30|29) days/);
    // The exact timestamps stay available.
    await expect(details.locator('time').first()).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
  });

  test('not found', async ({ page }) => {
    await page.goto('/');
    await page.getByLabel('Look up a verification by id').fill(randomUUID());
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect(page.getByRole('heading', { name: 'Verification not found' })).toBeVisible();
  });

  test('an empty lookup is refused at the field', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect(page.locator('#lookup-id-error')).toHaveText('Enter the verification id you want to look up.');
  });

  test('invalid id', async ({ page }) => {
    await page.goto('/');
    await page.getByLabel('Look up a verification by id').fill('not-a-real-id');
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect(page.locator('[data-problem="invalid"]')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(/invalid verification id/i);
  });

  test("another company's verification is refused without showing any of it", async ({ page, request }) => {
    const secretName = uniqueName('Hidden Person');
    const response = await request.post('/v1/verifications/new', {
      headers: { Authorization: `Bearer ${process.env.E2E_OTHER_COMPANY_KEY}` },
      data: { name: secretName, email: 'hidden@example.com', chosenPurpose: 'ensuring_compliance', language: 'nl' },
    });
    expect(response.status()).toBe(200);
    const { verificationId } = (await response.json()) as { verificationId: string };

    await page.goto(`/verifications/${verificationId}`);
    await expect(page.locator('[data-problem="forbidden"]')).toBeVisible();
    await expect(page.getByText(secretName)).toHaveCount(0);
  });
});
