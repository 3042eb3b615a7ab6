// The sandbox's database: its tables (Postgres schema `sandbox`) on the process's shared
// embedded Postgres, migrated on first use. Opened lazily: `next build` imports route modules.
import 'server-only';
import path from 'node:path';
import { drizzle, type PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { once, openDatabase } from '@/lib/platform/embedded-database';
import { getSandboxDataDir } from './config';
import * as schema from './schema';

export type SandboxDb = PgliteDatabase<typeof schema>;

/** A transaction handle: the same query API as the database. */
export type SandboxTx = Parameters<Parameters<SandboxDb['transaction']>[0]>[0];

export type SandboxDbOptions = {
  /** How long to wait for another process's lock: the server waits briefly, the CLI not at all. */
  waitForLockMs?: number;
};

/**
 * Opens and migrates the sandbox database once per process. The first caller's options win;
 * later callers share the same promise.
 */
export function getSandboxDb(options: SandboxDbOptions = {}): Promise<SandboxDb> {
  return once('sandbox-db', async () => {
    const pg = await openDatabase(getSandboxDataDir(), { waitForLockMs: options.waitForLockMs ?? 5_000 });
    const db = drizzle({ client: pg, schema });
    await migrate(db, {
      migrationsFolder: path.join(process.cwd(), 'lib/sandbox/migrations'),
      // Not the `sandbox` schema: the migrator creates its bookkeeping schema before running the
      // first migration, whose `CREATE SCHEMA "sandbox"` would then fail ("already exists").
      // The bookkeeping table sits beside the dashboard's, under its own name.
      migrationsSchema: 'drizzle',
      migrationsTable: 'sandbox_migrations',
    });
    return db;
  });
}

export { schema };
