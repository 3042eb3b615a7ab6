// The register's number of results, on both stores: exact up to a bound, "more than" beyond it,
// with every filter, view and search the page applies, and bounded in what it reads: the plan
// as run shows the register read no further than the bound, which is what keeps the count cheap
// at a million rows (docs/performance.md).
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import type { verificationRequests } from '@/lib/db/schema';
import { rowsOf } from '@/lib/platform/database';
import { ADA, at, HOUR, insert, NOW, OTTO, row, setUpRegisterDatabase } from '@/test/support/register';
import type { RegisterFilter } from './filter';
import { countRegisterResults, RESULT_COUNT_BOUND, registerResultCountQuery } from './queries.server';

setUpRegisterDatabase();

const context = { now: NOW, staffId: ADA };

/** `count` pending requests by Ada, a second apart. */
async function seed(count: number, overrides: Partial<typeof verificationRequests.$inferInsert> = {}, prefix = 'r'): Promise<void> {
  await insert(
    ...Array.from({ length: count }, (_, i) => row({ verificationId: `${prefix}-${i}`, createdAt: at(-HOUR - i * 1000), ...overrides })),
  );
}

type PlanNode = {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
};

/** Every row a node of the plan, as run, took from the register's table (kept or filtered out). */
function registerRowsRead(node: PlanNode): number {
  const own =
    node['Relation Name'] === 'verification_requests'
      ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1)
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + registerRowsRead(child), 0);
}

describe('countRegisterResults', () => {
  it('counts exactly up to the bound and says "more" beyond it', async () => {
    await seed(12);
    expect(await countRegisterResults({}, context, 20)).toEqual({ count: 12, more: false });
    expect(await countRegisterResults({}, context, 12)).toEqual({ count: 12, more: false });
    expect(await countRegisterResults({}, context, 11)).toEqual({ count: 11, more: true });
    expect(await countRegisterResults({ status: 'failed' }, context)).toEqual({ count: 0, more: false });
    expect(RESULT_COUNT_BOUND).toBe(10_000);
  });

  it('counts what the list shows: filters, creator, view and search', async () => {
    await seed(3, { name: 'Élodie Martin' }, 'martin');
    await seed(2, { status: 'failed', createdBy: OTTO }, 'failed');
    await seed(4, { accessExpiresAt: at(2 * HOUR) }, 'soon');
    const count = (filter: RegisterFilter) => countRegisterResults(filter, context).then((result) => result.count);
    expect(await count({})).toBe(9);
    expect(await count({ q: 'elodie' })).toBe(3);
    expect(await count({ status: 'failed' })).toBe(2);
    expect(await count({ createdBy: 'mine' })).toBe(7);
    expect(await count({ createdBy: OTTO })).toBe(2);
    expect(await count({ view: 'expiring' })).toBe(4);
  });

  it('counts under the assignee filter what the list shows, and stops at the bound there too', async () => {
    await seed(3, { assignedTo: ADA, assignedAt: at(-HOUR) }, 'ada');
    await seed(2, { assignedTo: OTTO, assignedAt: at(-HOUR) }, 'otto');
    await seed(4, {}, 'free');
    const count = (filter: RegisterFilter, bound?: number) => countRegisterResults(filter, context, bound);
    expect(await count({ assignee: 'mine' })).toEqual({ count: 3, more: false });
    expect(await count({ assignee: OTTO })).toEqual({ count: 2, more: false });
    expect(await count({ assignee: 'unassigned' })).toEqual({ count: 4, more: false });
    expect(await count({ assignee: 'unassigned' }, 3)).toEqual({ count: 3, more: true });
    expect(await count({ assignee: 'mine', createdBy: OTTO })).toEqual({ count: 0, more: false });
  });

  it('reads no more of the register than the bound, however many rows match', async () => {
    await seed(300);
    const db = await getDb();
    const bound = 40;
    const readBy = async (filter: RegisterFilter) => {
      const query = registerResultCountQuery(db, filter, context, bound).getSQL();
      const [result] = rowsOf<{ 'QUERY PLAN': unknown }>(await db.execute(sql`explain (analyze, format json) ${query}`));
      const plan = result?.['QUERY PLAN'];
      const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PlanNode }[];
      return registerRowsRead(parsed[0]!.Plan);
    };
    // Everything, and a filter most rows match: each stops at the bound and the row that says "more".
    const readAll = await readBy({});
    expect(readAll).toBeGreaterThan(0);
    expect(readAll).toBeLessThanOrEqual(bound + 1);
    expect(await readBy({ status: 'pending' })).toBeLessThanOrEqual(bound + 1);
    expect(await readBy({ assignee: 'unassigned' })).toBeLessThanOrEqual(bound + 1);
    expect(await countRegisterResults({}, context, bound)).toEqual({ count: bound, more: true });
  });
});
