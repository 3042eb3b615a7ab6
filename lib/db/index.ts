// The dashboard's database: its tables on the process's store (a PostgreSQL server with
// DATABASE_URL, else the embedded database in DATA_DIR; lib/platform/database.ts), migrated on
// first use (instrumentation triggers that at start-up).
import 'server-only';
import path from 'node:path';
import { getEnv } from '@/lib/env';
import { type Database, once, openMigratedDatabase } from '@/lib/platform/database';
import * as schema from './schema';

export type Db = Database<typeof schema>;

/** The first caller's options win: a server waits briefly for an embedded store's lock, a CLI does not wait. */
export function getDb(options: { waitForLockMs?: number } = {}): Promise<Db> {
  return once('dashboard-db', async () => {
    const env = getEnv();
    return openMigratedDatabase(
      {
        databaseUrl: env.DATABASE_URL,
        poolMax: env.DATABASE_POOL_MAX,
        dataDir: env.DATA_DIR,
        waitForLockMs: options.waitForLockMs ?? 5_000,
      },
      {
        migrationsFolder: path.join(process.cwd(), 'lib/db/migrations'),
        migrationsSchema: 'drizzle',
        migrationsTable: 'dashboard_migrations',
      },
      schema,
    );
  });
}

export { schema };
