// The overview's figures as a CSV download end to end: real better-auth sessions, the real route
// handler called with a Request, a register seeded with known values on a real database (PGlite,
// and PostgreSQL in the postgres project). The file is read back as a spreadsheet would.
import { desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEntries, nameReviews, verificationRequests } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff } from '@/lib/staff/staff-accounts';
import { answerInLanguage } from '@/test/support/next-intl-server';
import { parseCsv } from '@/test/support/parse-csv';
import { sessionCookie } from '@/test/support/session-cookie';
import { GET } from './route';

const PASSWORD = 'correct horse battery staple';
const PERIOD = '?period=custom&from=2025-03-10&to=2025-03-12';
const MINUTE = 60_000;
let adaId: string;
let vicId: string;
let ada: string;
let vic: string;

function exportOverview(query: string, cookie?: string) {
  const headers = cookie ? { cookie } : undefined;
  return GET(new Request(`http://localhost:3000/api/exports/overview${query}`, { headers }), { params: Promise.resolve({}) });
}

async function lastExportAudit() {
  const db = await getDb();
  const [entry] = await db
    .select()
    .from(auditEntries)
    .where(eq(auditEntries.action, 'overview.exported'))
    .orderBy(desc(auditEntries.at), desc(auditEntries.id))
    .limit(1);
  return entry;
}

type Row = typeof verificationRequests.$inferInsert;
const row = (id: string, createdAt: string, overrides: Partial<Row> = {}): Row => ({
  verificationId: id,
  name: `Person ${id}`,
  purpose: 'legal_obligations',
  language: 'en',
  shareableLink: true,
  emailNotification: false,
  smsNotification: false,
  status: 'pending',
  createdBy: adaId,
  createdAt: new Date(createdAt),
  accessExpiresAt: new Date(Date.parse(createdAt) + 7 * 24 * 60 * MINUTE),
  ...overrides,
});
const completed = (id: string, createdAt: string, minutes: number, overrides: Partial<Row> = {}) =>
  row(id, createdAt, {
    status: 'completed',
    identifiedName: `Person ${id}`,
    nameMismatch: false,
    completedAt: new Date(Date.parse(createdAt) + minutes * MINUTE),
    method: 'passport',
    ...overrides,
  });

/**
 * 10 to 12 March 2025: 7 requests, 4 completed (10, 30, 60 and 120 minutes), 2 failed (one with a
 * reason that reads as a formula, one without), 1 expired; a method the catalogs do not name that
 * reads as a formula; a name mismatch decided and one not. Open now: both failures, the expiry and
 * the undecided mismatch; one failure is Vic's.
 */
async function seedRegister() {
  const db = await getDb();
  await db.insert(verificationRequests).values([
    completed('a', '2025-03-10T08:00:00.000Z', 10),
    completed('b', '2025-03-10T09:00:00.000Z', 30, { method: '=cmd|calc' }),
    row('c', '2025-03-11T10:00:00.000Z', { status: 'failed', failureReason: '@SUM(A1)', assignedTo: vicId }),
    row('g', '2025-03-11T11:00:00.000Z', { status: 'failed' }),
    completed('d', '2025-03-12T09:00:00.000Z', 60, { nameMismatch: true }),
    row('e', '2025-03-12T12:00:00.000Z', { status: 'expired' }),
    completed('f', '2025-03-12T13:00:00.000Z', 120, { nameMismatch: true, nameReviewed: true }),
    // The day after the period: in no figure of it, and not open.
    completed('later', '2025-03-13T10:00:00.000Z', 5),
  ]);
  await db.insert(nameReviews).values({
    verificationId: 'f',
    decision: 'same_person',
    note: 'Secret reasoning about Person f',
    decidedBy: adaId,
    decidedAt: new Date('2025-03-12T15:00:00.000Z'),
  });
}

// Accounts and sign-ins hash passwords (scrypt): slow on a busy machine, hence the hook's budget.
beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  process.env.APP_URL = 'http://localhost:3000';
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-the-export-routes-0123456789';
  resetEnv();
  adaId = await createStaff(null, { name: 'Ada Admin', email: 'ada@example.com', role: 'admin', password: PASSWORD });
  vicId = await createStaff(adaId, { name: 'Vic Viewer', email: 'vic@example.com', role: 'viewer', password: PASSWORD });
  [ada, vic] = [await sessionCookie('ada@example.com', PASSWORD), await sessionCookie('vic@example.com', PASSWORD)];
}, 120_000);

// "Open now" is read at the download's moment: a week after the seeded days, so their failures and
// expiry are still within QUEUE_FOLLOW_UP_DAYS. Only Date is stood in for; timers run as usual.
const OPEN_NOW = new Date('2025-03-19T12:00:00.000Z');

beforeEach(async () => {
  vi.useFakeTimers({ now: OPEN_NOW, toFake: ['Date'] });
  const db = await getDb();
  await db.delete(nameReviews);
  await db.delete(verificationRequests);
  await db.delete(auditEntries).where(eq(auditEntries.action, 'overview.exported'));
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  await closeDatabases();
});

describe('GET /api/exports/overview', () => {
  it('downloads every figure of the page as one long table, English words by default, formulas neutralised', async () => {
    await seedRegister();
    const response = await exportOverview(PERIOD, vic);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="overview-2025-03-10-to-2025-03-12-${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    expect(text).toContain(`"'@SUM(A1)"`);
    expect(text).not.toContain('Secret reasoning');
    const created = (day: string, counts: [number, number, number, number]) =>
      ['Pending', 'Completed', 'Expired', 'Failed'].map((status, index) => [
        'Requests created per day',
        day,
        status,
        String(counts[index]),
        '',
      ]);
    expect(parseCsv(text)).toEqual([
      ['Section', 'Item', 'Status', 'Value', 'Oldest waiting since (UTC)'],
      ['Period (first/last day; value: days)', '2025-03-10/2025-03-12', '', '3', ''],
      ...created('2025-03-10', [0, 2, 0, 0]),
      ...created('2025-03-11', [0, 0, 0, 2]),
      ...created('2025-03-12', [0, 2, 1, 0]),
      ['Requests created, by status now', 'All requests created', '', '7', ''],
      ['Requests created, by status now', '', 'Pending', '0', ''],
      ['Requests created, by status now', '', 'Completed', '4', ''],
      ['Requests created, by status now', '', 'Expired', '1', ''],
      ['Requests created, by status now', '', 'Failed', '2', ''],
      ['Completion', 'Completion rate (completed ÷ created)', '', '0.5714', ''],
      // 10, 30, 60, 120 minutes: the median is 45 minutes, the 90th percentile 102 (interpolated).
      ['Completion', 'Median time to complete (seconds)', '', '2700', ''],
      ['Completion', '90% completed within (seconds)', '', '6120', ''],
      ['Why verifications failed', "'@SUM(A1)", '', '1', ''],
      ['Why verifications failed', 'Not given', '', '1', ''],
      ['Methods used', 'Passport', '', '3', ''],
      ['Methods used', "'=cmd|calc", '', '1', ''],
      ['Name mismatches and decisions', 'Same person', '', '1', ''],
      ['Name mismatches and decisions', 'Not decided yet', '', '1', ''],
      ['Open items per assignee', 'Unassigned', '', '3', '2025-03-11T11:00:00.000Z'],
      ['Open items per assignee', 'Vic Viewer', '', '1', '2025-03-11T10:00:00.000Z'],
    ]);
  });

  it('writes codes with values=codes: sections, statuses, methods, decisions, and the assignee as a staff id, never a name', async () => {
    await seedRegister();
    const text = await (await exportOverview(`${PERIOD}&values=codes`, ada)).text();
    const records = parseCsv(text);
    expect(records.map((cells) => cells[0])).toEqual(
      expect.arrayContaining([
        'period',
        'created_per_day',
        'totals',
        'completion',
        'failure_reasons',
        'methods',
        'name_mismatches',
        'open_items',
      ]),
    );
    expect(records.filter((cells) => ['totals', 'completion', 'methods', 'name_mismatches', 'open_items'].includes(cells[0]!))).toEqual([
      ['totals', 'all_created', '', '7', ''],
      ['totals', '', 'pending', '0', ''],
      ['totals', '', 'completed', '4', ''],
      ['totals', '', 'expired', '1', ''],
      ['totals', '', 'failed', '2', ''],
      ['completion', 'completion_rate', '', '0.5714', ''],
      ['completion', 'median_seconds', '', '2700', ''],
      ['completion', 'p90_seconds', '', '6120', ''],
      ['methods', 'passport', '', '3', ''],
      ['methods', "'=cmd|calc", '', '1', ''],
      ['name_mismatches', 'same_person', '', '1', ''],
      ['name_mismatches', 'undecided', '', '1', ''],
      ['open_items', '', '', '3', '2025-03-11T11:00:00.000Z'],
      ['open_items', vicId, '', '1', '2025-03-11T10:00:00.000Z'],
    ]);
    expect(text).not.toContain('Vic Viewer');
  });

  it('narrows every figure by the filters, as the page does', async () => {
    await seedRegister();
    const db = await getDb();
    await db
      .insert(verificationRequests)
      .values(row('vic-1', '2025-03-11T12:00:00.000Z', { createdBy: vicId, purpose: 'ensuring_compliance' }));
    const totalOf = async (query: string) => {
      const records = parseCsv(await (await exportOverview(`${PERIOD}${query}`, ada)).text());
      return records.find((cells) => cells[1] === 'All requests created')?.[3];
    };
    expect(await totalOf('')).toBe('8');
    expect(await totalOf(`&creator=${vicId}`)).toBe('1');
    expect(await totalOf('&purpose=ensuring_compliance&language=en&channel=link')).toBe('1');
    expect(await totalOf('&channel=sms')).toBe('0');
  });

  describe('for a French-speaking exporter in Brussels', () => {
    afterEach(() => answerInLanguage('en'));

    it('separates cells with semicolons, writes French headers and words, a decimal comma and times in the display zone', async () => {
      await seedRegister();
      answerInLanguage('fr');
      const text = await (await exportOverview(PERIOD, `${ada}; vd-time-zone=Europe/Brussels`)).text();
      const records = parseCsv(text, ';');
      expect(records[0]).toEqual(['Rubrique', 'Élément', 'Statut', 'Valeur', 'Plus ancien en attente depuis le (Europe/Brussels)']);
      expect(records).toContainEqual(['Finalisation', 'Taux de finalisation (finalisées ÷ créées)', '', '0,5714', '']);
      expect(records).toContainEqual(['Demandes créées par jour', '2025-03-11', 'Échouée', '2', '']);
      // 11:00 UTC is noon in Brussels in winter.
      expect(records).toContainEqual(['Éléments à traiter par personne', 'Non attribués', '', '3', '2025-03-11T12:00:00.000+01:00']);
      // Asked for commas, the rate takes a decimal point, as an English spreadsheet reads it.
      const commas = parseCsv(await (await exportOverview(`${PERIOD}&delimiter=comma`, ada)).text());
      expect(commas).toContainEqual(['Finalisation', 'Taux de finalisation (finalisées ÷ créées)', '', '0.5714', '']);
    });

    it('refuses in French what it cannot read', async () => {
      answerInLanguage('fr');
      const response = await exportOverview('?period=custom&from=2025-03-12&to=2025-03-10&delimiter=tab', ada);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error:
          'Rien n’a été exporté\u00a0: La date «\u00a0Du\u00a0» est postérieure à la date «\u00a0Au\u00a0». Le séparateur n’est ni «\u00a0comma\u00a0» ni «\u00a0semicolon\u00a0». Corrigez les filtres de la page et exportez à nouveau.',
      });
    });
  });

  it.each([
    ['?period=year', 'The period is not one of month, 30d, quarter or custom (with from and to).'],
    ['?period=30d&from=2025-03-01', 'Days (from, to) were given without period=custom.'],
    ['?period=custom&from=2025-02-30&to=2025-03-01', 'The “From” date is not a date (use YYYY-MM-DD).'],
    ['?period=custom&from=2025-03-01', 'The “To” date is not a date (use YYYY-MM-DD).'],
    ['?period=custom&from=2020-01-01&to=2025-03-01', 'A custom period can span at most two years.'],
    ['?purpose=fun&channel=fax', 'The purpose is not one of the listed purposes. The channel is not one of link, email or sms.'],
    ['?language=de', 'The person’s language is not one of en, fr or nl.'],
    ['?creator=nobody', 'The “created by” value is not a staff member’s id.'],
    ['?values=labels', 'The values are not “words” or “codes”.'],
  ])('refuses %s with 400 naming what it cannot read, and exports (and audits) nothing', async (query, problem) => {
    const response = await exportOverview(query, ada);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ error: `Nothing was exported: ${problem} Fix the filters on the page and export again.` });
    expect(await lastExportAudit()).toBeUndefined();
  });

  it('refuses a caller without a session with 401', async () => {
    const response = await exportOverview(PERIOD);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'Sign in to continue.' });
  });

  it('audits the download once the file is out: who, the period’s days, the filters as codes and ids, how many rows; no name', async () => {
    await seedRegister();
    const response = await exportOverview(`${PERIOD}&channel=link&creator=${adaId}`, vic);
    expect(await lastExportAudit()).toBeUndefined(); // not before the file has gone out
    expect(parseCsv(await response.text())).toHaveLength(30);
    const entry = await lastExportAudit();
    expect(entry).toMatchObject({ actorId: vicId, action: 'overview.exported', targetType: null, targetId: null });
    expect(entry?.details).toEqual({
      period: 'custom',
      from: '2025-03-10',
      to: '2025-03-12',
      days: 3,
      timeZone: 'UTC',
      channel: 'link',
      createdBy: adaId,
      rows: 29,
      complete: true,
    });
    expect(JSON.stringify(entry)).not.toMatch(/Viewer|Admin|SUM|cmd/);
  });
});
