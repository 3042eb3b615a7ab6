// The sandbox's database: its tables (Postgres schema `sandbox`) on the process's store, the
// same one the dashboard uses (lib/platform/database.ts), migrated on first use. Opened lazily:
// `next build` imports route modules.
import 'server-only';
import path from 'node:path';
import { type Database, once, openMigratedDatabase } from '@/lib/platform/database';
import { getSandboxConfig } from './config';
import * as schema from './schema';

export type SandboxDb = Database<typeof schema>;

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
    const config = getSandboxConfig();
    const settings = {
      databaseUrl: config.databaseUrl,
      poolMax: config.databasePoolMax,
      dataDir: config.dataDir,
      waitForLockMs: options.waitForLockMs ?? 5_000,
    };
    return openMigratedDatabase(
      settings,
      {
        migrationsFolder: path.join(process.cwd(), 'lib/sandbox/migrations'),
        // Not the `sandbox` schema: the migrator creates its bookkeeping schema before running the
        // first migration, whose `CREATE SCHEMA "sandbox"` would then fail ("already exists").
        // The bookkeeping table sits beside the dashboard's, under its own name.
        migrationsSchema: 'drizzle',
        migrationsTable: 'sandbox_migrations',
      },
      schema,
    );
  });
}

export { schema };
