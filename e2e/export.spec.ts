// Export for auditors: the register's CSV with the filters on screen, the audit trail narrowed to
// one verification and exported, and who may do which — in a real Chromium against the build.
import { readFileSync } from 'node:fs';
import { type Download, expect, type Page, test } from '@playwright/test';
import { parseCsv } from '../test/support/parse-csv';
import { expectNoSeriousViolations } from './support/accessibility';
import { createdId, fillBasics, openCreateForm, submitCreate, uniqueName } from './support/fixtures';
import { STAFF, storageStateOf } from './support/staff';

/** Creates a pending request with an e-mail notification; returns its id. */
async function createRequest(page: Page, name: string): Promise<string> {
  await openCreateForm(page);
  await fillBasics(page, { name, email: 'export.test@example.com' });
  await submitCreate(page);
  return createdId(page);
}

/** Clicks a page's "Export CSV" and returns the downloaded file's bytes. */
async function downloadExport(page: Page): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
  const file = await download.path();
  return { download, bytes: readFileSync(file) };
}

const today = () => new Date().toISOString().slice(0, 10);

test.describe('export for auditors', () => {
  test.use({ storageState: storageStateOf('admin') });

  // One tag no other test uses, so a search for it finds exactly these requests.
  const tag = uniqueName('ex').replace(' ', '');
  const accented = `Élodie Dubois ${tag}`;
  const formula = `=HYPERLINK("http://evil.example") ${tag}`;
  let accentedId: string;
  let formulaId: string;

  test.beforeAll(async ({ browser }) => {
    const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, storageState: storageStateOf('operator') });
    const page = await context.newPage();
    accentedId = await createRequest(page, accented);
    formulaId = await createRequest(page, formula);
    await context.close();
  });

  test('an administrator downloads the register with a search applied: BOM, only the matching rows, formulas neutralised, and the export audited', async ({
    page,
  }) => {
    await page.goto('/');
    await page.getByLabel('Search by name or id').fill(tag);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}`));
    await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', `/api/exports/register?q=${tag}`);

    const { download, bytes } = await downloadExport(page);
    expect(download.suggestedFilename()).toBe(`verification-register-${today()}.csv`);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"") ${tag}"`);
    const [header, ...rows] = parseCsv(text);
    expect(header?.slice(0, 5)).toEqual([
      'Verification id',
      'Created at (UTC)',
      'Created by (staff id)',
      'Created by (name)',
      'Requested name',
    ]);
    expect(rows.map((cells) => [cells[0], cells[3], cells[4], cells[7], cells[8]])).toEqual([
      [formulaId, STAFF.operator.name, `'${formula}`, 'E-mail', 'Pending'],
      [accentedId, STAFF.operator.name, accented, 'E-mail', 'Pending'],
    ]);
    expect(text).not.toContain('export.test@example.com');

    // Audited once the file had gone out: by the administrator, with the row count and no search text.
    await page.goto('/audit?action=register.exported');
    const entry = page.getByTestId('audit-entries').locator('tr[data-action="register.exported"]').first();
    await expect(entry.locator('td:nth-child(2)')).toHaveText(STAFF.admin.name);
    await expect(entry.locator('td:nth-child(5)')).toHaveText(/^2 rows · Filters: .*a search/);
    await expect(entry).not.toContainText(tag);
  });

  test('the audit trail filters by verification id, keeps it in the URL, and exports just that history', async ({ page }) => {
    await page.goto('/audit');
    await page.getByLabel('Verification id').fill(` ${accentedId} `);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page).toHaveURL(/\/audit\?verification=/);
    expect(new URL(page.url()).searchParams.get('verification')?.trim()).toBe(accentedId);
    // The field shows the id again, and every entry listed is about that request.
    await expect(page.getByLabel('Verification id')).toHaveValue(accentedId);
    const entries = page.getByTestId('audit-entries').locator('tr[data-action]');
    await expect(entries.filter({ hasText: 'Verification created' })).toHaveCount(1);
    const targets = await entries.locator('td:nth-child(4)').allTextContents();
    expect(targets.length).toBeGreaterThan(0);
    expect(new Set(targets.map((t) => t.trim()))).toEqual(new Set([accentedId]));

    // The address other pages link to (auditTrailHrefFor) opens the same view.
    await page.goto(`/audit?verification=${encodeURIComponent(formulaId)}`);
    await expect(page.getByLabel('Verification id')).toHaveValue(formulaId);
    await expect(entries.filter({ hasText: 'Verification created' })).toHaveCount(1);
    await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      `/api/exports/audit?verification=${encodeURIComponent(formulaId)}`,
    );

    const { download, bytes } = await downloadExport(page);
    expect(download.suggestedFilename()).toBe(`audit-trail-${today()}.csv`);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = parseCsv(bytes.toString('utf8'));
    expect(header).toEqual(['Time (UTC)', 'Actor id', 'Actor (name)', 'Action', 'Target type', 'Target id', 'Details (JSON)']);
    expect(rows.map((cells) => cells[3])).toContain('verification.created');
    expect(new Set(rows.map((cells) => `${cells[4]} ${cells[5]}`))).toEqual(new Set([`verification ${formulaId}`]));
  });

  test('the filtered audit trail, with a filter it cannot read, is accessible on a phone and a wide screen', async ({ page }) => {
    test.slow();
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/audit?verification=${encodeURIComponent(accentedId)}&action=nothing.done`);
      await expect(page.getByRole('status').filter({ hasText: 'Some filters were not understood' })).toContainText(
        'The action was not recognised, so all actions are shown.',
      );
      await expectNoSeriousViolations(page, `${width}px`);
    }
  });
});

test.describe('who may export', () => {
  test('an operator exports the register but has no audit trail export', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/exports/register');
    const refused = await page.request.get('/api/exports/audit');
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toEqual({ error: 'Your role does not allow this.' });
    // The audit page itself is refused, so no export link is offered anywhere.
    await page.goto('/audit');
    await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveCount(0);
  });

  test.describe('as a viewer', () => {
    test.use({ storageState: storageStateOf('viewer') });

    test('a viewer has no audit trail export either', async ({ page }) => {
      expect((await page.request.get('/api/exports/audit')).status()).toBe(403);
      const register = await page.request.get('/api/exports/register?from=2000-01-01&to=2000-01-01');
      expect(register.status()).toBe(200);
      expect(parseCsv(await register.text())).toHaveLength(1); // the header only
    });
  });
});
