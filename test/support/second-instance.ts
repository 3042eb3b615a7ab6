// Test support only: a database handle as another instance of the app would hold it. On a
// PostgreSQL server (the `postgres` project) that is a pool of its own on the same database:
// its own connections, sessions and advisory locks, as a second process would have. On the
// embedded store only one process may open the data, so the "other instance" shares the
// process's handle there and a test shows concurrency within one process instead.
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database } from '@/lib/platform/database';

export type OtherInstanceDb<TSchema extends Record<string, unknown>> = {
  db: Database<TSchema>;
  /** True when `db` has connections of its own (a PostgreSQL server). */
  independent: boolean;
  close(): Promise<void>;
};

export function openOtherInstanceDb<TSchema extends Record<string, unknown>>(
  schema: TSchema,
  fallback: Database<TSchema>,
  { poolMax = 10 }: { poolMax?: number } = {},
): OtherInstanceDb<TSchema> {
  const url = process.env.DATABASE_URL;
  if (!url) return { db: fallback, independent: false, close: async () => {} };
  const pool = new pg.Pool({ connectionString: url, max: poolMax, application_name: 'verification-desk-other-instance' });
  return { db: drizzle({ client: pool, schema }), independent: true, close: () => pool.end() };
}
