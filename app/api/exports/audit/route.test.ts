// The audit trail's CSV export end to end: real better-auth sessions, the real route handler
// called with a Request, the audit trail on a real database (PGlite, and PostgreSQL in the
// postgres project). Administrators only, with the audit page's filters.
import { desc, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { recordAudit } from '@/lib/audit/audit';
import { getDb } from '@/lib/db';
import { auditEntries } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff } from '@/lib/staff/staff-accounts';
import { parseCsv } from '@/test/support/parse-csv';
import { sessionCookie } from '@/test/support/session-cookie';
import { GET } from './route';

const PASSWORD = 'correct horse battery staple';
// The English header (docs/exports.md), times in UTC: these requests carry no zone cookie.
const AUDIT_CSV_HEADER = ['Time (UTC)', 'Actor id', 'Actor (name)', 'Action', 'Target type', 'Target id', 'Details (JSON)'];
let adaId: string;
let ottoId: string;
const cookies: Record<'admin' | 'operator' | 'viewer', string> = { admin: '', operator: '', viewer: '' };

function exportAudit(query: string, cookie?: string) {
  const headers = cookie ? { cookie } : undefined;
  return GET(new Request(`http://localhost:3000/api/exports/audit${query}`, { headers }), { params: Promise.resolve({}) });
}

async function exportAuditEntries() {
  return (await getDb())
    .select()
    .from(auditEntries)
    .where(eq(auditEntries.action, 'audit.exported'))
    .orderBy(desc(auditEntries.at), desc(auditEntries.id));
}

/** Writes an entry at a chosen time, as recordAudit would have at that time. */
async function entryAt(at: string, event: Parameters<typeof recordAudit>[0]): Promise<void> {
  await (await getDb()).insert(auditEntries).values({
    at: new Date(at),
    actorId: event.actorId,
    action: event.action,
    targetType: event.target?.type ?? null,
    targetId: event.target?.id ?? null,
    details: event.details ?? null,
  });
}

// Accounts and sign-ins hash passwords (scrypt): slow on a busy machine, hence the hook's budget.
beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  process.env.APP_URL = 'http://localhost:3000';
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-the-export-routes-0123456789';
  resetEnv();
  adaId = await createStaff(null, { name: 'Ada Admin', email: 'ada@example.com', role: 'admin', password: PASSWORD });
  ottoId = await createStaff(adaId, { name: 'Otto Operator', email: 'otto@example.com', role: 'operator', password: PASSWORD });
  await createStaff(adaId, { name: 'Vic Viewer', email: 'vic@example.com', role: 'viewer', password: PASSWORD });
  cookies.admin = await sessionCookie('ada@example.com', PASSWORD);
  cookies.operator = await sessionCookie('otto@example.com', PASSWORD);
  cookies.viewer = await sessionCookie('vic@example.com', PASSWORD);
}, 120_000);

beforeEach(async () => {
  // Only the entries each test writes: the staff accounts' own entries are left out by date.
  await (await getDb()).delete(auditEntries).where(ne(auditEntries.action, 'staff.created'));
});

afterAll(async () => {
  await closeDatabases();
});

describe('GET /api/exports/audit', () => {
  it('downloads the filtered audit trail for an administrator: every column, staff named beside their ids, details as JSON, formulas neutralised', async () => {
    await entryAt('2030-03-01T09:00:00.000Z', {
      actorId: ottoId,
      action: 'verification.created',
      target: { type: 'verification', id: 'v-1' },
    });
    await entryAt('2030-03-02T09:00:00.000Z', { actorId: ottoId, action: 'link.copied', target: { type: 'verification', id: 'v-1' } });
    await entryAt('2030-03-03T09:00:00.000Z', {
      actorId: adaId,
      action: 'staff.role_changed',
      target: { type: 'staff', id: ottoId },
      details: { from: 'viewer', to: 'operator' },
    });
    await entryAt('2030-03-04T09:00:00.000Z', {
      actorId: ottoId,
      action: 'verification.viewed',
      target: { type: 'verification', id: '=cmd|x' },
    });

    await entryAt('2030-03-01T08:00:00.000Z', {
      actorId: null,
      action: 'verification.status_changed',
      target: { type: 'verification', id: 'v-1' },
      details: { status: 'completed' },
    });
    await entryAt('2030-03-01T07:00:00.000Z', {
      actorId: 'staff-gone',
      action: 'link.copied',
      target: { type: 'verification', id: 'v-1' },
    });

    const response = await exportAudit('?from=2030-03-01&to=2030-03-31', cookies.admin);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="audit-trail-${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(parseCsv(new TextDecoder().decode(bytes))).toEqual([
      [...AUDIT_CSV_HEADER],
      ['2030-03-04T09:00:00.000Z', ottoId, 'Otto Operator', 'verification.viewed', 'verification', "'=cmd|x", ''],
      ['2030-03-03T09:00:00.000Z', adaId, 'Ada Admin', 'staff.role_changed', 'staff', ottoId, '{"from":"viewer","to":"operator"}'],
      ['2030-03-02T09:00:00.000Z', ottoId, 'Otto Operator', 'link.copied', 'verification', 'v-1', ''],
      ['2030-03-01T09:00:00.000Z', ottoId, 'Otto Operator', 'verification.created', 'verification', 'v-1', ''],
      // The system acts without an account, and an account that is gone has no name left: the id alone.
      ['2030-03-01T08:00:00.000Z', '', '', 'verification.status_changed', 'verification', 'v-1', '{"status":"completed"}'],
      ['2030-03-01T07:00:00.000Z', 'staff-gone', '', 'link.copied', 'verification', 'v-1', ''],
    ]);
  });

  it('applies the audit page filters: verification id, staff member, action and whole UTC days', async () => {
    await entryAt('2030-03-01T00:00:00.000Z', {
      actorId: ottoId,
      action: 'verification.created',
      target: { type: 'verification', id: 'v-1' },
    });
    await entryAt('2030-03-01T23:59:59.999Z', {
      actorId: adaId,
      action: 'verification.viewed',
      target: { type: 'verification', id: 'v-1' },
    });
    await entryAt('2030-03-02T00:00:00.000Z', {
      actorId: ottoId,
      action: 'verification.viewed',
      target: { type: 'verification', id: 'v-2' },
    });
    // A staff account whose id happens to equal a verification's is not that verification.
    await entryAt('2030-03-02T01:00:00.000Z', { actorId: adaId, action: 'staff.disabled', target: { type: 'staff', id: 'v-1' } });
    const rowsOf = async (query: string) => {
      const response = await exportAudit(query, cookies.admin);
      expect(response.status, query).toBe(200);
      return parseCsv(await response.text())
        .slice(1)
        .map(([at, actor, , action, , target]) => `${at?.slice(0, 10)} ${actor === adaId ? 'ada' : 'otto'} ${action} ${target}`);
    };
    expect(await rowsOf('?verification=v-1')).toEqual([
      '2030-03-01 ada verification.viewed v-1',
      '2030-03-01 otto verification.created v-1',
    ]);
    expect(await rowsOf(`?actor=${ottoId}&from=2030-03-01`)).toEqual([
      '2030-03-02 otto verification.viewed v-2',
      '2030-03-01 otto verification.created v-1',
    ]);
    expect(await rowsOf('?action=verification.viewed')).toEqual([
      '2030-03-02 otto verification.viewed v-2',
      '2030-03-01 ada verification.viewed v-1',
    ]);
    expect(await rowsOf('?from=2030-03-01&to=2030-03-01')).toEqual([
      '2030-03-01 ada verification.viewed v-1',
      '2030-03-01 otto verification.created v-1',
    ]);
    expect(await rowsOf('?verification=%20v-2%20')).toEqual(['2030-03-02 otto verification.viewed v-2']);
  });

  it('reads the days in DISPLAY_TIME_ZONE when the deployment sets it, whatever zone the browser reported', async () => {
    // 18:30 UTC is midnight in India (UTC+5:30).
    await entryAt('2030-03-01T18:29:59.999Z', { actorId: ottoId, action: 'link.copied', target: { type: 'verification', id: 'v-1st' } });
    await entryAt('2030-03-01T18:30:00.000Z', { actorId: ottoId, action: 'link.copied', target: { type: 'verification', id: 'v-2nd' } });
    const targetsOf = async (cookie: string) =>
      parseCsv(await (await exportAudit('?action=link.copied&from=2030-03-01&to=2030-03-01', cookie)).text())
        .slice(1)
        .map((cells) => cells[5]);
    expect(await targetsOf(`${cookies.admin}; vd-time-zone=America/New_York`)).toEqual(['v-2nd', 'v-1st']);
    process.env.DISPLAY_TIME_ZONE = 'Asia/Kolkata';
    resetEnv();
    try {
      expect(await targetsOf(`${cookies.admin}; vd-time-zone=America/New_York`)).toEqual(['v-1st']);
    } finally {
      delete process.env.DISPLAY_TIME_ZONE;
      resetEnv();
    }
  });

  it.each(['operator', 'viewer'] as const)('refuses a%s with 403 and exports nothing', async (role) => {
    await entryAt('2030-03-01T09:00:00.000Z', { actorId: ottoId, action: 'link.copied', target: { type: 'verification', id: 'v-1' } });
    const response = await exportAudit('', cookies[role]);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: 'Your role does not allow this.' });
    expect(await exportAuditEntries()).toEqual([]);
  });

  it('refuses a caller without a session with 401', async () => {
    const response = await exportAudit('');
    expect(response.status).toBe(401);
  });

  it.each([
    ['?action=verification.deleted', 'The action is not one the audit trail records.'],
    ['?to=2030-02-30', 'The “To” date is not a date (use YYYY-MM-DD).'],
    ['?actor=has%20space', 'The staff member is not a staff id.'],
    [`?verification=${'v'.repeat(201)}`, 'The verification id is empty, too long or holds control characters.'],
    ['?verification=a%0Ab', 'The verification id is empty, too long or holds control characters.'],
  ])('refuses %s with 400 naming the filter, and audits nothing', async (query, problem) => {
    const response = await exportAudit(query, cookies.admin);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: `Nothing was exported: ${problem} Fix the filters on the page and export again.` });
    expect(await exportAuditEntries()).toEqual([]);
  });

  it('audits each export when its stream ends: the administrator, the filters and the rows that went out', async () => {
    for (const id of ['v-1', 'v-2', 'v-3']) {
      await entryAt('2030-03-01T09:00:00.000Z', { actorId: ottoId, action: 'link.copied', target: { type: 'verification', id } });
    }
    const response = await exportAudit(`?action=link.copied&actor=${ottoId}`, cookies.admin);
    expect(await exportAuditEntries()).toEqual([]);
    await response.text();
    const [entry] = await exportAuditEntries();
    expect(entry).toMatchObject({
      actorId: adaId,
      action: 'audit.exported',
      details: { action: 'link.copied', actor: ottoId, rows: 3, complete: true },
    });
  });
});
