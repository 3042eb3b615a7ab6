// The review of a name mismatch: the person completes a request with another name while staff
// watch the detail page; the page flags it beside the status as it arrives, with both names as
// written; the register's "Needs review" view lists it until an operator records a decision,
// which shows on the page and in the audit trail, and can be changed without JavaScript. A
// viewer sees the decision but records none. The finished record says its link is closed, shows
// its status once, and its tab is named after the person.
import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/accessibility';
import { createSharedRequest } from './support/fixtures';
import { completeAsThePerson } from './support/sandbox-person';
import { storageStateOf } from './support/staff';

const LIVE_BUDGET_MS = 10_000;

async function needsReviewRow(page: Page, name: string, id: string) {
  await page.goto(`/?view=review&q=${encodeURIComponent(name)}`);
  await expect(page.getByRole('link', { name: /Needs review/ })).toHaveAttribute('aria-current', 'page');
  return page.getByRole('row').filter({ hasText: id });
}

test.describe('review of a name mismatch', () => {
  test.slow();

  test('flagged live with both names as written, reviewed, and followed by the register and the audit trail', async ({ page, browser }) => {
    const suffix = Math.random().toString(36).slice(2, 8);
    const requested = `Élodie Martin ${suffix}`;
    const identified = `ÉLISE MARTIN ${suffix.toUpperCase()}`;
    const { id, link } = await createSharedRequest(page, requested);

    await expect(await needsReviewRow(page, requested, id)).toHaveCount(0);

    await page.goto(`/verifications/${id}`);
    await expect(page.getByTestId('status')).toContainText('Pending');
    await expect(page.getByText('Live', { exact: true })).toBeVisible();
    await completeAsThePerson(browser, link, identified);

    // Beside the status, live; both names in their own spelling, and why they differ.
    await expect(page.getByTestId('status')).toHaveText('Status: Completed — name differs, review needed', { timeout: LIVE_BUDGET_MS });
    const review = page.locator('[data-name-review]');
    await expect(review.getByTestId('requested-name')).toHaveText(requested);
    await expect(review.getByTestId('identified-name')).toHaveText(identified);
    await expect(review).toContainText('Requested “Élodie”, identified “ÉLISE”');

    const waiting = await needsReviewRow(page, requested, id);
    await expect(waiting).toHaveCount(1);
    await expect(waiting).toContainText('Name differs');

    // Loaded afresh too: the finished record's link is closed, its status is shown once, and
    // the tab is named after the person.
    await page.goto(`/verifications/${id}`);
    await expect(page.getByTestId('status')).toHaveText('Status: Completed — name differs, review needed');
    const details = page.locator('dl').first();
    await expect(details).toContainText('Closed: the request is completed, so the link no longer opens.');
    await expect(details).not.toContainText('Link valid until');
    await expect(details).not.toContainText('None yet');
    await expect(page.locator('[data-status]')).toHaveCount(1);
    await expect(page).toHaveTitle(`${requested} · Verification · Verification Desk`);

    // The form: checked by axe, then refused field by field, keeping what was typed.
    const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Record the decision' }) });
    await expectNoSeriousViolations(page, 'detail page with the review form');
    await form.getByRole('textbox', { name: 'Note', exact: true }).fill('Birth date differs from our records.');
    await form.getByRole('button', { name: 'Record the decision' }).click();
    await expect(form.locator('#review-decision-error')).toHaveText('Choose “Same person” or “Not the same person”.');
    await expect(form.getByRole('textbox', { name: 'Note', exact: true })).toHaveValue('Birth date differs from our records.');
    await expectNoSeriousViolations(page, 'review form with an error');

    await form.getByRole('radio', { name: /^Not the same person/ }).check();
    await form.getByRole('button', { name: 'Record the decision' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Decision recorded.' })).toBeVisible();
    const decision = page.getByTestId('review-decision');
    await expect(decision).toContainText('Decision: Not the same person');
    await expect(decision).toContainText('By Otto Operator');
    await expect(decision).toContainText('Birth date differs from our records.');
    await expect(page.getByTestId('status')).toHaveText('Status: Completed — name differs, reviewed: not the same person');

    await expect(await needsReviewRow(page, requested, id)).toHaveCount(0);
    // In the whole register, the row now says what was decided instead of "Name differs".
    await page.goto(`/?q=${encodeURIComponent(requested)}`);
    const registerRow = page.getByRole('row').filter({ hasText: id });
    await expect(registerRow).toContainText('Reviewed: not the same person');
    await expect(registerRow).not.toContainText('Name differs');

    // A viewer sees the decision, and no form to change it.
    const viewerContext = await browser.newContext({ storageState: storageStateOf('viewer') });
    const viewer = await viewerContext.newPage();
    await viewer.goto(`/verifications/${id}`);
    await expect(viewer.getByTestId('review-decision')).toContainText('Decision: Not the same person');
    await expect(viewer.getByRole('radio')).toHaveCount(0);
    await expect(viewer.locator('[data-name-review]')).toContainText('Operators and administrators record the decision.');
    await viewerContext.close();

    // Without JavaScript, an administrator changes the decision: the form works and the page shows it.
    const noJsContext = await browser.newContext({ storageState: storageStateOf('admin'), javaScriptEnabled: false });
    const noJs = await noJsContext.newPage();
    await noJs.goto(`/verifications/${id}`);
    await noJs.getByRole('radio', { name: /^Same person/ }).check();
    await noJs.getByRole('textbox', { name: 'Note', exact: true }).fill('   ');
    await noJs.getByRole('button', { name: 'Save the new decision' }).click();
    await expect(noJs.locator('#review-note-error')).toHaveText('Write a short note saying why you decided this.');
    await expect(noJs.getByRole('radio', { name: /^Same person/ })).toBeChecked();
    await noJs.getByRole('textbox', { name: 'Note', exact: true }).fill('Married name, confirmed by phone.');
    await noJs.getByRole('button', { name: 'Save the new decision' }).click();
    await expect(noJs.getByTestId('review-decision')).toContainText('Decision: Same person');
    await expect(noJs.getByTestId('review-decision')).toContainText('Married name, confirmed by phone.');

    // The audit trail (read by the same administrator, still without JavaScript) has both
    // decisions, each by whom, the second with the one it replaced, and no note.
    await noJs.goto('/audit?action=verification.reviewed');
    const rows = noJs.getByTestId('audit-entries').locator('tr[data-action="verification.reviewed"]').filter({ hasText: id });
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText('Decision: Same person (was Not the same person)');
    await expect(rows.nth(0)).toContainText('Ada Admin');
    await expect(rows.nth(1)).toContainText('Decision: Not the same person');
    await expect(rows.nth(1)).toContainText('Otto Operator');
    await expect(noJs.getByTestId('audit-entries')).not.toContainText('Married name');
    await noJsContext.close();
  });
});
