// The job runner with its lease table, on both stores; on PostgreSQL the runners play separate
// instances (a pool each). Every run records the time its claim was made (the lease row's
// last_started_at, on the database's clock) and when it finished, so the checks below compare
// times of one clock.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Db, getDb, schema } from '@/lib/db';
import { jobLeases } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases, rowsOf } from '@/lib/platform/database';
import { type OtherInstanceDb, openOtherInstanceDb } from '@/test/support/second-instance';
import { type StopPeriodicJobs, startPeriodicJobs } from './periodic-jobs';

let db: Db;
const instances: OtherInstanceDb<typeof schema>[] = [];
const stops: StopPeriodicJobs[] = [];

beforeAll(async () => {
  if (!process.env.DATABASE_URL) process.env.DATA_DIR = 'memory://';
  resetEnv();
  db = await getDb();
  await db.execute(sql`
    create table if not exists periodic_job_runs (job text not null, owner text not null, claimed_at timestamptz not null, finished_at timestamptz)
  `);
  for (let i = 0; i < 3; i++) instances.push(openOtherInstanceDb(schema, db, { poolMax: 3 }));
});

afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.close()));
  await closeDatabases();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A job that records its run, taking `busyMs`, on `handle` as the instance `owner`. */
function recordingJob(handle: Db, job: string, owner: string, busyMs: number) {
  return async () => {
    await handle.execute(sql`
      insert into periodic_job_runs (job, owner, claimed_at)
      select ${job}, ${owner}, last_started_at from job_leases where name = ${job}
    `);
    await pause(busyMs);
    await handle.execute(sql`update periodic_job_runs set finished_at = clock_timestamp() where job = ${job} and finished_at is null`);
  };
}

function startInstance(index: number, job: { name: string; everyMs: number; busyMs: number; leaseMs?: number }) {
  const handle = instances[index]!.db;
  const owner = `instance-${index}`;
  stops.push(
    startPeriodicJobs(
      `test-${job.name}-${index}`,
      [
        {
          name: job.name,
          firstRunAfterMs: 0,
          everyMs: job.everyMs,
          leaseMs: job.leaseMs,
          run: recordingJob(handle, job.name, owner, job.busyMs),
        },
      ],
      { db: async () => handle, table: jobLeases, owner },
    ),
  );
}

async function finishedRuns(job: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from periodic_job_runs where job = ${job} and finished_at is not null`),
  );
  return row!.n;
}

/** Each run next to the one before it: how long after its claim this one was claimed, and whether it began before that one finished. */
async function runPairs(job: string) {
  return rowsOf<{ since_previous_claim_ms: number | string; overlapping: boolean }>(
    await db.execute(sql`
      select since_previous_claim_ms, overlapping from (
        select extract(epoch from claimed_at - lag(claimed_at) over (order by claimed_at)) * 1000 as since_previous_claim_ms,
          claimed_at < lag(finished_at) over (order by claimed_at) as overlapping
        from periodic_job_runs where job = ${job} and finished_at is not null
      ) as pairs where since_previous_claim_ms is not null
    `),
  );
}

describe('startPeriodicJobs with a lease table', () => {
  it('runs a job once per period with three instances competing for it, never two runs at once', async () => {
    const job = { name: 'three-instances', everyMs: 150, busyMs: 40 };
    for (const index of [0, 1, 2]) startInstance(index, job);
    await expect.poll(() => finishedRuns(job.name), { timeout: 30_000, interval: 100 }).toBeGreaterThanOrEqual(8);
    await Promise.all(stops.splice(0).map((stop) => stop()));

    const pairs = await runPairs(job.name);
    expect(pairs.length).toBeGreaterThanOrEqual(7);
    for (const pair of pairs) {
      expect(pair.overlapping).toBe(false);
      expect(Number(pair.since_previous_claim_ms)).toBeGreaterThanOrEqual(job.everyMs);
    }
  });

  it('keeps a long run to itself by renewing its lease, though the lease is shorter than the run', async () => {
    // The lease leaves room for the renewal to be late by a few hundred milliseconds (a busy
    // machine stalls the event loop); the run lasts well past it.
    const job = { name: 'long-run', everyMs: 20, busyMs: 1_500, leaseMs: 600 };
    for (const index of [0, 1]) startInstance(index, job);
    await expect.poll(() => finishedRuns(job.name), { timeout: 30_000, interval: 100 }).toBeGreaterThanOrEqual(2);
    await Promise.all(stops.splice(0).map((stop) => stop()));
    for (const pair of await runPairs(job.name)) expect(pair.overlapping).toBe(false);
  });

  it('takes over the job of an instance that died mid-run once its lease has run out, not before', async () => {
    const name = 'dead-instance';
    await db.execute(sql`
      insert into job_leases (name, next_run_at, leased_until, last_run_by, last_started_at)
      values (${name}, now() - interval '1 second', now() + interval '400 milliseconds', 'a-dead-instance', now() - interval '1 second')
    `);
    const [dead] = rowsOf<{ leased_until: string }>(await db.execute(sql`select leased_until::text from job_leases where name = ${name}`));
    startInstance(0, { name, everyMs: 60_000, busyMs: 0 });
    await expect.poll(() => finishedRuns(name), { timeout: 30_000, interval: 50 }).toBe(1);

    const [run] = rowsOf<{ after_lease: boolean; owner: string }>(
      await db.execute(
        sql`select claimed_at >= ${dead!.leased_until}::timestamptz as after_lease, owner from periodic_job_runs where job = ${name}`,
      ),
    );
    expect(run).toEqual({ after_lease: true, owner: 'instance-0' });
    const [lease] = rowsOf<{ leased_until: string | null; last_run_by: string }>(
      await db.execute(sql`select leased_until, last_run_by from job_leases where name = ${name}`),
    );
    // Released when the run ended, and due again a period later.
    expect(lease).toEqual({ leased_until: null, last_run_by: 'instance-0' });
  });

  it('releases the lease of a run that failed, so the job runs again a period later', async () => {
    let runs = 0;
    const job = {
      name: 'failing',
      firstRunAfterMs: 0,
      everyMs: 50,
      run: async () => {
        runs += 1;
        if (runs === 1) throw new Error('the first run fails');
      },
    };
    stops.push(startPeriodicJobs('test-failing', [job], { db: async () => db, table: jobLeases, owner: 'instance-failing' }));
    await expect.poll(() => runs, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(2);
  });

  it('runs once per process and group: a second start returns the running jobs', async () => {
    const leases = { db: async () => db, table: jobLeases, owner: 'instance-once' };
    const job = { name: 'once-per-process', firstRunAfterMs: 60_000, everyMs: 60_000, run: async () => {} };
    const stop = startPeriodicJobs('test-once', [job], leases);
    stops.push(stop);
    expect(startPeriodicJobs('test-once', [job], leases)).toBe(stop);
    await stop();
    const again = startPeriodicJobs('test-once', [job], leases);
    stops.push(again);
    expect(again).not.toBe(stop);
  });
});
