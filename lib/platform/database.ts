// The process's database, on one of two stores behind one drizzle API:
//  - a PostgreSQL server (DATABASE_URL), shared by any number of instances, reached through a
//    node-postgres pool of DATABASE_POOL_MAX connections;
//  - otherwise the embedded PGlite in DATA_DIR (lib/platform/embedded-database.ts), locked to
//    one process: the zero-config default.
// The dashboard's and the sandbox's tables live side by side on the same store (schemas public
// and sandbox), so a process holds one store, whichever half asks first.
import 'server-only';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { MIGRATIONS_LOCK } from '@/lib/platform/advisory-locks';
import { closeEmbeddedDatabases, openDatabase as openEmbeddedDatabase } from '@/lib/platform/embedded-database';
import { logger } from '@/lib/platform/log';
import { processSingleton } from '@/lib/platform/process-singleton';

const log = logger.child({ area: 'db' });

export type StoreSettings = {
  /** postgres://… : a PostgreSQL server. Unset: the embedded database in `dataDir`. */
  databaseUrl?: string | undefined;
  /** The pool's size on a server (DATABASE_POOL_MAX). */
  poolMax?: number;
  dataDir: string;
  /** How long to wait for another process's lock on an embedded data directory. */
  waitForLockMs?: number;
};

export type Store = { kind: 'pglite'; client: PGlite } | { kind: 'postgres'; pool: pg.Pool; url: string };

/** A drizzle handle on either store: the same query API, whichever driver is underneath. */
export type Database<TSchema extends Record<string, unknown>> = PgDatabase<PgQueryResultHKT, TSchema>;

type Pools = Map<string, pg.Pool>;

function pools(): Pools {
  return processSingleton<Pools>('postgres-pools', () => new Map());
}

/** How a connection's failure is named in logs: the host and database, never the password. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`;
  } catch {
    return 'the configured server';
  }
}

function openPool(url: string, max: number): pg.Pool {
  const all = pools();
  let pool = all.get(url);
  if (!pool) {
    pool = new pg.Pool({
      connectionString: url,
      max,
      // A connection that cannot be made within 5 s fails the query that wanted it (a page shows
      // "database unavailable") instead of queueing requests behind a server that is down.
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      // Names this instance's connections in pg_stat_activity.
      application_name: 'verification-desk',
    });
    // An idle connection the server closed (a restart, pg_terminate_backend) is reported here;
    // the pool drops it and opens a fresh one on the next query. Without a listener the error
    // would end the process.
    pool.on('error', (error) => log.warn({ err: error, server: describeDatabaseUrl(url) }, 'an idle database connection was closed'));
    // The dashboard's queries are short; PostgreSQL's JIT compiles any plan it costs above
    // jit_above_cost, and on the overview's aggregates over a million rows the compiling took
    // 100–250 ms of queries that run in 130 ms without it. Set per connection rather than in the
    // URL's startup options, which a pooler in front of the server may refuse. A server without
    // JIT (PostgreSQL 10, or built without LLVM) refuses or ignores the setting: nothing is lost.
    pool.on('connect', (client) => {
      client.query('set jit = off').catch(() => undefined);
    });
    all.set(url, pool);
  }
  return pool;
}

/** The store for these settings, opened once per process. */
export async function openStore(settings: StoreSettings): Promise<Store> {
  if (settings.databaseUrl) {
    return { kind: 'postgres', pool: openPool(settings.databaseUrl, settings.poolMax ?? 10), url: settings.databaseUrl };
  }
  const client = await openEmbeddedDatabase(settings.dataDir, { waitForLockMs: settings.waitForLockMs ?? 0 });
  return { kind: 'pglite', client };
}

export function drizzleOn<TSchema extends Record<string, unknown>>(store: Store, schema: TSchema): Database<TSchema> {
  return store.kind === 'postgres' ? drizzlePostgres({ client: store.pool, schema }) : drizzlePglite({ client: store.client, schema });
}

export type MigrationSet = { migrationsFolder: string; migrationsSchema: string; migrationsTable: string };

/**
 * Applies `set` to the store; on a server, under an advisory lock. Drizzle's migrator takes no
 * lock: instances that start together on a fresh server would each apply the first migration,
 * and all but one fail on the bookkeeping table. With the lock, the first applies them and the
 * others find nothing left to do.
 */
export async function migrateStore(store: Store, set: MigrationSet): Promise<void> {
  if (store.kind === 'pglite') {
    // One process owns an embedded data directory: nobody to wait for.
    await migratePglite(drizzlePglite({ client: store.client }), set);
    return;
  }
  const connection = await store.pool.connect();
  let broken = false;
  try {
    await connection.query('select pg_advisory_lock($1)', [MIGRATIONS_LOCK]);
    try {
      await migratePostgres(drizzlePostgres({ client: connection }), set);
    } finally {
      await connection.query('select pg_advisory_unlock($1)', [MIGRATIONS_LOCK]).catch((error: unknown) => {
        // A session lock must not stay with a pooled connection: drop the connection instead.
        broken = true;
        throw error;
      });
    }
  } catch (error) {
    broken = true;
    throw error;
  } finally {
    connection.release(broken);
  }
}

/** The store for `settings`, with `migrations` applied, as a drizzle handle on `schema`: what each half of the app opens. */
export async function openMigratedDatabase<TSchema extends Record<string, unknown>>(
  settings: StoreSettings,
  migrations: MigrationSet,
  schema: TSchema,
): Promise<Database<TSchema>> {
  const store = await openStore(settings);
  await migrateStore(store, migrations);
  return drizzleOn(store, schema);
}

type PreparedRaw = { source: SQL; text: string; execute(values: Record<string, unknown>): Promise<unknown> };

function preparedByDb(): WeakMap<object, Map<string, PreparedRaw>> {
  return processSingleton('prepared-raw-statements', () => new WeakMap<object, Map<string, PreparedRaw>>());
}

const DIALECT = new PgDialect();

/**
 * A raw statement (`sql` with `sql.placeholder`s for what changes from call to call), prepared
 * once per database handle under `name`, as drizzle's builders prepare theirs: drizzle turns it
 * into SQL text once instead of on every call, and a PostgreSQL server parses and plans a named
 * statement once per connection. `execute(values)` fills the placeholders and answers as
 * `db.execute` does (read it with rowsOf). Pass the same `query` object each time (it is
 * compared first); one name has one text, and another text under a taken name is refused.
 */
export function preparedStatement(db: Database<Record<string, unknown>>, name: string, query: SQL): PreparedRaw {
  const all = preparedByDb();
  let statements = all.get(db);
  if (!statements) {
    statements = new Map();
    all.set(db, statements);
  }
  const known = statements.get(name);
  if (known && known.source === query) return known;
  const built = DIALECT.sqlToQuery(query);
  if (known) {
    if (known.text !== built.sql) throw new Error(`prepared statement ${name} was given another text`);
    return known;
  }
  const prepared = db._.session.prepareQuery(built, undefined, name, false);
  const statement: PreparedRaw = { source: query, text: built.sql, execute: (values) => prepared.execute(values) };
  statements.set(name, statement);
  return statement;
}

/** Rows of a raw `db.execute(sql…)`: both drivers answer `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * True for a handle on the embedded store, which one process owns: nothing can change its data
 * behind this process's back, so an in-process cache of it can be kept exact. False on a server,
 * where other instances write too, and for a transaction (it does not say which store it is on).
 */
export function isEmbeddedStore(db: object): boolean {
  return (db as { $client?: unknown }).$client instanceof PGlite;
}

/** True when the database answers a trivial query. */
export async function storeAnswers(db: Database<Record<string, unknown>>): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

function beforeCloseHooks(): Set<() => Promise<void>> {
  return processSingleton('before-close-databases', () => new Set<() => Promise<void>>());
}

function closeHooks(): Set<() => Promise<void>> {
  return processSingleton('close-databases', () => new Set<() => Promise<void>>());
}

/**
 * Work that must reach the database before it closes (a write buffer's last rows, say). The
 * hooks run at the start of every closeDatabases, which is what a shutdown calls.
 */
export function onBeforeCloseDatabases(hook: () => Promise<void>): void {
  beforeCloseHooks().add(hook);
}

/** Connections of this process's own that are not in a pool (the signal listener) close here too. */
export function onCloseDatabases(hook: () => Promise<void>): void {
  closeHooks().add(hook);
}

/** Closes every database this process opened: pools end, embedded databases release their locks. */
export async function closeDatabases(): Promise<void> {
  await Promise.allSettled([...beforeCloseHooks()].map((hook) => hook()));
  onceCache().clear();
  await Promise.allSettled([...closeHooks()].map((hook) => hook()));
  const all = pools();
  const open = [...all.values()];
  all.clear();
  await Promise.allSettled([...open.map((pool) => pool.end()), closeEmbeddedDatabases()]);
}

/**
 * Runs `fn` once per process and key, sharing its promise: migrations and provisioning must
 * not run twice when several bundles ask for the database at the same time.
 */
export function once<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const cache = onceCache();
  let result = cache.get(key) as Promise<T> | undefined;
  if (!result) {
    result = fn();
    cache.set(key, result);
    result.catch(() => cache.delete(key));
  }
  return result;
}

function onceCache(): Map<string, Promise<unknown>> {
  return processSingleton('once', () => new Map<string, Promise<unknown>>());
}
