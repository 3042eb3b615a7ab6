// The create form's progressive enhancement (components/verifications/create-verification-form.tsx):
// the page's first load is a plain form without react-hook-form; the enhanced form comes after
// the load event or at the first interaction, and takes over without losing anything the person
// did. Until it has come, the plain form posts to the server, which validates.
import { expect, type Page, type Request, test } from '@playwright/test';
import { createdId, openCreateForm, submitCreate, uniqueName } from './support/fixtures';

/** A string only react-hook-form's code contains: marks the chunk that carries it. */
const RHF_MARKER = 'HookFormContext';

/**
 * Holds back every script chunk carrying react-hook-form until `release()`: the time before the
 * enhanced form's code arrives, stretched at will. Every other chunk passes at once.
 */
async function holdEnhancedForm(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await page.route('**/_next/static/chunks/**', async (route) => {
    const response = await route.fetch();
    const body = await response.body();
    if (body.includes(RHF_MARKER)) {
      held += 1;
      await released;
    }
    await route.fulfill({ response, body });
  });
  return { release, held: () => held };
}

/** The scripts the page fetched, split by whether they had arrived when the load event began. */
async function scriptsAroundLoad(page: Page): Promise<{ atLoad: string[]; afterLoad: string[] }> {
  return page.evaluate(() => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((entry) =>
      new URL(entry.name).pathname.endsWith('.js'),
    );
    return {
      atLoad: scripts.filter((entry) => entry.responseEnd <= navigation!.loadEventStart).map((entry) => entry.name),
      afterLoad: scripts.filter((entry) => entry.responseEnd > navigation!.loadEventStart).map((entry) => entry.name),
    };
  });
}

async function withMarker(page: Page, urls: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const url of urls) {
    if ((await (await page.request.get(url)).text()).includes(RHF_MARKER)) found.push(url);
  }
  return found;
}

/**
 * The next server action call of the page, read to its end. Next cancels the body once it has
 * the answer, so the request ends as "failed" (net::ERR_ABORTED) as often as "finished".
 */
function actionSettled(page: Page): Promise<void> {
  return new Promise((resolve) => {
    const settled = (request: Request) => {
      if (request.method() !== 'POST' || new URL(request.url()).pathname !== '/verifications/new') return;
      page.off('requestfinished', settled);
      page.off('requestfailed', settled);
      resolve();
    };
    page.on('requestfinished', settled);
    page.on('requestfailed', settled);
  });
}

/** The create form (the header's sign-out button is a form too). */
const form = (page: Page) => page.locator('form:has(input[name="submissionKey"])');

test.describe('the create form before and after its enhanced code', () => {
  // A held chunk request may still be in flight when a test ends (prefetches, a late release).
  test.afterEach(({ page }) => page.unrouteAll({ behavior: 'ignoreErrors' }));

  test('react-hook-form is not in the first load; after the first interaction the form validates in the browser', async ({ page }) => {
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    await openCreateForm(page);
    const before = await scriptsAroundLoad(page);
    expect(before.atLoad.length, 'scripts of the first load').toBeGreaterThan(0);
    expect(await withMarker(page, before.atLoad), 'first-load scripts carrying react-hook-form').toEqual([]);

    // The first blur of an empty required field: react-hook-form's onTouched check, no post.
    await page.getByLabel('Full name').focus();
    await page.keyboard.press('Tab');
    await expect(page.locator('#name-error')).toHaveText("Enter the person's full name.");
    await expect(page.getByLabel('Full name')).toHaveAttribute('aria-invalid', 'true');
    await expect(form(page)).toHaveAttribute('data-enhanced', 'true');
    expect(posts, 'POSTs while validating in the browser').toEqual([]);

    // The marker is not vacuous: the code that came after the load event carries it.
    const after = await scriptsAroundLoad(page);
    expect(await withMarker(page, after.afterLoad), 'react-hook-form fetched after the load event').not.toEqual([]);
  });

  test('typing from the start: every character, the focus and the caret survive the swap', async ({ page }) => {
    const hold = await holdEnhancedForm(page);
    await openCreateForm(page);
    const name = page.getByLabel('Full name');
    await name.click();
    await page.keyboard.type('Alice Martin');
    // The caret in the middle, so characters typed after the swap show where they landed.
    await page.keyboard.press('Home');
    for (let i = 0; i < 'Alice'.length; i += 1) await page.keyboard.press('ArrowRight');
    await page.keyboard.type(' B.');
    await expect(form(page)).not.toHaveAttribute('data-enhanced');
    expect(hold.held(), 'enhanced form requested and held').toBeGreaterThan(0);

    hold.release();
    // Typing goes on, one key at a time, while the code arrives and until a few keys after the
    // enhanced form took over.
    let typed = '';
    let afterSwap = 0;
    for (const char of 'abcdefghijklmnopqrstuvwxyz'.repeat(4)) {
      await page.keyboard.type(char);
      typed += char;
      if ((await form(page).getAttribute('data-enhanced')) === 'true') afterSwap += 1;
      if (afterSwap === 5) break;
    }
    expect(afterSwap, 'keys typed into the enhanced form').toBe(5);

    await expect(name).toHaveValue(`Alice B.${typed} Martin`);
    await expect(name).toBeFocused();
    const caret = await name.evaluate((input: HTMLInputElement) => [input.selectionStart, input.selectionEnd]);
    expect(caret).toEqual([8 + typed.length, 8 + typed.length]);
    // And editing goes on from there in the enhanced form.
    await page.keyboard.press('Shift+Home');
    await page.keyboard.type('Bob');
    await expect(name).toHaveValue('Bob Martin');
  });

  test('a selection made before the swap is still selected after it', async ({ page }) => {
    const hold = await holdEnhancedForm(page);
    await openCreateForm(page);
    const purpose = page.getByRole('radio', { name: 'Other…' });
    await purpose.check();
    const custom = page.getByRole('textbox', { name: 'Describe the purpose' });
    await custom.click();
    await page.keyboard.type('Supplier onboarding');
    // "onboarding" selected, backwards.
    for (let i = 0; i < 'onboarding'.length; i += 1) await page.keyboard.press('Shift+ArrowLeft');
    hold.release();
    await expect(form(page)).toHaveAttribute('data-enhanced', 'true');
    await expect(custom).toBeFocused();
    expect(await custom.evaluate((area: HTMLTextAreaElement) => [area.selectionStart, area.selectionEnd, area.selectionDirection])).toEqual(
      [9, 19, 'backward'],
    );
    await page.keyboard.type('audit');
    await expect(custom).toHaveValue('Supplier audit');
    await expect(purpose).toBeChecked();
  });

  test('a submit before the enhanced form has come is answered by the server, values kept, then creates', async ({ page }) => {
    const hold = await holdEnhancedForm(page);
    await openCreateForm(page);
    const name = uniqueName('Plain Post');
    await page.getByLabel('Full name').fill(name);
    await page.getByRole('radio', { name: 'Legal obligation' }).check();
    await page.getByLabel('Language').selectOption('nl');
    await page.getByRole('switch', { name: 'SMS notification' }).check();
    await page.getByLabel('Mobile number').fill('0470');
    await submitCreate(page);

    // The server's answer, field by field, with every value kept and the first field in question focused.
    // An SMS without an e-mail address or a link: said at the SMS switch, not at the e-mail field.
    const sms = page.getByRole('switch', { name: 'SMS notification' });
    await expect(page.locator('#smsNotification-error')).toContainText('An SMS cannot be the only way to reach the person');
    await expect(page.locator('#email-error')).toHaveText('');
    await expect(page.locator('#phone-error')).toContainText('Too few digits for a number in Belgium');
    await expect(sms).toHaveAttribute('aria-invalid', 'true');
    await expect(sms).toBeFocused();
    await expect(form(page).getByRole('alert')).toContainText('Some details need your attention');
    await expect(page.getByLabel('Full name')).toHaveValue(name);
    await expect(page.getByRole('radio', { name: 'Legal obligation' })).toBeChecked();
    await expect(page.getByLabel('Language')).toHaveValue('nl');
    await expect(page.getByRole('switch', { name: 'SMS notification' })).toBeChecked();
    await expect(page.getByLabel('Mobile number')).toHaveValue('0470');
    await expect(form(page)).not.toHaveAttribute('data-enhanced');
    expect(hold.held(), 'enhanced form requested and held').toBeGreaterThan(0);

    // Still without it: a valid post creates. The result panel's code is the held module, so
    // the form stays on screen, pending, until it comes — never an empty panel.
    await page.getByLabel('E-mail address').fill('plain.post@example.com');
    await page.getByLabel('Mobile number').fill('+32 470 12 34 56');
    const answered = actionSettled(page);
    await submitCreate(page);
    await answered;
    // The answer is in; two painted frames later React has had it (a state of the page, not a time).
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await expect(page.getByRole('button', { name: 'Creating request…' })).toBeDisabled();
    await expect(page.getByTestId('creation-result')).toHaveCount(0);

    hold.release();
    await createdId(page);
    await expect(page.getByTestId('creation-result')).toContainText('Verification request created successfully.');

    // "Create another request": an empty form, now the enhanced one.
    await page.getByRole('link', { name: 'Create another request' }).click();
    await expect(page.getByLabel('Full name')).toHaveValue('');
    await expect(page.getByLabel('Language')).toHaveValue('en');
    await expect(page.getByRole('switch', { name: 'SMS notification' })).not.toBeChecked();
    await expect(form(page)).toHaveAttribute('data-enhanced', 'true');
    await expect(form(page).getByRole('alert')).toHaveCount(0);
  });

  test('the swap changes nothing on screen: untouched, and with the server’s errors', async ({ page }) => {
    const hold = await holdEnhancedForm(page);
    await openCreateForm(page);
    const untouched = await form(page).screenshot();
    hold.release();
    await expect(form(page)).toHaveAttribute('data-enhanced', 'true');
    expect((await form(page).screenshot()).equals(untouched), 'untouched form, before and after the swap').toBe(true);

    // A fresh load, held again; an empty post answered by the server.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    const held = await holdEnhancedForm(page);
    await openCreateForm(page);
    await page.getByRole('radio', { name: 'Other…' }).check();
    await submitCreate(page);
    await expect(page.locator('#name-error')).toHaveText("Enter the person's full name.");
    await expect(page.locator('#customPurpose-error')).toHaveText('Describe the purpose of the verification.');
    await expect(page.getByLabel('Full name')).toBeFocused();
    await expect(form(page)).not.toHaveAttribute('data-enhanced');
    const withErrors = await form(page).screenshot();
    held.release();
    await expect(form(page)).toHaveAttribute('data-enhanced', 'true');
    expect((await form(page).screenshot()).equals(withErrors), 'form with the server’s errors, before and after the swap').toBe(true);
    await expect(page.getByLabel('Full name')).toBeFocused();
  });
});
