// Finding a request again (search that ignores case and accents, a lookup that takes a pasted
// address, one identity per id whatever its case) and the create form's channel and phone rules.
import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/accessibility';
import { createdId, fillBasics, openCreateForm, submitCreate, uniqueName } from './support/fixtures';
import { storageStateOf } from './support/staff';

async function createRequest(page: Page, name: string): Promise<string> {
  await openCreateForm(page);
  await fillBasics(page, { name, email: 'finding.test@example.com' });
  await submitCreate(page);
  return createdId(page);
}

const register = (page: Page) => page.getByRole('region', { name: 'Recent requests' });

test.describe('finding a request', () => {
  test('a search for "elodie" finds "Élodie", whatever the case and accents typed', async ({ page }) => {
    // A tag no other test uses keeps the search to this request on the shared server.
    const tag = uniqueName('fd').replace(' ', '');
    const name = `Élodie Martin ${tag}`;
    await createRequest(page, name);

    for (const term of [`elodie martin ${tag}`, `ELODIE MARTIN ${tag.toUpperCase()}`]) {
      await page.goto('/');
      await page.getByLabel('Search by name or id').fill(term);
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await expect(register(page).getByRole('link', { name, exact: true })).toHaveCount(1);
    }
  });

  test('the lookup opens a detail page address pasted with spaces around it, and the page shows the pending record', async ({ page }) => {
    const name = uniqueName('Pasted Address');
    const id = await createRequest(page, name);
    // As copied from the address bar, with a trailing slash and a query, and spaces around it.
    const address = new URL(`/verifications/${id}/?from=chat`, page.url()).toString();

    await page.goto('/');
    await page.getByLabel('Look up a verification by id or page address').fill(`   ${address}  `);
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect(page).toHaveURL(new RegExp(`/verifications/${id}$`));
    await expect(page.getByRole('heading', { name: 'Request', exact: true })).toBeVisible();
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

  test('the lookup says what is wrong with an address that is neither a detail page nor a person’s link, and keeps it', async ({
    page,
  }) => {
    await page.goto('/');
    const box = page.getByLabel('Look up a verification by id or page address');
    await box.fill('https://desk.example.com/audit');
    await page.getByRole('button', { name: 'Look up' }).click();
    // Only the register knows whether it is someone's link: the server answers.
    await expect(page.locator('#lookup-id-error')).toContainText(
      'No request in the register has this link, and it is not a verification’s page.',
    );
    await expect(box).toHaveValue('https://desk.example.com/audit');
    await expectNoSeriousViolations(page);
  });

  test.describe('as an administrator', () => {
    test.use({ storageState: storageStateOf('admin') });

    test('an uppercased id opens the same record, with its Request card, audited under one id', async ({ page }) => {
      const id = await createRequest(page, uniqueName('Upper Case'));
      expect(id).toBe(id.toLowerCase());

      await page.goto(`/verifications/${id.toUpperCase()}`);
      await expect(page).toHaveURL(new RegExp(`/verifications/${id}$`));
      await expect(page.getByRole('heading', { name: 'Request', exact: true })).toBeVisible();

      // The lookup takes it in capitals too.
      await page.goto('/');
      await page.getByLabel('Look up a verification by id or page address').fill(id.toUpperCase());
      await page.getByRole('button', { name: 'Look up' }).click();
      await expect(page).toHaveURL(new RegExp(`/verifications/${id}$`));
      await expect(page.getByRole('heading', { name: 'Request', exact: true })).toBeVisible();

      // Both views, a minute apart at most, are one "viewed" entry under the lowercase id.
      await page.goto('/audit?action=verification.viewed');
      await expect(page.getByRole('link', { name: id, exact: true })).toHaveCount(1);
      await expect(page.getByText(id.toUpperCase(), { exact: true })).toHaveCount(0);
    });
  });
});

test.describe('channels and phone numbers', () => {
  test('"+32 470" is refused at the phone field, keeping what was typed; the full number is sent as E.164', async ({ page }) => {
    const name = uniqueName('Phone Check');
    await openCreateForm(page);
    await fillBasics(page, { name, email: 'phone.check@example.com' });
    await page.getByRole('switch', { name: 'SMS notification' }).check();
    const phone = page.getByLabel('Mobile number');
    await phone.fill('+32 470');
    // Submitted from the field itself: a click would first blur it, and the message that blur
    // shows moves the button away from under the pointer.
    await phone.press('Enter');

    await expect(page.locator('#phone-error')).toHaveText('Too few digits for a number in Belgium (+32). Check that none is missing.');
    await expect(phone).toHaveAttribute('aria-invalid', 'true');
    await expect(phone).toHaveValue('+32 470');
    await expect(page.getByLabel('Full name')).toHaveValue(name);
    await expect(page.getByLabel('E-mail address')).toHaveValue('phone.check@example.com');
    await expect(page.getByTestId('creation-result')).toHaveCount(0);

    await phone.fill('+32 470 12 34 56');
    await submitCreate(page);
    await createdId(page);
    await page.goto('/outbox');
    await expect(page.getByRole('row').filter({ hasText: '+32470123456' }).first()).toContainText(/sms/i);
  });

  test('the SMS switch says an SMS cannot go alone, and a lone SMS is refused there, not at the e-mail field', async ({ page }) => {
    await openCreateForm(page);
    const sms = page.getByRole('switch', { name: 'SMS notification' });
    await expect(sms).toHaveAccessibleDescription(
      /An SMS cannot go alone: the service needs the person’s e-mail address unless you use a shareable link\./,
    );

    await fillBasics(page, { name: uniqueName('Lone Sms') });
    await sms.check();
    await page.getByLabel('Mobile number').fill('+32 470 12 34 56');
    await submitCreate(page);
    await expect(page.locator('#smsNotification-error')).toContainText('An SMS cannot be the only way to reach the person');
    await expect(sms).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#email-error')).toHaveText('');
    await expectNoSeriousViolations(page);

    // Giving the e-mail address settles it.
    await page.getByLabel('E-mail address').fill('lone.sms@example.com');
    await expect(page.locator('#smsNotification-error')).toHaveText('');
    await submitCreate(page);
    await createdId(page);
  });
});
