// The register's search is served by indexes (migration 0011), on either store: the plan of the
// very query the page runs names the trigram index for a name, rare or absent alike, and reads an
// id prefix as a range of a b-tree, and a page however deep as a range of the register's order
// (migration 0012). What it costs at a million rows is the bench's to measure.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import type { PageCursor } from '@/lib/db/keyset';
import { rowsOf } from '@/lib/platform/database';
import { ADA, NOW, setUpRegisterDatabase } from '@/test/support/register';
import type { RegisterFilter } from './filter';
import { listRegister, registerListQuery } from './queries.server';

setUpRegisterDatabase();

const context = { now: NOW, staffId: ADA, limit: 101 };

/**
 * The plan of the register page's query for `filter`. The test table is small, and on a small
 * table reading it whole, or walking the created_at index newest first until a page is full,
 * costs the planner less than any lookup: both are switched off for this one transaction
 * (SET LOCAL), so that the plan shows whether the search condition can use an index at all, which
 * is the property this test is about. Bitmap scans, the way a GIN index is read, stay allowed.
 */
async function planOf(filter: RegisterFilter, position?: PageCursor): Promise<string> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    await tx.execute(sql`set local enable_indexscan = off`);
    const query = registerListQuery(tx, filter, { ...context, position });
    const rows = rowsOf<{ 'QUERY PLAN': string }>(await tx.execute(sql`explain ${query.getSQL()}`));
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

async function seed(): Promise<void> {
  const db = await getDb();
  await db.execute(sql`
    insert into verification_requests
      (verification_id, name, purpose, language, shareable_link, email_notification, sms_notification, created_by, created_at)
    select 'v-' || i, 'Person ' || md5(i::text), 'legal_obligations', 'en', true, false, false, ${ADA},
           ${NOW.toISOString()}::timestamptz - i * interval '1 minute'
      from generate_series(1, 500) as i`);
  await db.execute(sql`insert into verification_requests
      (verification_id, name, purpose, language, shareable_link, email_notification, sms_notification, created_by)
    values ('zz-rare', 'Zbigniew Żółkiewski', 'legal_obligations', 'en', true, false, false, ${ADA})`);
  await db.execute(sql`analyze verification_requests`);
}

describe('the register search on its indexes', () => {
  it('looks a name up in the trigram index, whether it is rare or nowhere', async () => {
    await seed();
    // Accents and case folded as ever: the rare name is found, through the index.
    expect((await listRegister({ q: 'ŻÓŁKIEW' }, context)).map((entry) => entry.verificationId)).toEqual(['zz-rare']);
    for (const q of ['zolkiew', 'no such name']) {
      const plan = await planOf({ q });
      expect(plan, plan).toContain('verification_requests_search_names_trgm_idx');
      expect(plan, plan).not.toMatch(/Seq Scan on verification_requests/);
    }
  });

  it('looks an id up by its beginning in the prefix index', async () => {
    await seed();
    expect((await listRegister({ q: 'zz-r' }, context)).map((entry) => entry.verificationId)).toEqual(['zz-rare']);
    const plan = await planOf({ q: 'zz-r' });
    // The prefix as a range of an index: the primary key's where the database compares text as
    // bytes (the C locale, PGlite's), else the text_pattern_ops index (~>=~ and ~<~).
    expect(plan, plan).toMatch(/Index Cond: \(\(verification_id (>=|~>=~) 'zz-r'::text\) AND \(verification_id (<|~<~) 'zz-s'::text\)\)/);
    expect(plan, plan).not.toMatch(/Seq Scan on verification_requests/);
  });

  it('reads a deep page as a range of the (created_at, id) index, not from the newest row', async () => {
    await seed();
    const deep = (await listRegister({}, { ...context, limit: 450 })).at(-1)!;
    const plan = await planOf({}, { side: 'after', values: [deep.cursor.split('~')[0]!, deep.verificationId] });
    expect(plan, plan).toContain('verification_requests_created_id_idx');
    expect(plan, plan).toMatch(/Index Cond: \(ROW\(created_at, verification_id\) < ROW\(/);
  });
});
