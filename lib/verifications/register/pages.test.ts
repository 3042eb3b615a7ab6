// The register's keyset pages (lib/db/keyset.ts) on a real database: every row exactly once and
// in order while new requests arrive between pages, rows that share a creation time (apart by a
// microsecond, which a JS Date would round away), the way back with `before`, the "expiring"
// view's mixed order, and cursors that are malformed or tampered with.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { type PageCursor, parseCursor, readPagePosition } from '@/lib/db/keyset';
import { ADA, insert, NOW, OTTO, row, setUpRegisterDatabase } from '@/test/support/register';
import type { RegisterFilter } from './filter';
import { listRegisterPage, registerCursorKinds } from './queries.server';

setUpRegisterDatabase();

const context = { now: NOW, staffId: ADA };

/**
 * `count` requests made in SQL: three share each creation time, each trio one microsecond older
 * than the one before; the deadlines fall on four hours within the next day, so the expiring view
 * has ties on its first key too. Ids sort the same way as their numbers.
 */
async function seed(count: number): Promise<void> {
  await (await getDb()).execute(sql`
    insert into verification_requests
      (verification_id, name, purpose, language, shareable_link, email_notification, sms_notification,
       status, created_by, created_at, access_expires_at, kept_until)
    select 'r' || lpad(i::text, 3, '0'), 'Person ' || i, 'legal_obligations', 'en', true, false, false,
           'pending', ${ADA},
           ${NOW.toISOString()}::timestamptz - interval '1 hour' - (i / 3) * interval '1 microsecond',
           ${NOW.toISOString()}::timestamptz + (1 + i % 4) * interval '1 hour',
           ${NOW.toISOString()}::timestamptz + interval '30 days'
      from generate_series(1, ${count}) as i`);
}

const id = (i: number) => `r${String(i).padStart(3, '0')}`;
const numbers = (count: number) => Array.from({ length: count }, (_, k) => k + 1);
/** Newest first: by creation time, then by id, descending. */
const newestFirst = (count: number) =>
  numbers(count)
    .sort((a, b) => Math.floor(a / 3) - Math.floor(b / 3) || b - a)
    .map(id);

/** A page link's cursor read back as the page reads it. */
function position(filter: RegisterFilter, side: 'after' | 'before', cursor: string): PageCursor {
  const values = parseCursor(cursor, registerCursorKinds(filter.view));
  expect(values, cursor).toBeDefined();
  return { side, values: values! };
}

describe('the register in keyset pages', () => {
  it('gives every request exactly once, in order, while newer ones arrive between and during the pages', async () => {
    await seed(40);
    const seen: string[][] = [];
    let cursor: string | undefined;
    let added = 0;
    do {
      const read = listRegisterPage({}, { ...context, size: 7, position: cursor ? position({}, 'after', cursor) : undefined });
      // A request created while the page is read, on another connection where the store has several.
      added += 1;
      const [page] = await Promise.all([
        read,
        insert(row({ verificationId: `new-${added}`, createdAt: new Date(NOW.getTime() + added * 1000) })),
      ]);
      seen.push(page.entries.map((entry) => entry.verificationId));
      cursor = page.links.older?.after;
    } while (cursor);
    // New requests are newer than every page: at most the first page can show them.
    for (const page of seen.slice(1)) expect(page.filter((value) => value.startsWith('new-'))).toEqual([]);
    expect(seen.flat().filter((value) => !value.startsWith('new-'))).toEqual(newestFirst(40));
    expect(seen.length).toBeGreaterThanOrEqual(6);
  });

  it('prints the cursor to the microsecond, and goes back with `before` to a full first page', async () => {
    await seed(10);
    const first = await listRegisterPage({}, { ...context, size: 4 });
    expect(first.links.newer).toBeUndefined();
    // r003 was created 1 µs before r001 and r002: its own instant, not a rounded one.
    expect(first.entries.map((entry) => entry.cursor)).toEqual([
      `2030-06-15T11:00:00.000000Z~${id(2)}`,
      `2030-06-15T11:00:00.000000Z~${id(1)}`,
      `2030-06-15T10:59:59.999999Z~${id(5)}`,
      `2030-06-15T10:59:59.999999Z~${id(4)}`,
    ]);
    const second = await listRegisterPage({}, { ...context, size: 4, position: position({}, 'after', first.links.older!.after) });
    const third = await listRegisterPage({}, { ...context, size: 4, position: position({}, 'after', second.links.older!.after) });
    expect(third.links.older).toBeUndefined();
    const back = await listRegisterPage({}, { ...context, size: 4, position: position({}, 'before', third.links.newer!.before!) });
    expect(back.entries.map((entry) => entry.verificationId)).toEqual(second.entries.map((entry) => entry.verificationId));
    // Only two rows are newer than the first page's third: not a page of two, but the first page, full.
    const start = await listRegisterPage({}, { ...context, size: 4, position: position({}, 'before', first.entries[2]!.cursor) });
    expect(start.entries.map((entry) => entry.verificationId)).toEqual(first.entries.map((entry) => entry.verificationId));
    expect(start.links.newer).toBeUndefined();
  });

  it('pages the "expiring" view by deadline, then newest first, with ties on each key', async () => {
    await seed(30);
    const filter: RegisterFilter = { view: 'expiring', status: 'pending' };
    const expected = numbers(30)
      .sort((a, b) => (a % 4) - (b % 4) || Math.floor(a / 3) - Math.floor(b / 3) || b - a)
      .map(id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listRegisterPage(filter, {
        ...context,
        size: 4,
        position: cursor ? position(filter, 'after', cursor) : undefined,
      });
      seen.push(...page.entries.map((entry) => entry.verificationId));
      cursor = page.links.older?.after;
    } while (cursor);
    expect(seen).toEqual(expected);
  });

  it('pages under the assignee filter: each of the filtered rows once, in order, and back', async () => {
    await seed(20);
    // Every third request is Otto's, the rest nobody's.
    await (await getDb()).execute(sql`update verification_requests set assigned_to = ${OTTO}, assigned_at = now()
      where substr(verification_id, 2)::int % 3 = 0`);
    for (const [filter, expected] of [
      [{ assignee: OTTO }, newestFirst(20).filter((value) => Number(value.slice(1)) % 3 === 0)],
      [{ assignee: 'unassigned' }, newestFirst(20).filter((value) => Number(value.slice(1)) % 3 !== 0)],
    ] as [RegisterFilter, string[]][]) {
      const pages: string[][] = [];
      let last: Awaited<ReturnType<typeof listRegisterPage>> | undefined;
      let cursor: string | undefined;
      do {
        last = await listRegisterPage(filter, { ...context, size: 4, position: cursor ? position(filter, 'after', cursor) : undefined });
        pages.push(last.entries.map((entry) => entry.verificationId));
        cursor = last.links.older?.after;
      } while (cursor);
      expect(pages.flat()).toEqual(expected);
      if (pages.length > 1) {
        const back = await listRegisterPage(filter, {
          ...context,
          size: 4,
          position: position(filter, 'before', last.links.newer!.before!),
        });
        expect(back.entries.map((entry) => entry.verificationId)).toEqual(pages.at(-2));
      }
    }
  });

  it('shows the first page for a cursor that is not one, and any tampered but well-formed cursor without failing', async () => {
    await seed(5);
    // What a malformed cursor is: lib/db/keyset.test.ts. The page reads it as no cursor at all.
    expect(readPagePosition({ after: '2030-02-30T11:00:00.000000Z~r001' }, registerCursorKinds(undefined))).toEqual({ problem: true });
    // The "all" view's cursor in the expiring view (three keys there) is not one either.
    expect(readPagePosition({ before: '2030-06-15T11:00:00.000000Z~r001' }, registerCursorKinds('expiring'))).toEqual({ problem: true });
    // Well-formed, with an id full of SQL and LIKE characters: just a place in the order.
    const tampered = readPagePosition({ after: "9999-12-31T23:59:59.999999Z~r' or 1=1 --%_\\" }, registerCursorKinds(undefined));
    expect(tampered.problem).toBe(false);
    const page = await listRegisterPage({}, { ...context, size: 10, position: tampered.cursor });
    expect(page.entries.map((entry) => entry.verificationId)).toEqual(newestFirst(5));
  });
});
