// Phones and wide screens. Below 640 px the dashboard's tables (register, audit trail, webhooks,
// staff, outbox) become one card per row, each value beside its column's label, with no second
// copy of the content; at 1440 px the content uses the width, ids stay on one line and a long
// purpose takes at most two.
import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/accessibility';
import { createdId, createSharedRequest, fillBasics, openCreateForm, submitCreate, uniqueName } from './support/fixtures';
import { completeAsThePerson } from './support/sandbox-person';
import { storageStateOf } from './support/staff';

test.use({ storageState: storageStateOf('admin') });

/** The wide request both checks read: made once, before them, in a context of its own. */
let wide: string;

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, storageState: storageStateOf('admin') });
  wide = await createWideRequest(await context.newPage());
  await context.close();
});

const PHONE = { width: 390, height: 844 };
const SMALL_PHONE = { width: 360, height: 740 };
const TABLET = { width: 768, height: 800 };
const TABLE_PAGES = ['/', '/queue', '/audit', '/webhooks', '/staff', '/outbox'] as const;
// Longer than two lines of the purpose column at any width, without spaces to spare.
const LONG_PURPOSE =
  'Renewal of the supplier agreement for the northern warehouses, including the transport subcontractors and their insurance certificates';

/** A request with every channel and a long purpose: rows for every table, the widest register row. */
async function createWideRequest(page: Page): Promise<string> {
  await openCreateForm(page);
  await page.getByRole('switch', { name: 'Shareable link' }).check();
  await page.getByRole('switch', { name: 'SMS notification' }).check();
  await page.getByLabel('Mobile number').fill('+32 470 12 34 56');
  await page.getByRole('radio', { name: 'Other…' }).check();
  await page.getByRole('textbox', { name: 'Describe the purpose' }).fill(LONG_PURPOSE);
  await fillBasics(page, { name: uniqueName('Layout Person'), email: 'layout.person@example.com', purpose: 'Other…' });
  await submitCreate(page);
  return createdId(page);
}

/** The page's table, once it has at least one row (webhook events arrive a moment after a request). */
async function tableWithRows(page: Page, path: string) {
  const table = page.getByRole('main').locator('table');
  await expect(async () => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await table.locator('tbody tr td[data-label]').count()).toBeGreaterThan(0);
  }).toPass({ timeout: 30_000 });
  return table;
}

async function expectNoSidewaysScroll(page: Page, state: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${state}: page width at ${innerWidth} px`).toBeLessThanOrEqual(innerWidth);
}

type CardReport = {
  headerHeight: number;
  rows: {
    display: string;
    width: number;
    cellsSideBySide: boolean;
    labels: { label: string; header: string; shown: string }[];
  }[];
  tableWidth: number;
};

/** How the table's rows are laid out: read in the page, judged in the test. */
function cardReport(page: Page, path: string): Promise<CardReport> {
  return page
    .getByRole('main')
    .locator('table')
    .evaluate((table: HTMLTableElement) => {
      const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
      const rows = [...table.querySelectorAll('tbody tr')].map((row) => {
        const cells = [...row.querySelectorAll(':scope > td')];
        const boxes = cells.map((cell) => cell.getBoundingClientRect()).filter((box) => box.height > 0);
        // Two cells side by side would share a line: a later one starting above an earlier one's bottom.
        const cellsSideBySide = boxes.some((box, index) => index > 0 && box.top < (boxes[index - 1]?.bottom ?? 0) - 1);
        return {
          display: getComputedStyle(row).display,
          width: row.getBoundingClientRect().width,
          cellsSideBySide,
          labels: cells
            .filter((cell) => cell.hasAttribute('data-label'))
            .map((cell) => ({
              label: cell.getAttribute('data-label') ?? '',
              header: headers[cells.indexOf(cell)] ?? '',
              // The label a sighted reader sees: the cell's generated content.
              shown: getComputedStyle(cell, '::before').content,
            })),
        };
      });
      return {
        headerHeight: table.querySelector('thead')?.getBoundingClientRect().height ?? 0,
        rows,
        tableWidth: table.getBoundingClientRect().width,
      };
    })
    .then((report) => {
      expect(report.rows.length, `${path}: rows`).toBeGreaterThan(0);
      return report;
    });
}

/** Every UUID shown in the table's rows, with how many lines it takes. */
function uuidLines(page: Page) {
  return page
    .getByRole('main')
    .locator('table tbody')
    .evaluate((body) => {
      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
      return [...body.querySelectorAll<HTMLElement>('*')]
        .filter((element) => {
          const ownText = [...element.childNodes]
            .filter((node) => node.nodeType === Node.TEXT_NODE)
            .map((node) => node.textContent)
            .join('')
            .trim();
          return uuid.test(ownText);
        })
        .map((element) => {
          const range = document.createRange();
          range.selectNodeContents(element);
          // One rectangle per line box the text occupies.
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
          return { text: element.textContent?.trim() ?? '', lines };
        });
    });
}

/**
 * The audit trail at a phone's width stays short: each entry a compact card. Its entries are of
 * several kinds: the run's sign-ins, creations with their details (the wide request's among them).
 */
async function expectCompactAuditCards(page: Page) {
  const count = await page.getByTestId('audit-entries').locator(':scope > tr').count();
  expect(count).toBeGreaterThanOrEqual(4);
  const { bodyHeight, lineHeight, cardHeights, pageHeight, aboveTable } = await page.getByTestId('audit-entries').evaluate((body) => {
    const style = getComputedStyle(body);
    return {
      bodyHeight: body.getBoundingClientRect().height,
      lineHeight: Number.parseFloat(style.lineHeight),
      cardHeights: [...body.querySelectorAll(':scope > tr')].map((row) => row.getBoundingClientRect().height),
      pageHeight: document.documentElement.scrollHeight,
      aboveTable: body.closest('table')!.getBoundingClientRect().top + window.scrollY,
    };
  });
  // Five labelled values, one or two lines each (an id moves below its label, creation details
  // take two), plus the card's padding: at most ten lines a card (before: an entry with an
  // id, broken a few characters a line, was about fifteen).
  const cardBound = 10 * lineHeight;
  for (const height of cardHeights) expect(height).toBeLessThanOrEqual(cardBound);
  // The page grows by one card per entry, and nothing else after the table but its pager.
  expect(bodyHeight).toBeLessThanOrEqual(count * cardBound);
  expect(pageHeight).toBeLessThanOrEqual(aboveTable + count * Math.max(...cardHeights) + 200);
}

test.describe('phones: tables become cards', () => {
  test.slow();

  test('at 390 px each listed table is one labelled card per row, with ids on one line and no sideways scroll, also at 360 and 768 px', async ({
    page,
    browser,
  }) => {
    // The queue has a row whatever ran before: a name mismatch nobody has decided on.
    const { link } = await createSharedRequest(page, uniqueName('Narrow Queue'));
    await completeAsThePerson(browser, link, 'SOMEONE ELSE');
    await page.setViewportSize(PHONE);
    for (const path of TABLE_PAGES) {
      await test.step(path, async () => {
        await tableWithRows(page, path);
        await expectNoSidewaysScroll(page, path);
        const report = await cardReport(page, path);
        // The column headers stay for screen readers but take no room.
        expect(report.headerHeight, `${path}: header row on screen`).toBeLessThanOrEqual(1);
        for (const [index, row] of report.rows.entries()) {
          const what = `${path}, row ${index + 1}`;
          expect(row.display, `${what}: display`).not.toBe('table-row');
          expect(row.width, `${what}: card width`).toBeGreaterThanOrEqual(report.tableWidth - 2);
          expect(row.cellsSideBySide, `${what}: cells stacked`).toBe(false);
          expect(row.labels.length, `${what}: labelled values`).toBeGreaterThan(0);
          for (const { label, header, shown } of row.labels) {
            expect(label, `${what}: label is the column's`).toBe(header);
            // Shown on screen, with an empty alternative text: the header is already announced.
            expect(shown, `${what}: label "${label}" shown`).toBe(`${JSON.stringify(label)} / ""`);
          }
        }
        for (const { text, lines } of await uuidLines(page)) expect(lines, `${path}: id ${text} on one line`).toBe(1);
        // Still a table for assistive technology: its caption, column headers and cells.
        const table = page.getByRole('main').getByRole('table');
        await expect(table).toHaveCount(1);
        expect(await table.getByRole('columnheader').count(), `${path}: column headers`).toBeGreaterThan(1);
        expect(await table.getByRole('cell').count(), `${path}: cells`).toBeGreaterThan(1);
        await expectNoSeriousViolations(page, `${path} at 390 px`);
        if (path === '/audit') await expectCompactAuditCards(page);
        // The narrowest phone and a tablet, without a reload: the layout follows the window. The
        // pages without tables are narrow-screens.spec.ts's.
        for (const size of [SMALL_PHONE, TABLET]) {
          await page.setViewportSize(size);
          await expectNoSidewaysScroll(page, path);
        }
        await page.setViewportSize(PHONE);
      });
    }
  });
});

test.describe('wide screens', () => {
  test.slow();

  test('at 1440 px the content uses the width, ids take one line and a long purpose at most two', async ({ page }) => {
    const mainWidth = () =>
      page.locator('#main').evaluate((main) => {
        const style = getComputedStyle(main);
        return main.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      });
    const register = `/?q=${wide}`;
    const contentWidth: Record<number, number> = {};

    // Each page is loaded once and read at both widths: its layout follows the window, as when
    // staff widen theirs. The register comes last, so its purpose is read at 1440 px below.
    for (const path of [`/audit?verification=${wide}`, '/webhooks', register]) {
      await page.setViewportSize({ width: 1024, height: 900 });
      await tableWithRows(page, path);
      for (const width of [1024, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await expectNoSidewaysScroll(page, `${path} at ${width} px`);
        const ids = await uuidLines(page);
        expect(ids.length, `${path}: ids shown`).toBeGreaterThan(0);
        for (const { text, lines } of ids) expect(lines, `${path} at ${width} px: id ${text}`).toBe(1);
        if (path === register) contentWidth[width] = await mainWidth();
      }
    }
    expect(contentWidth[1440]).toBeGreaterThan(contentWidth[1024]!);
    // Beyond a page margin, the width is the content's (before: capped at 1152 px).
    expect(contentWidth[1440]).toBeGreaterThanOrEqual(1440 - 2 * 48);

    // The register's purpose: two lines at most, the whole text in its title.
    const purpose = page.getByRole('main').locator('td[data-label="Purpose"]').first();
    await expect(purpose).toBeVisible();
    const { height, lineHeight, title } = await purpose.evaluate((cell) => {
      const text = cell.querySelector<HTMLElement>('[title]') ?? cell;
      return {
        height: text.getBoundingClientRect().height,
        lineHeight: Number.parseFloat(getComputedStyle(text).lineHeight),
        title: text.getAttribute('title'),
      };
    });
    expect(height).toBeLessThanOrEqual(2 * lineHeight + 1);
    expect(title).toBe(LONG_PURPOSE);
    await expectNoSeriousViolations(page, 'register at 1440 px');
  });
});

// Screenshots for a person to look at (not a check): LAYOUT_SCREENSHOTS=/some/dir.
test('screenshots of every page at 390, 768 and 1440 px', async ({ page }) => {
  const dir = process.env.LAYOUT_SCREENSHOTS;
  test.skip(!dir, 'set LAYOUT_SCREENSHOTS to a directory to take them');
  test.setTimeout(240_000);
  const id = wide;
  const paths: Record<string, string> = {
    home: '/',
    detail: `/verifications/${id}`,
    audit: '/audit',
    webhooks: '/webhooks',
    staff: '/staff',
    outbox: '/outbox',
    create: '/verifications/new',
  };
  for (const width of [390, 768, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [name, path] of Object.entries(paths)) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
    }
  }
});
