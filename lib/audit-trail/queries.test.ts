// Reading the audit trail back on a real (in-memory) database: filters by actor, action, target
// and time, newest first, and pages that neither repeat nor skip an entry.
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AuditEvent, recordAudit } from '@/lib/audit/audit';
import { getDb } from '@/lib/db';
import { type PageSide, parseCursor } from '@/lib/db/keyset';
import { auditEntries } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { AUDIT_CURSOR_KINDS, listAudit, listAuditPage } from './queries.server';

/** A page link's cursor read back the way the page reads it. */
const position = (side: PageSide, cursor: string) => ({ side, values: parseCursor(cursor, AUDIT_CURSOR_KINDS)! });

/** Records through recordAudit, then moves the entry to a chosen time (recordAudit stamps now()). */
async function recordAt(event: AuditEvent, at: Date): Promise<string> {
  await recordAudit(event);
  const db = await getDb();
  const [latest] = await db.select({ id: auditEntries.id }).from(auditEntries).orderBy(desc(auditEntries.at)).limit(1);
  await db.update(auditEntries).set({ at }).where(eq(auditEntries.id, latest!.id));
  return latest!.id;
}

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  resetEnv();
  await getDb();
});

beforeEach(async () => {
  await (await getDb()).delete(auditEntries);
});

afterAll(async () => {
  await closeDatabases();
});

describe('listAudit', () => {
  const A = 'actor-a';
  const B = 'actor-b';
  const ids: Record<string, string> = {};

  beforeEach(async () => {
    ids.e1 = await recordAt(
      { actorId: A, action: 'verification.viewed', target: { type: 'verification', id: 'v1' } },
      new Date('2024-01-01T10:00:00Z'),
    );
    ids.e2 = await recordAt(
      { actorId: B, action: 'verification.created', target: { type: 'verification', id: 'v1' } },
      new Date('2024-01-02T10:00:00Z'),
    );
    ids.e3 = await recordAt(
      { actorId: A, action: 'link.copied', target: { type: 'verification', id: 'v2' } },
      new Date('2024-01-03T10:00:00Z'),
    );
    ids.e4 = await recordAt({ actorId: null, action: 'sign_in.failed' }, new Date('2024-01-04T10:00:00Z'));
    ids.e5 = await recordAt(
      { actorId: B, action: 'verification.viewed', target: { type: 'verification', id: 'v2' } },
      new Date('2024-01-05T10:00:00Z'),
    );
  });

  const names = (rows: { id: string }[]) => rows.map((row) => Object.keys(ids).find((k) => ids[k] === row.id));

  it('lists everything newest first', async () => {
    expect(names(await listAudit({}))).toEqual(['e5', 'e4', 'e3', 'e2', 'e1']);
  });

  it('filters by actor, action and target id', async () => {
    expect(names(await listAudit({ actorId: A }))).toEqual(['e3', 'e1']);
    expect(names(await listAudit({ actorId: B }))).toEqual(['e5', 'e2']);
    expect(names(await listAudit({ action: 'verification.viewed' }))).toEqual(['e5', 'e1']);
    expect(names(await listAudit({ action: 'staff.created' }))).toEqual([]);
    expect(names(await listAudit({ targetId: 'v1' }))).toEqual(['e2', 'e1']);
    expect(names(await listAudit({ targetId: 'v-none' }))).toEqual([]);
  });

  it('filters by time, both ends included', async () => {
    expect(names(await listAudit({ from: new Date('2024-01-02T10:00:00Z') }))).toEqual(['e5', 'e4', 'e3', 'e2']);
    expect(names(await listAudit({ to: new Date('2024-01-02T10:00:00Z') }))).toEqual(['e2', 'e1']);
    expect(names(await listAudit({ from: new Date('2024-01-02T10:00:00Z'), to: new Date('2024-01-04T10:00:00Z') }))).toEqual([
      'e4',
      'e3',
      'e2',
    ]);
    expect(names(await listAudit({ from: new Date('2024-01-02T10:00:00.001Z'), to: new Date('2024-01-04T09:59:59.999Z') }))).toEqual([
      'e3',
    ]);
  });

  it('combines filters with AND', async () => {
    expect(names(await listAudit({ actorId: A, targetId: 'v1' }))).toEqual(['e1']);
    expect(names(await listAudit({ actorId: B, action: 'verification.viewed', from: new Date('2024-01-03T00:00:00Z') }))).toEqual(['e5']);
    expect(names(await listAudit({ actorId: A, action: 'verification.created' }))).toEqual([]);
  });

  it('pages by keyset, older with `after` and back with `before`, the last page as cheap as the first', async () => {
    const first = await listAuditPage({}, { size: 2 });
    expect(names(first.entries)).toEqual(['e5', 'e4']);
    expect(first.links).toEqual({ older: { after: first.entries[1]!.cursor } });
    // The cursor is the sort key itself, to the microsecond: `<at>~<id>`.
    expect(first.entries[1]!.cursor).toBe(`2024-01-04T10:00:00.000000Z~${ids.e4}`);
    const second = await listAuditPage({}, { size: 2, position: position('after', first.links.older!.after) });
    expect(names(second.entries)).toEqual(['e3', 'e2']);
    const last = await listAuditPage({}, { size: 2, position: position('after', second.links.older!.after) });
    expect(names(last.entries)).toEqual(['e1']);
    expect(last.links.older).toBeUndefined();
    const back = await listAuditPage({}, { size: 2, position: position('before', last.links.newer!.before!) });
    expect(names(back.entries)).toEqual(['e3', 'e2']);
    // Back to the start: the first page, full, with no "Newer" link.
    const start = await listAuditPage({}, { size: 2, position: position('before', back.links.newer!.before!) });
    expect(names(start.entries)).toEqual(['e5', 'e4']);
    expect(start.links.newer).toBeUndefined();
  });

  it('keeps the filters while paging', async () => {
    const first = await listAuditPage({ actorId: A }, { size: 1 });
    expect(names(first.entries)).toEqual(['e3']);
    const next = await listAuditPage({ actorId: A }, { size: 1, position: position('after', first.links.older!.after) });
    expect(names(next.entries)).toEqual(['e1']);
    expect(next.links.older).toBeUndefined();
  });

  it('orders entries with the same time the same way every time, so pages neither repeat nor skip', async () => {
    const same = new Date('2024-01-06T00:00:00Z');
    const tied = [
      await recordAt({ actorId: A, action: 'link.copied', target: { type: 'verification', id: 't1' } }, same),
      await recordAt({ actorId: A, action: 'link.copied', target: { type: 'verification', id: 't2' } }, same),
      await recordAt({ actorId: A, action: 'link.copied', target: { type: 'verification', id: 't3' } }, same),
    ];
    const first = await listAuditPage({}, { size: 2 });
    const second = await listAuditPage({}, { size: 2, position: position('after', first.links.older!.after) });
    const paged = [...first.entries, ...second.entries].map((e) => e.id);
    expect(paged.slice(0, 3)).toEqual([...tied].sort().reverse());
    expect(paged[3]).toBe(ids.e5);
  });
});
