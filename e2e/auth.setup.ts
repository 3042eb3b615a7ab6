// Signs each role in once through the real sign-in page and keeps the cookies for the tests.
import { expect, test as setup } from '@playwright/test';
import { type Role, STAFF, storageStateOf } from './support/staff';

for (const role of Object.keys(STAFF) as Role[]) {
  setup(`sign in as ${role}`, async ({ page }) => {
    await page.goto('/sign-in');
    await page.getByLabel('E-mail address').fill(STAFF[role].email);
    await page.getByLabel('Password').fill(STAFF[role].password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('signed-in-as')).toHaveText(STAFF[role].name);
    await page.context().storageState({ path: storageStateOf(role) });
  });
}
