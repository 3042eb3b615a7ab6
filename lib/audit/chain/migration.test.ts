// Migration 0017 on a database that already has an audit trail: the entries written before the
// chain join it in the order they were written (time, then id), each following the one before,
// with the hashes TypeScript recomputes; the head ends at the last; the next entry follows it.
import { rmSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { DASHBOARD_MIGRATIONS, migrationsUpTo } from '@/test/support/migrations-up-to';
import { type ChainEntry, entryHash, GENESIS_HASH } from './entry';
import { ChainVerifier } from './verify-chain';

const CONFIG = { migrationsSchema: 'drizzle', migrationsTable: 'dashboard_migrations' };

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
      await migrate(db, { ...CONFIG, migrationsFolder: DASHBOARD_MIGRATIONS });
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
