// Helpers shared by the browser tests.
import { expect, type Page } from '@playwright/test';

export const PURPOSE_LABELS = {
  legal_obligations: 'Legal obligation',
  processing_gdpr_request: 'Processing a GDPR request',
  ensuring_compliance: 'Ensuring compliance',
} as const;

/** A name no other test uses, so lists can be searched for it. */
export function uniqueName(base: string): string {
  return `${base} ${Math.random().toString(36).slice(2, 8)}`;
}

export async function openCreateForm(page: Page) {
  await page.goto('/verifications/new');
  await expect(page.getByRole('heading', { name: 'New verification request' })).toBeVisible();
}

export async function fillBasics(
  page: Page,
  { name, email, purpose = 'Legal obligation' }: { name: string; email?: string; purpose?: string },
) {
  await page.getByLabel('Full name').fill(name);
  if (email !== undefined) await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('radio', { name: purpose }).check();
}

export async function submitCreate(page: Page) {
  await page.getByRole('button', { name: 'Create verification request' }).click();
}

export async function createdId(page: Page): Promise<string> {
  const result = page.getByTestId('creation-result');
  await expect(result).toBeVisible();
  const id = (await result.getByTestId('verification-id').textContent())?.trim();
  expect(id).toBeTruthy();
  return id!;
}

/** Creates a request sent only through a shareable link, as the signed-in staff member; its id and link. */
export async function createSharedRequest(page: Page, name: string): Promise<{ id: string; link: string }> {
  await openCreateForm(page);
  await page.getByRole('switch', { name: 'Shareable link' }).check();
  await fillBasics(page, { name });
  await submitCreate(page);
  const id = await createdId(page);
  const link = await page.getByRole('textbox', { name: 'Shareable link' }).inputValue();
  return { id, link };
}
