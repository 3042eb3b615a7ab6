// Migration 0017 on a database that already has an audit trail: the entries written before the
// chain join it in the order they were written (time, then id), each following the one before,
// with the hashes TypeScript recomputes; the head ends at the last; the next entry follows it.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChainEntry, entryHash, GENESIS_HASH } from './entry';
import { ChainVerifier } from './verify-chain';

const MIGRATIONS = path.join(process.cwd(), 'lib/db/migrations');
const CONFIG = { migrationsSchema: 'drizzle', migrationsTable: 'dashboard_migrations' };

/** The dashboard's migrations up to and including `lastTag`, as a folder of their own. */
function migrationsUpTo(lastTag: string): string {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS, 'meta/_journal.json'), 'utf8'));
  const entries = journal.entries.slice(0, journal.entries.findIndex((entry: { tag: string }) => entry.tag === lastTag) + 1);
  const folder = mkdtempSync(path.join(tmpdir(), 'migrations-before-chain-'));
  mkdirSync(path.join(folder, 'meta'));
  for (const entry of entries) copyFileSync(path.join(MIGRATIONS, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  return folder;
}

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('migration 0017 on an existing audit trail', () => {
  it('chains the entries in the order they were written, and the next entry follows the last', async () => {
    const client = new PGlite({ extensions: { pg_trgm } });
    try {
      const db = drizzle({ client });
      const before = migrationsUpTo('0016_contact_search');
      folders.push(before);
      await migrate(db, { ...CONFIG, migrationsFolder: before });
      // Inserted out of time order, with details jsonb stores in its own key order.
      await client.exec(`
        insert into audit_entries (id, at, actor_id, action, target_type, target_id, details) values
          ('00000000-0000-4000-8000-000000000003', '2026-03-01T10:00:00.123456Z', 'staff-1', 'verification.reviewed', 'verification', 'v-1', '{"previous":"different_person","decision":"same_person"}'),
          ('00000000-0000-4000-8000-000000000001', '2026-01-01T10:00:00Z', null, 'sign_in.failed', null, null, null),
          ('00000000-0000-4000-8000-000000000002', '2026-02-01T10:00:00Z', 'staff-2', 'staff.role_changed', 'staff', 'Søren "ß"', '{"from":"viewer","to":"admin"}');
      `);
      await migrate(db, { ...CONFIG, migrationsFolder: MIGRATIONS });
      await client.exec(`insert into audit_entries (actor_id, action) values ('staff-3', 'sign_out')`);

      const { rows } = await client.query<ChainEntry>(`
        select seq::int as seq, id, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, actor_id as "actorId",
               action, target_type as "targetType", target_id as "targetId", details, prev_hash as prev, hash
          from audit_entries order by seq`);
      expect(rows.map((row) => [row.seq, row.id.slice(-1)])).toEqual([
        [1, '1'],
        [2, '2'],
        [3, '3'],
        [4, rows[3]!.id.slice(-1)],
      ]);
      expect(rows[0]!.prev).toBe(GENESIS_HASH);
      for (const [i, row] of rows.entries()) {
        expect(entryHash(row)).toBe(row.hash);
        if (i > 0) expect(row.prev).toBe(rows[i - 1]!.hash);
      }
      const head = (await client.query<{ seq: number; hash: string }>('select seq::int as seq, hash from audit_chain_head')).rows[0];
      expect(head).toEqual({ seq: 4, hash: rows[3]!.hash });
      const verifier = new ChainVerifier({ seq: 0, hash: GENESIS_HASH }, [], new Map());
      for (const row of rows) verifier.push(row);
      expect(verifier.finish(head).intact).toBe(true);
    } finally {
      await client.close();
    }
  }, 60_000);
});
