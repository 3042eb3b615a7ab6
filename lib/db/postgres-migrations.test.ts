// One schema for two stores: the dashboard's and the sandbox's migrations, written against PGlite
// (PostgreSQL 18 inside), must also apply on a real PostgreSQL server of the version Debian ships
// (15), and leave exactly the tables, columns and indexes they leave on PGlite.
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresServer, startPostgresServer } from '@/test/support/postgres-server';

const MIGRATIONS = [
  { migrationsFolder: path.join(process.cwd(), 'lib/db/migrations'), migrationsSchema: 'drizzle', migrationsTable: 'dashboard_migrations' },
  {
    migrationsFolder: path.join(process.cwd(), 'lib/sandbox/migrations'),
    migrationsSchema: 'drizzle',
    migrationsTable: 'sandbox_migrations',
  },
];

// What the migrations made, as sorted lines: every column with its type and nullability, and every index.
const SHAPE_SQL = `
  select table_schema || '.' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable as line
    from information_schema.columns where table_schema in ('public', 'sandbox')
  union all
  select schemaname || '.' || tablename || ' index ' || indexname as line
    from pg_indexes where schemaname in ('public', 'sandbox')
  order by line`;

let server: PostgresServer;
let pool: pg.Pool;

beforeAll(async () => {
  server = await startPostgresServer();
  pool = new pg.Pool({ connectionString: server.url, max: 2 });
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

describe('the migrations on a real PostgreSQL server', () => {
  it('runs the version Debian ships (15) or newer', () => {
    expect(server.majorVersion).toBeGreaterThanOrEqual(15);
  });

  it('apply, and leave the same tables, columns and indexes as on the embedded database', async () => {
    const db = drizzlePg({ client: pool });
    for (const config of MIGRATIONS) await migratePg(db, config);
    const onServer = (await pool.query<{ line: string }>(SHAPE_SQL)).rows.map((row) => row.line);

    const embedded = new PGlite({ extensions: { pg_trgm } });
    try {
      const embeddedDb = drizzlePglite({ client: embedded });
      for (const config of MIGRATIONS) await migratePglite(embeddedDb, config);
      const onPglite = (await embedded.query<{ line: string }>(SHAPE_SQL)).rows.map((row) => row.line);
      // Not an empty comparison: the register, staff and sandbox tables are all there.
      expect(onServer).toEqual(
        expect.arrayContaining(['public.verification_requests.verification_id text NO', 'public.staff_users.email text NO']),
      );
      expect(onServer.some((line) => line.startsWith('sandbox.'))).toBe(true);
      expect(onServer).toEqual(onPglite);
    } finally {
      await embedded.close();
    }
    // A fresh embedded database and both migration runs: longer than most tests on a busy machine.
  }, 120_000);

  it('apply again without change: a second instance starting later finds nothing to do', async () => {
    const db = drizzlePg({ client: pool });
    const before = (await pool.query<{ line: string }>(SHAPE_SQL)).rows;
    for (const config of MIGRATIONS) await migratePg(db, config);
    expect((await pool.query<{ line: string }>(SHAPE_SQL)).rows).toEqual(before);
  });
});
