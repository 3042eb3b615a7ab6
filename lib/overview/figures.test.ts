// The overview's figures against a register seeded with known values, on PGlite and PostgreSQL:
// counts per day by outcome, the completion rate, the median and 90th percentile of the time to
// completion, failure reasons, methods, name mismatches and decisions, open items per assignee,
// the filters, and the period's bounds in the display zone.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { nameReviews } from '@/lib/db/schema';
import { ADA, insert, OTTO, row, setUpRegisterDatabase } from '@/test/support/register';
import { overviewFigures } from './figures.server';
import { readPeriod } from './period';

setUpRegisterDatabase();

const BRUSSELS = 'Europe/Brussels';
const NOW = new Date('2026-11-20T12:00:00.000Z');
const MINUTE = 60_000;
const at = (iso: string) => new Date(iso);
const completed = (id: string, created: string, minutes: number, extra: Parameters<typeof row>[0] | object = {}) =>
  row({
    verificationId: id,
    status: 'completed',
    identifiedName: 'Person',
    nameMismatch: false,
    createdAt: at(created),
    completedAt: new Date(at(created).getTime() + minutes * MINUTE),
    method: 'passport',
    ...extra,
  });

describe('overviewFigures', () => {
  it('counts a period’s requests per day by outcome, with the completion rate, the median and p90 time, reasons and methods', async () => {
    await insert(
      // 10 November, Brussels: 3 requests, 2 completed (10 and 30 minutes), 1 failed.
      completed('a', '2026-11-10T08:00:00.000Z', 10),
      completed('b', '2026-11-10T09:00:00.000Z', 30, { method: 'id_card' }),
      row({ verificationId: 'c', status: 'failed', failureReason: 'document_expired', createdAt: at('2026-11-10T10:00:00.000Z') }),
      // 23:30 UTC on the 11th is already the 12th in Brussels.
      completed('d', '2026-11-11T23:30:00.000Z', 60),
      completed('e', '2026-11-12T10:00:00.000Z', 120),
      row({ verificationId: 'f', status: 'failed', failureReason: 'document_expired', createdAt: at('2026-11-12T11:00:00.000Z') }),
      row({ verificationId: 'g', status: 'failed', failureReason: 'face_mismatch', createdAt: at('2026-11-12T12:00:00.000Z') }),
      row({ verificationId: 'h', status: 'expired', createdAt: at('2026-11-13T12:00:00.000Z') }),
      row({ verificationId: 'i', status: 'pending', createdAt: at('2026-11-19T12:00:00.000Z') }),
      // Before the period (31 October, 23:30 Brussels is still October).
      completed('old', '2026-10-31T22:30:00.000Z', 5),
    );
    const { period } = readPeriod({}, NOW, BRUSSELS);
    const figures = await overviewFigures(period, {}, { now: NOW, pendingDays: 3, followUpDays: 30 });
    expect(figures.totals).toEqual({ created: 9, completed: 4, failed: 3, expired: 1, pending: 1 });
    expect(figures.completionRate).toBeCloseTo(4 / 9);
    // 10, 30, 60, 120 minutes: the median is 45 minutes, the 90th percentile 102 (interpolated).
    expect(figures.completionSeconds.median).toBeCloseTo(45 * 60);
    expect(figures.completionSeconds.p90).toBeCloseTo(102 * 60);
    expect(figures.created).toEqual([
      { bucket: '2026-11-10', status: 'completed', count: 2 },
      { bucket: '2026-11-10', status: 'failed', count: 1 },
      { bucket: '2026-11-12', status: 'completed', count: 2 },
      { bucket: '2026-11-12', status: 'failed', count: 2 },
      { bucket: '2026-11-13', status: 'expired', count: 1 },
      { bucket: '2026-11-19', status: 'pending', count: 1 },
    ]);
    expect(figures.failureReasons).toEqual([
      { reason: 'document_expired', count: 2 },
      { reason: 'face_mismatch', count: 1 },
    ]);
    expect(figures.methods).toEqual([
      { method: 'passport', count: 3 },
      { method: 'id_card', count: 1 },
    ]);
  });

  it('counts weeks from Monday in the zone, and narrows every figure by the filters', async () => {
    await insert(
      completed('mon', '2026-11-09T08:00:00.000Z', 10, { createdBy: OTTO, language: 'fr' }),
      completed('sun', '2026-11-15T20:00:00.000Z', 10, { createdBy: ADA }),
      // Sunday 22:30 UTC is Monday in Brussels: the next week.
      completed('late', '2026-11-15T23:30:00.000Z', 10, { createdBy: OTTO, smsNotification: true, purpose: 'gdpr_request' }),
    );
    const { period } = readPeriod({ period: 'custom', from: '2026-09-01', to: '2026-11-20' }, NOW, BRUSSELS);
    expect(period.bucket).toBe('week');
    const all = await overviewFigures(period, {}, { now: NOW, pendingDays: 3, followUpDays: 30 });
    expect(all.created).toEqual([
      { bucket: '2026-11-09', status: 'completed', count: 2 },
      { bucket: '2026-11-16', status: 'completed', count: 1 },
    ]);
    const figures = (filter: Parameters<typeof overviewFigures>[1]) =>
      overviewFigures(period, filter, { now: NOW, pendingDays: 3, followUpDays: 30 });
    expect((await figures({ createdBy: OTTO })).totals.created).toBe(2);
    expect((await figures({ language: 'fr' })).totals.created).toBe(1);
    expect((await figures({ channel: 'sms' })).totals.created).toBe(1);
    expect((await figures({ purpose: 'gdpr_request' })).totals.created).toBe(1);
    expect((await figures({ createdBy: 'nobody' })).totals).toEqual({ created: 0, completed: 0, failed: 0, expired: 0, pending: 0 });
    expect((await figures({ createdBy: 'nobody' })).completionRate).toBeNull();
  });

  it('gives the share of name mismatches and their decisions, and the open items with their oldest per assignee', async () => {
    await insert(
      completed('m1', '2026-11-05T08:00:00.000Z', 10, { identifiedName: 'Someone', nameMismatch: true }),
      completed('m2', '2026-11-05T09:00:00.000Z', 10, { identifiedName: 'Someone', nameMismatch: true, assignedTo: OTTO }),
      completed('m3', '2026-11-06T09:00:00.000Z', 10, { identifiedName: 'Someone', nameMismatch: true }),
      row({ verificationId: 'f1', status: 'failed', createdAt: at('2026-11-02T09:00:00.000Z'), assignedTo: OTTO }),
      row({ verificationId: 'f2', status: 'failed', createdAt: at('2026-11-03T09:00:00.000Z') }),
    );
    const db = await getDb();
    await db.insert(nameReviews).values([
      { verificationId: 'm1', decision: 'same_person', note: 'Married name.', decidedBy: ADA },
      { verificationId: 'm3', decision: 'different_person', note: 'Not her.', decidedBy: ADA },
    ]);
    const { period } = readPeriod({}, NOW, BRUSSELS);
    const figures = await overviewFigures(period, {}, { now: NOW, pendingDays: 3, followUpDays: 30 });
    expect(figures.mismatches).toEqual({
      total: 3,
      decisions: [
        { decision: 'different_person', count: 1 },
        { decision: 'same_person', count: 1 },
        { decision: null, count: 1 },
      ],
    });
    // m2 (undecided, Otto's), f1 (Otto's) and f2 (nobody's) need attention now.
    expect(figures.openItems).toEqual([
      { assigneeId: OTTO, assigneeName: 'Otto Operator', count: 2, oldestCreatedAt: at('2026-11-02T09:00:00.000Z') },
      { assigneeId: null, assigneeName: null, count: 1, oldestCreatedAt: at('2026-11-03T09:00:00.000Z') },
    ]);
  });

  // PostgreSQL's JIT compiled these aggregates for longer than they ran (lib/platform/database.ts).
  it.skipIf(!process.env.DATABASE_URL)('runs on PostgreSQL connections without JIT compilation', async () => {
    const db = await getDb();
    const { rows } = (await db.execute(sql`show jit`)) as unknown as { rows: { jit: string }[] };
    expect(rows[0]?.jit).toBe('off');
  });
});
