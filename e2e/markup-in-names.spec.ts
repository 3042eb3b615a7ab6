// "A name like <script>alert(1)</script> renders as text everywhere" (docs/quality.md): requests whose
// name and free-text purpose are markup are created through the form, a person answers one with a
// markup name while its detail page is open, and a staff member gets a markup display name; then
// every page that shows them is visited. No dialog may open, the text
// must be shown literally, and no element may have been injected. The CSP would block an injected
// inline script anyway, so "no dialog" alone proves little: the DOM checks are the real test.
import { expect, type Page, test } from '@playwright/test';
import { createdId, openCreateForm, submitCreate } from './support/fixtures';
import { acceptInvitationIn, inviteOnStaffPage } from './support/invitations';
import { storageStateOf } from './support/staff';

const SUFFIX = Math.random().toString(36).slice(2, 8);
const SCRIPT = '<script>alert(1)</script>';
const IMG = '"><img src=x onerror=alert(1)>';

/** Collects dialogs instead of letting one pass unnoticed; the test asserts there were none. */
function watchDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()} on ${page.url()}`);
    void dialog.dismiss();
  });
  return dialogs;
}

async function expectNothingInjected(page: Page, where: string) {
  expect(await page.locator('img[src="x"]').count(), `${where}: injected <img>`).toBe(0);
  expect(await page.locator('[onerror]').count(), `${where}: element with onerror`).toBe(0);
  // Next's inline RSC scripts carry the names as JSON data; a script whose whole code is the
  // payload is an injected one.
  const scripts = await page.locator('script').evaluateAll((nodes) => nodes.map((node) => node.textContent?.trim() ?? ''));
  expect(
    scripts.filter((code) => code === 'alert(1)'),
    `${where}: injected <script>`,
  ).toEqual([]);
}

/** The literal text is on the page as text (not only inside attributes or scripts). */
async function expectLiteral(page: Page, text: string, where: string) {
  await expect(page.getByText(text, { exact: false }).first(), `${where}: "${text}" shown as text`).toBeVisible();
}

interface Created {
  id: string;
  name: string;
  purpose: string;
  link: string;
  language: 'en' | 'fr' | 'nl';
}

async function createThroughForm(page: Page, request: Omit<Created, 'id' | 'link'>): Promise<Created> {
  await openCreateForm(page);
  await page.getByLabel('Full name').fill(request.name);
  await page.getByRole('radio', { name: 'Other…' }).check();
  await page.getByRole('textbox', { name: 'Describe the purpose' }).fill(request.purpose);
  await page.getByLabel('Language').selectOption(request.language);
  await page.getByRole('switch', { name: 'Shareable link' }).check();
  await submitCreate(page);
  const id = await createdId(page);
  const link = await page.locator('#shareable-link').inputValue();
  await expectNothingInjected(page, 'result panel');
  return { ...request, id, link };
}

/** The person's page of a request: in its language, both texts shown literally, the name pre-filled as a value. */
async function expectPersonPage(page: Page, request: Created) {
  await page.goto(request.link);
  // The page is in the request's language (set on its main content).
  await expect(page.locator(`[lang="${request.language}"]`).first()).toBeVisible();
  await expectLiteral(page, request.name, `person page ${request.language}`);
  await expectLiteral(page, request.purpose, `person page purpose ${request.language}`);
  // The identified-name box is pre-filled with the requested name: as a value, not markup.
  await expect(page.locator('#identified-name')).toHaveValue(request.name);
  await expectNothingInjected(page, `person page ${request.language}`);
}

// As an administrator: the staff step needs one, and anyone signed in creates requests.
test.use({ storageState: storageStateOf('admin') });

test('markup in names, purposes, an identified name and a staff name renders as text on every page, also when it arrives live', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const dialogs = watchDialogs(page);
  const requests: Created[] = [];
  for (const [name, purpose, language] of [
    [`${SCRIPT} ${SUFFIX}`, `${IMG} ${SUFFIX}`, 'en'],
    [`${IMG} ${SUFFIX}`, `${SCRIPT} ${SUFFIX}`, 'fr'],
    [`${SCRIPT}${IMG} ${SUFFIX}`, `${SCRIPT}${IMG} ${SUFFIX}`, 'nl'],
  ] as const) {
    requests.push(await createThroughForm(page, { name, purpose, language }));
  }
  const [english, ...others] = requests as [Created, ...Created[]];

  await test.step('the register and its search', async () => {
    await page.goto('/');
    for (const request of requests) await expectLiteral(page, request.name, 'register');
    await expectNothingInjected(page, 'register');
    // The search box echoes the query; the query itself is markup here.
    await page.goto(`/?q=${encodeURIComponent(`${SCRIPT} ${SUFFIX}`)}`);
    await expect(page.getByRole('searchbox')).toHaveValue(`${SCRIPT} ${SUFFIX}`);
    await expectLiteral(page, english.name, 'register search');
    await expectNothingInjected(page, 'register search');
  });

  await test.step("the person's page, in French and Dutch", async () => {
    for (const request of others) await expectPersonPage(page, request);
  });

  await test.step('the detail pages', async () => {
    // The English request last: its page stays open for the person's answer below.
    for (const request of [...others, english]) {
      await page.goto(`/verifications/${request.id}`);
      const heading = page.getByRole('heading', { level: 1 });
      expect(await heading.evaluate((node) => node.textContent)).toBe(request.name);
      await expectLiteral(page, request.purpose, 'detail purpose');
      await expectNothingInjected(page, `detail ${request.language}`);
    }
  });

  await test.step("the person's page in English, answered with a markup name while the detail page is open", async () => {
    // What the person "reads from the document": markup again, different from the request's.
    const identified = `${IMG}<script>alert(2)</script> ${SUFFIX}`;
    await expect(page.getByTestId('status')).toContainText('Pending');
    await expect(page.getByText('Live', { exact: true })).toBeVisible();
    // Marks the document: a reload would drop the mark, so the update below is a live one.
    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));

    const personContext = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const person = await personContext.newPage();
    const personDialogs = watchDialogs(person);
    await expectPersonPage(person, english);
    await person.getByLabel('Name read from the identity document').fill(identified);
    await person.getByRole('button', { name: 'Complete with a passport' }).click();
    await expect(person.getByRole('heading', { level: 1 })).toHaveText('Thank you — your identity has been verified');
    await expectNothingInjected(person, "person's page, completed");
    await personContext.close();

    await expect(page.getByTestId('status')).toContainText('Completed');
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    const identifiedRow = page
      .locator('dl')
      .first()
      .locator('div')
      .filter({ has: page.locator('dt', { hasText: 'Identified name' }) });
    await expect(identifiedRow.locator('dd')).toHaveText(identified);
    expect(await identifiedRow.locator('dd').evaluate((node) => node.children.length), 'elements inside the identified name').toBe(0);
    expect(await page.getByRole('heading', { level: 1 }).evaluate((node) => node.textContent)).toBe(english.name);
    await expectNothingInjected(page, 'detail page after the live update');
    // Neither name added an element anywhere: the only <script>s are Next's own, none of them ours.
    const scripts = await page.locator('script').evaluateAll((nodes) => nodes.map((node) => node.textContent?.trim() ?? ''));
    expect(
      scripts.filter((code) => code === 'alert(2)'),
      'injected <script> from the identified name',
    ).toEqual([]);
    expect(personDialogs).toEqual([]);
  });

  await test.step('the outbox', async () => {
    await page.goto('/outbox');
    await expect(page.getByRole('heading', { level: 1, name: 'Sandbox outbox' })).toBeVisible();
    await expectNothingInjected(page, 'outbox');
  });

  await test.step('staff, audit trail and the signed-in name (the administrator creates a staff member)', async () => {
    const staffName = `${IMG}${SCRIPT} ${SUFFIX}`;
    const email = `markup.${SUFFIX}@example.com`;
    const link = await inviteOnStaffPage(page, { name: staffName, email, role: 'viewer' });
    // The action renders the page again with its list: the new account is in it, no reload needed.
    await expect(page.getByRole('main').locator('table').getByText(staffName).first(), 'staff list').toBeVisible();
    await expectNothingInjected(page, 'staff list');
    await page.goto('/audit');
    // In the entries (the "staff.created" target) and as an option of the actor filter.
    await expect(page.getByTestId('audit-entries').getByText(staffName).first()).toBeVisible();
    await expect(page.locator('option', { hasText: staffName })).toHaveCount(1);
    await expectNothingInjected(page, 'audit trail');

    const ownContext = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const own = await ownContext.newPage();
    const ownDialogs = watchDialogs(own);
    // The invitation page greets them by name (as text), and signs them in.
    await acceptInvitationIn(own, link, { name: staffName, role: 'viewer' }, 'markup tester long password');
    await expectNothingInjected(own, 'signed-in name');
    await ownContext.close();
    expect(ownDialogs).toEqual([]);
  });

  expect(dialogs).toEqual([]);
});
