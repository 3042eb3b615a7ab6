// Looking verifications up by id and reading their details.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { uniqueName } from './support/fixtures';

test.describe('look up a verification', () => {
  // Found, with spaces around the id or a whole address pasted: finding-and-phones.spec.ts, which
  // also reads the pending record on the page it opens.
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
