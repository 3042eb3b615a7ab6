// The register's search is served by indexes (migrations 0011 and 0016), on either store: the plan
// of the very query the page runs names the trigram index for a name, rare or absent alike, for
// each word of a term, the index of contact hashes for an address or a number, and reads an
// id prefix as a range of a b-tree, and a page however deep as a range of the register's order
// (migration 0012); a status filter's page, too, and the home page's counts of its quick views
// read only their partial indexes (migration 0013). What it costs at a million rows is the
// bench's to measure.
import { eq, type SQL, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import type { PageCursor } from '@/lib/db/keyset';
import { verificationRequests } from '@/lib/db/schema';
import { rowsOf } from '@/lib/platform/database';
import { ADA, NOW, setUpRegisterDatabase } from '@/test/support/register';
import { contactDigestsOfRequest } from './contact-digest.server';
import type { RegisterFilter } from './filter';
import { listRegister, needsReviewCountQuery, registerListQuery, registerViewCountsQuery, withContactDigest } from './queries.server';

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
  return explained((tx) => registerListQuery(tx, filter, { ...context, position }).getSQL());
}

type Tx = Parameters<Parameters<Awaited<ReturnType<typeof getDb>>['transaction']>[0]>[0];

/** The plan of `queryIn`, with sequential scans off, and index or bitmap scans as asked. */
async function explained(queryIn: (tx: Tx) => SQL, { indexScans = false, bitmapScans = true } = {}): Promise<string> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    if (!indexScans) await tx.execute(sql`set local enable_indexscan = off`);
    if (!bitmapScans) await tx.execute(sql`set local enable_bitmapscan = off`);
    const rows = rowsOf<{ 'QUERY PLAN': string }>(await tx.execute(sql`explain ${queryIn(tx)}`));
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

  it('looks every word of a term up in the trigram index, a short word beside a longer one too', async () => {
    await seed();
    expect((await listRegister({ q: 'zolkiewski zbig' }, context)).map((entry) => entry.verificationId)).toEqual(['zz-rare']);
    for (const q of ['zolkiewski zbig', 'de smet', 'no such-name']) {
      const plan = await planOf({ q });
      expect(plan, plan).toContain('verification_requests_search_names_trgm_idx');
      expect(plan, plan).not.toMatch(/Seq Scan on verification_requests/);
    }
  });

  it('looks an e-mail address or a phone number up in the index of contact hashes', async () => {
    await seed();
    const db = await getDb();
    const digests = await contactDigestsOfRequest({ email: 'zbigniew@example.pl', phonenumber: '+48601234567' });
    await db.update(verificationRequests).set({ contactDigests: digests }).where(eq(verificationRequests.verificationId, 'zz-rare'));
    await db.execute(sql`analyze verification_requests`);
    for (const q of ['ZBIGNIEW@example.pl', '+48 601 234 567']) {
      const searched = await withContactDigest({ q }, context);
      expect((await listRegister({ q }, context)).map((entry) => entry.verificationId)).toEqual(['zz-rare']);
      const plan = await explained((tx) => registerListQuery(tx, { q }, searched).getSQL());
      expect(plan, plan).toContain('verification_requests_contact_digests_idx');
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

  it("reads a status filter's page as a range of the (status, created_at, id) index", async () => {
    await seed();
    // A few failed requests among many pending ones: walking the register's order for them would
    // read nearly every row.
    const db = await getDb();
    await db.execute(sql`update verification_requests set status = 'failed' where verification_id in ('v-7', 'v-250', 'v-499')`);
    await db.execute(sql`analyze verification_requests`);
    expect((await listRegister({ status: 'failed' }, context)).map((entry) => entry.verificationId)).toEqual(['v-7', 'v-250', 'v-499']);
    const plan = await explained((tx) => registerListQuery(tx, { status: 'failed' }, context).getSQL(), { indexScans: true });
    expect(plan, plan).toContain('verification_requests_status_created_idx');
    // The page's own rows are not sorted; the per-row look-up of a follow-up (a SubPlan) orders
    // the one or two requests that follow a row up, which is no sort of the register.
    expect(plan.split('SubPlan')[0], plan).not.toMatch(/Sort/);
  });

  it('counts the quick views and the requests needing review from their partial indexes alone', async () => {
    await seed();
    // Bitmap scans switched off too, which never read an index alone: what these counts need is
    // all in their indexes.
    const counts = (query: (tx: Tx) => { getSQL(): SQL } | null) =>
      explained((tx) => query(tx)!.getSQL(), { indexScans: true, bitmapScans: false });
    const views = await counts((tx) => registerViewCountsQuery(tx, {}, { now: NOW }));
    expect(views, views).toMatch(/Index Only Scan using verification_requests_pending_idx/);
    const review = await counts((tx) => needsReviewCountQuery(tx, {}, { now: NOW }));
    expect(review, review).toMatch(/Index Only Scan using verification_requests_needs_review_idx/);
  });
});
