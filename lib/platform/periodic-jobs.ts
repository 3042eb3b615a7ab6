// Background work inside the server process: named jobs, each run once per period for the whole
// deployment, however many instances share the database. Both halves of the app have such work
// (the sandbox's expiry sweep and purge, the dashboard's retention) and share this runner, so a
// failing run is logged the same way and a shutdown waits for runs in progress.
//
// Each job has a row in a lease table of the caller's (this module knows neither half's
// schema). An instance runs a job only after claiming its row in one UPDATE: due
// (next_run_at passed) and not leased to a run in progress. The claim moves next_run_at a period
// ahead and leases the row; the lease is renewed while the run lasts and released when it ends.
// An instance that dies mid-run leaves a lease that simply runs out, and the next instance to
// look takes the job over. Instances that did not claim sleep until the row says the job is next
// due, so a job is not delayed by an instance that died: whoever is alive claims it on time.
import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type Database, rowsOf } from '@/lib/platform/database';
import { logger } from '@/lib/platform/log';
import { processSingleton } from '@/lib/platform/process-singleton';

export type PeriodicJob = {
  name: string;
  /** Delay before the first run when the job has never run anywhere: 0 runs it at start. */
  firstRunAfterMs: number;
  /** Time between the starts of two runs (a run that outlasts it is followed at once by the next). */
  everyMs: number;
  /** How long a run may go unrenewed before another instance takes the job over. */
  leaseMs?: number;
  run: () => Promise<unknown>;
};

export type JobLeases = {
  db: () => Promise<Database<Record<string, unknown>>>;
  /**
   * The lease table: name text primary key, next_run_at timestamptz not null, leased_until,
   * last_run_by, last_started_at, last_finished_at.
   */
  table: PgTable;
  /** Names this runner in the table (last_run_by) and tells its leases apart: host:pid by default. */
  owner?: string;
  /** The longest sleep between two looks at a job's row, in case its schedule changes. */
  maxPollMs?: number;
};

/** Stops the timers; resolves once a run in progress has finished. */
export type StopPeriodicJobs = () => Promise<void>;

type Slot = { stop: StopPeriodicJobs | undefined };

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_MAX_POLL_MS = 30_000;
/** A floor for the sleep between looks, so a row that is due "now" by a hair is not hammered. */
const MIN_SLEEP_MS = 5;

const interval = (ms: number) => sql`(${ms}::double precision * interval '1 millisecond')`;

/**
 * Starts `jobs` under `group`, once per process: while they run, a second call returns the
 * running group's stop function. Timers are unref'd and never keep the process alive.
 */
export function startPeriodicJobs(group: string, jobs: readonly PeriodicJob[], leases: JobLeases): StopPeriodicJobs {
  const slot = processSingleton<Slot>(`jobs.${group}`, () => ({ stop: undefined }));
  if (slot.stop) return slot.stop;

  const log = logger.child({ area: group });
  const owner = leases.owner ?? `${hostname()}:${process.pid}`;
  const maxPollMs = leases.maxPollMs ?? DEFAULT_MAX_POLL_MS;
  const table = leases.table;
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();

  /**
   * The job's row exists; a period shortened since the last run takes effect now. The shortened
   * period counts from the last start, not from now(): now() is when this statement's transaction
   * began, which may be before a claim it waited for, and would pull the next run into that claim's
   * period.
   */
  async function ensureRow(db: Database<Record<string, unknown>>, job: PeriodicJob) {
    await db.execute(sql`
      insert into ${table} (name, next_run_at) values (${job.name}, now() + ${interval(job.firstRunAfterMs)})
      on conflict (name) do update set next_run_at = least(
        ${table}.next_run_at, coalesce(${table}.last_started_at, now()) + ${interval(job.everyMs)}
      )
    `);
  }

  /** Claims the job if it is due and free; otherwise says how long until it may be. */
  async function claim(db: Database<Record<string, unknown>>, job: PeriodicJob, leaseMs: number) {
    const [row] = rowsOf<{ claimed: number; due_in_ms: number | string }>(
      await db.execute(sql`
        with claimed as (
          update ${table}
          set next_run_at = now() + ${interval(job.everyMs)}, leased_until = now() + ${interval(leaseMs)},
            last_run_by = ${owner}, last_started_at = now()
          where name = ${job.name} and next_run_at <= now() and (leased_until is null or leased_until <= now())
          returning 1
        )
        select (select count(*) from claimed)::int as claimed,
          extract(epoch from (greatest(next_run_at, coalesce(leased_until, next_run_at)) - now())) * 1000 as due_in_ms
        from ${table} where name = ${job.name}
      `),
    );
    return row;
  }

  async function renew(db: Database<Record<string, unknown>>, job: PeriodicJob, leaseMs: number) {
    await db.execute(sql`
      update ${table} set leased_until = now() + ${interval(leaseMs)}
      where name = ${job.name} and last_run_by = ${owner} and leased_until is not null
    `);
  }

  async function release(db: Database<Record<string, unknown>>, job: PeriodicJob) {
    await db.execute(sql`
      update ${table} set leased_until = null, last_finished_at = now()
      where name = ${job.name} and last_run_by = ${owner} and leased_until is not null
    `);
  }

  /** Runs the claimed job, renewing its lease meanwhile so a long run is not taken over. */
  async function runClaimed(db: Database<Record<string, unknown>>, job: PeriodicJob, leaseMs: number) {
    let renewing: Promise<void> = Promise.resolve();
    const renewal = setInterval(() => {
      renewing = renew(db, job, leaseMs).catch((error: unknown) =>
        log.warn({ err: error, job: job.name }, `${group} job lease not renewed`),
      );
    }, leaseMs / 3);
    renewal.unref();
    try {
      await job.run();
    } catch (error) {
      log.error({ err: error, job: job.name }, `${group} job failed`);
    } finally {
      clearInterval(renewal);
      // A renewal still on its way would otherwise land after the release and hold the job.
      await renewing;
      await release(db, job).catch((error: unknown) =>
        // The lease then runs out by itself; the job is only delayed.
        log.warn({ err: error, job: job.name }, `${group} job lease not released`),
      );
    }
  }

  /** One look at the job's row: claim and run it if due, and answer how long to sleep. */
  async function look(job: PeriodicJob, first: boolean): Promise<number> {
    const leaseMs = job.leaseMs ?? DEFAULT_LEASE_MS;
    const db = await leases.db();
    if (first) await ensureRow(db, job);
    let row = await claim(db, job, leaseMs);
    if (!row) {
      // The row was removed (by an operator, say): put it back and look again.
      await ensureRow(db, job);
      row = await claim(db, job, leaseMs);
    }
    if (row?.claimed && stopped) {
      // Stopped while claiming: hand the run back to whoever looks next.
      await db.execute(sql`
        update ${table} set leased_until = null, next_run_at = now()
        where name = ${job.name} and last_run_by = ${owner} and leased_until is not null
      `);
      return 0;
    }
    if (row?.claimed) {
      await runClaimed(db, job, leaseMs);
      return 0;
    }
    return Math.min(maxPollMs, Math.max(MIN_SLEEP_MS, Math.ceil(Number(row?.due_in_ms ?? maxPollMs))));
  }

  const schedule = (job: PeriodicJob, delayMs: number, first: boolean) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (stopped) return;
      // After a failure (the database unreachable, say), look again within a period.
      let next = Math.min(maxPollMs, job.everyMs);
      let retryFirst = first;
      const pass = look(job, first).then(
        (sleepMs) => {
          next = sleepMs;
          retryFirst = false;
        },
        (error: unknown) => log.error({ err: error, job: job.name }, `${group} job could not be scheduled`),
      );
      inFlight.add(pass);
      void pass.finally(() => {
        inFlight.delete(pass);
        if (!stopped) schedule(job, next, retryFirst);
      });
    }, delayMs);
    timer.unref();
    timers.add(timer);
  };
  for (const job of jobs) schedule(job, 0, true);

  const stop: StopPeriodicJobs = async () => {
    stopped = true;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    if (slot.stop === stop) slot.stop = undefined;
    await Promise.allSettled([...inFlight]);
  };
  slot.stop = stop;
  return stop;
}
