// Creating verification requests in the browser, against the embedded sandbox.
import { expect, test } from '@playwright/test';
import { createdId, fillBasics, openCreateForm, submitCreate, uniqueName } from './support/fixtures';
import { completeAsThePerson } from './support/sandbox-person';
import { listServerActions } from './support/server-actions';

test.describe('create a verification request', () => {
  test('with an e-mail notification', async ({ page }) => {
    const name = uniqueName('Alice Martin');
    await openCreateForm(page);
    await fillBasics(page, { name, email: 'alice@example.com', purpose: 'Processing a GDPR request' });
    await page.getByLabel('Language').selectOption('fr');
    await submitCreate(page);

    const id = await createdId(page);
    const result = page.getByTestId('creation-result');
    await expect(result).toContainText('Verification request created successfully.');
    await expect(result.getByRole('textbox', { name: 'Shareable link' })).toHaveCount(0);

    await result.getByRole('link', { name: 'Open the verification' }).click();
    await expect(page).toHaveURL(new RegExp(`/verifications/${id}$`));
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByTestId('status')).toContainText('Pending');

    // The sandbox recorded the e-mail it would have sent, in the request's language.
    await page.goto('/outbox');
    const row = page.getByRole('row').filter({ hasText: 'alice@example.com' }).first();
    await expect(row).toContainText(/e-?mail/i);
    await expect(row).toContainText(/fr/);
  });

  test('with a shareable link, copied to the clipboard', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const name = uniqueName('Bram Peeters');
    await openCreateForm(page);

    await page.getByRole('switch', { name: 'Shareable link' }).check();
    // E-mail becomes optional and the e-mail notification is switched off, with the reason.
    await expect(page.getByText('E-mail address(optional)')).toBeVisible();
    const emailSwitch = page.getByRole('switch', { name: 'E-mail notification' });
    await expect(emailSwitch).toBeDisabled();
    await expect(emailSwitch).not.toBeChecked();
    await expect(page.getByText('Off: with a shareable link, the service sends no e-mail.')).toBeVisible();

    await fillBasics(page, { name, purpose: 'Ensuring compliance' });
    await submitCreate(page);
    const id = await createdId(page);

    const linkField = page.getByRole('textbox', { name: 'Shareable link' });
    const link = await linkField.inputValue();
    expect(link).toMatch(/^http:\/\/localhost:\d+\/sandbox\/verify\/[A-Za-z0-9_-]{20,}$/);
    expect(link).not.toContain(id);
    await expect(page.getByRole('img', { name: 'QR code of the shareable link' })).toBeVisible();

    await page.getByRole('button', { name: 'Copy link' }).click();
    await expect(page.getByRole('button', { name: 'Link copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    // The link can be copied again later from Recent requests.
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.goto('/');
    await page.getByRole('button', { name: `Copy link for ${name}` }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    // The person's page says what the request is for.
    await page.goto(link);
    await expect(page.getByText(name)).toBeVisible();
    await expect(page.getByText('Ensuring compliance')).toBeVisible();
  });

  test('SMS without a phone or with a bad one is refused at the field; a national number is shown and sent as E.164', async ({ page }) => {
    const name = uniqueName('Chloé Dubois');
    await openCreateForm(page);
    await fillBasics(page, { name, email: 'chloe@example.com' });
    const phone = page.getByLabel('Mobile number');
    await expect(phone).toBeHidden();
    await page.getByRole('switch', { name: 'SMS notification' }).check();
    await expect(phone).toBeVisible();

    await submitCreate(page);
    await expect(phone).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#phone-error')).toHaveText('Enter a mobile number to send the SMS to.');
    await expect(phone).toBeFocused();

    await phone.fill('0470 12');
    await submitCreate(page);
    await expect(page.locator('#phone-error')).toHaveText('Too few digits for a number in Belgium (+32). Check that none is missing.');
    await expect(page.getByTestId('creation-result')).toHaveCount(0);
    // Nothing typed was lost.
    await expect(page.getByLabel('Full name')).toHaveValue(name);
    await expect(page.getByLabel('E-mail address')).toHaveValue('chloe@example.com');

    // The test server is a Belgian team's (DEFAULT_PHONE_REGION=BE): a national number is taken,
    // and shown as it will be sent once the field is left.
    await phone.fill('0470 12 34 56');
    await phone.blur();
    await expect(phone).toHaveValue('+32 470 12 34 56');
    await expect(page.locator('#phone-error')).toHaveText('');
    await submitCreate(page);
    await createdId(page);

    await page.goto('/outbox');
    await expect(page.getByRole('row').filter({ hasText: '+32470123456' }).first()).toContainText(/sms/i);
  });

  test('a custom purpose is revealed by "Other…" and required', async ({ page }) => {
    const name = uniqueName('Dirk Janssens');
    await openCreateForm(page);
    await fillBasics(page, { name, email: 'dirk@example.com', purpose: 'Other…' });
    const custom = page.getByRole('textbox', { name: 'Describe the purpose' });
    await expect(custom).toBeVisible();
    await submitCreate(page);
    await expect(page.locator('#customPurpose-error')).toHaveText('Describe the purpose of the verification.');
    await custom.fill('Onboarding of a new supplier');
    await submitCreate(page);
    const id = await createdId(page);
    await page.goto(`/verifications/${id}`);
    await expect(page.getByText('Onboarding of a new supplier')).toBeVisible();
  });

  test("the person's page works without JavaScript: its form posts carry the page's origin and are accepted", async ({ page, browser }) => {
    const name = uniqueName('Greta Lindqvist');
    await openCreateForm(page);
    await page.getByRole('switch', { name: 'Shareable link' }).check();
    await fillBasics(page, { name, purpose: 'Ensuring compliance' });
    await submitCreate(page);
    const link = await page.getByRole('textbox', { name: 'Shareable link' }).inputValue();
    // Only the browser decides which Origin a plain form post sends under the page's referrer policy.
    await completeAsThePerson(browser, link, name, { javaScriptEnabled: false });
  });

  // What the browser adds to "one form, one request": however many posts a double click sends,
  // they carry one submission key. That the server then creates once per key, concurrent copies
  // included, is proven in lib/verifications/create-verification.test.ts.
  test('a double click sends one submission key, and the form shows one result', async ({ page }) => {
    const name = uniqueName('Eva Claes');
    await openCreateForm(page);
    await fillBasics(page, { name, email: 'eva@example.com' });
    const createAction = listServerActions().find((action) => action.name === 'createVerificationAction')!.id;
    const keys: string[][] = [];
    page.on('request', (request) => {
      if (request.method() !== 'POST' || request.headers()['next-action'] !== createAction) return;
      const body = request.postDataBuffer()?.toString('utf8') ?? '';
      keys.push(
        [...body.matchAll(/submissionKey[^0-9a-f]{1,40}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/g)].map((m) => m[1]!),
      );
    });
    await page.getByRole('button', { name: 'Create verification request' }).dblclick();
    await createdId(page);
    await expect(page.getByTestId('creation-result')).toHaveCount(1);
    expect(keys.length, 'create posts sent').toBeGreaterThan(0);
    expect(
      keys.every((found) => found.length > 0),
      JSON.stringify(keys),
    ).toBe(true);
    expect(new Set(keys.flat()).size, JSON.stringify(keys)).toBe(1);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the form validates on the server, keeps the input, and creates the request', async ({ page }) => {
    const name = uniqueName('Farid El Amrani');
    await openCreateForm(page);
    await page.getByLabel('Full name').fill(name);
    await page.getByRole('radio', { name: 'Legal obligation' }).check();
    await submitCreate(page);

    // Missing e-mail: refused with the message at the field, the name kept.
    await expect(page.locator('#email-error')).toContainText('Enter an e-mail address');
    await expect(page.getByLabel('Full name')).toHaveValue(name);
    await expect(page.getByRole('radio', { name: 'Legal obligation' })).toBeChecked();

    await page.getByLabel('E-mail address').fill('farid@example.com');
    await submitCreate(page);
    await expect(page.getByTestId('creation-result')).toContainText('Verification request created successfully.');
  });
});
