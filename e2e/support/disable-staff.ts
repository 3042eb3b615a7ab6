// Disables a colleague on the staff page the way an administrator does: the row's Disable
// button, then the confirmation dialog's own Disable button.
import { expect, type Locator, type Page } from '@playwright/test';

/** `scope`: the colleague's row, or the page when their name is unique on it. */
export async function disableThroughDialog(page: Page, scope: Locator | Page, name: string): Promise<void> {
  await scope.getByRole('link', { name: `Disable ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Disable ${name}?` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: `Disable ${name}` }).click();
}
