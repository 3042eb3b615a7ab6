// `npm run data -- …`: the upgrade path from an embedded data directory to a PostgreSQL server.
//   data export <file>   every row of the embedded store in DATA_DIR (the dashboard's and the
//                        sandbox's tables) to a new file; refused while a server holds DATA_DIR
//   data import <file>   into the PostgreSQL server of DATABASE_URL: migrates it, refuses unless
//                        its tables are empty, and inserts everything in one transaction
// Progress goes to stderr, one JSON summary line to stdout.
import 'server-only';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { inspect } from 'node:util';
import { getEnv, InvalidEnvironmentError } from '@/lib/env';
import { runAsProgram } from '@/lib/platform/cli-program';
import { DataTransferError, exportLines, importRows, nonEmptyTables, parseHeader, type Queryable } from '@/lib/platform/data-transfer';
import { describeDatabaseUrl, type MigrationSet, migrateStore, openStore, type Store } from '@/lib/platform/database';
import { DataDirInUseError } from '@/lib/platform/embedded-database';

const USAGE = `Usage:
  npm run data -- export <file>
      Writes every row of the embedded database in DATA_DIR (default ./data) to <file>, a new
      file readable only by you (it holds password hashes and keys). Stop the server first.
      DATABASE_URL is not read.
  npm run data -- import <file>
      Loads <file> into the PostgreSQL server of DATABASE_URL: creates the tables, refuses unless
      they are empty, and inserts every row in one transaction (all or nothing).`;

/**
 * Both halves' migrations, as their database modules apply them (lib/db/index.ts,
 * lib/sandbox/db.ts): named by folder here, because this tool treats every table alike and
 * imports neither half.
 */
const MIGRATION_SETS: MigrationSet[] = [
  { migrationsFolder: path.join(process.cwd(), 'lib/db/migrations'), migrationsSchema: 'drizzle', migrationsTable: 'dashboard_migrations' },
  {
    migrationsFolder: path.join(process.cwd(), 'lib/sandbox/migrations'),
    migrationsSchema: 'drizzle',
    migrationsTable: 'sandbox_migrations',
  },
];

class UsageError extends Error {}

/** Where a run writes: the summary line to `out`, progress and refusals to `err`. */
export type DataCliOutput = { out: (line: string) => void; err: (line: string) => void };

async function migrated(store: Store): Promise<void> {
  for (const set of MIGRATION_SETS) await migrateStore(store, set);
}

async function exportTo(file: string, output: DataCliOutput): Promise<number> {
  const env = getEnv();
  // Up to date first, so the file always matches the newest schema, which import creates.
  const store = await openStore({ dataDir: env.DATA_DIR, waitForLockMs: 0 });
  await migrated(store);
  if (store.kind !== 'pglite') throw new Error('export reads the embedded store');
  // 'wx': never over an existing file; 0600: the rows include password hashes and key hashes.
  const handle = await open(file, 'wx', 0o600);
  try {
    const header = await exportLines(store.client as unknown as Queryable, (line) => handle.write(`${line}\n`).then(() => undefined));
    await handle.sync();
    const rows = header.tables.reduce((sum, table) => sum + table.rows, 0);
    output.out(JSON.stringify({ exported: path.resolve(file), tables: header.tables.length, rows }));
  } finally {
    await handle.close();
  }
  return 0;
}

async function importFrom(file: string, output: DataCliOutput): Promise<number> {
  const env = getEnv();
  if (!env.DATABASE_URL) throw new UsageError('import needs DATABASE_URL: the PostgreSQL server to load the data into');
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY })[Symbol.asyncIterator]();
  const header = parseHeader((await lines.next()).value as string | undefined);
  const store = await openStore({ databaseUrl: env.DATABASE_URL, poolMax: 2, dataDir: env.DATA_DIR });
  if (store.kind !== 'postgres') throw new Error('import writes to a PostgreSQL server');
  await migrated(store);
  const client = await store.pool.connect();
  try {
    await client.query('begin');
    // A file with the audit chain brings its entries' places and hashes and the head they led to:
    // the new database's own empty head (migration 0017) gives way, and the chain's trigger keeps
    // what the file holds. A file from before the chain lets the trigger chain its entries anew.
    if (header.tables.some(({ table }) => table === 'public.audit_chain_head')) {
      await client.query(`delete from audit_chain_head where seq = 0`);
      await client.query(`set local verification_desk.restoring = 'on'`);
    }
    const occupied = await nonEmptyTables(client);
    if (occupied.length > 0) {
      await client.query('rollback');
      output.err(
        `Refusing to import: the database at ${describeDatabaseUrl(env.DATABASE_URL)} already holds data (${occupied
          .map(({ table, rows }) => `${table}: ${rows}`)
          .join(', ')}). Import into a new, empty database.`,
      );
      return 1;
    }
    const counts = await importRows(client, header, { [Symbol.asyncIterator]: () => lines });
    await client.query('commit');
    output.out(JSON.stringify({ imported: path.resolve(file), tables: counts.length, rows: counts.reduce((sum, t) => sum + t.rows, 0) }));
    return 0;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function run(argv: string[], output: DataCliOutput): Promise<number> {
  const [command, file, ...extra] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    output.out(USAGE);
    return 0;
  }
  if (command !== 'export' && command !== 'import') throw new UsageError(command ? `unknown command: ${command}` : 'missing command');
  if (!file || extra.length > 0) throw new UsageError(`${command} needs exactly one <file>`);
  return command === 'export' ? exportTo(file, output) : importFrom(file, output);
}

/**
 * Runs one command and returns its exit code: 0, 1 (refused or failed), 2 (a server holds the
 * data directory), 64 (the command line is wrong). Does not close the databases (the entry does).
 */
export function runDataCli(argv: string[], output: DataCliOutput): Promise<number> {
  return run(argv, output).catch((error: unknown) => {
    if (error instanceof UsageError) {
      output.err(`${error.message}\n\n${USAGE}`);
      return 64;
    }
    if (error instanceof DataDirInUseError) {
      output.err(`Refusing to run: ${error.message}. Stop the server first, then run this command again.`);
      return 2;
    }
    if (error instanceof InvalidEnvironmentError || error instanceof DataTransferError) {
      output.err(`Refusing to run: ${error.message}`);
      return 1;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      output.err('Refusing to overwrite: the export file exists already. Choose a new name.');
      return 1;
    }
    if (code === 'ENOENT') {
      output.err('The file does not exist.');
      return 1;
    }
    output.err(inspect(error));
    return 1;
  });
}

await runAsProgram(import.meta.url, runDataCli);
