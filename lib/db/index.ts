// The dashboard's database: its tables on the process's shared embedded Postgres, migrated
// on first use (instrumentation triggers that at start-up).
import 'server-only';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle, type PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { getEnv } from '@/lib/env';
import { once, openDatabase } from '@/lib/platform/embedded-database';
import * as schema from './schema';

export type Db = PgliteDatabase<typeof schema> & { $client: PGlite };

/** The first caller's options win: a server waits briefly for the lock, a CLI does not wait. */
export function getDb(options: { waitForLockMs?: number } = {}): Promise<Db> {
  return once('dashboard-db', async () => {
    const pg = await openDatabase(getEnv().DATA_DIR, { waitForLockMs: options.waitForLockMs ?? 5_000 });
    const db = drizzle({ client: pg, schema });
    await migrate(db, {
      migrationsFolder: path.join(process.cwd(), 'lib/db/migrations'),
      migrationsSchema: 'drizzle',
      migrationsTable: 'dashboard_migrations',
    });
    return db;
  });
}

export { schema };
