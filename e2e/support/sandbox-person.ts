// The person's side of a request, played on the sandbox's own page: what the e-mail or the
// shareable link leads to. Opened in a fresh page without the staff member's cookies.
import { type Browser, expect } from '@playwright/test';

/**
 * The person completes the request with a passport whose document reads `identifiedName`, in a
 * browser with JavaScript or, when told, without (the page's forms then post as plain HTML).
 */
export async function completeAsThePerson(browser: Browser, link: string, identifiedName: string, { javaScriptEnabled = true } = {}) {
  const person = await browser.newPage({ storageState: { cookies: [], origins: [] }, javaScriptEnabled });
  await person.goto(link);
  await person.getByLabel('Name read from the identity document').fill(identifiedName);
  await person.getByRole('button', { name: 'Complete with a passport' }).click();
  await expect(person.getByRole('heading', { level: 1 })).toContainText('verified');
  await person.close();
}
