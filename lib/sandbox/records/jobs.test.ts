// The sandbox's background jobs: one maintenance run (sweep, then purge) on a given clock, and
// the timers that run them in the server process, started once per process.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabases } from '@/lib/platform/database';
import { parseCreateVerificationInput } from '@/lib/sandbox/api/create-verification-input';
import type { SandboxDb } from '@/lib/sandbox/db';
import { jobLeases, verifications } from '@/lib/sandbox/schema';
import { createTestCompany, type TestCompany, useInMemorySandbox, validBody } from '@/test/support/sandbox';
import { runSandboxMaintenance, type StopSandboxJobs, startSandboxJobs } from './jobs';
import { createVerification } from './verifications';

let db: SandboxDb;
let company: TestCompany;
const stops: StopSandboxJobs[] = [];

beforeAll(async () => {
  db = await useInMemorySandbox();
  // Access for a minute, kept for a day: expiry and purge are far apart.
  company = await createTestCompany(db, { tokenValiditySeconds: 60, verificationRetentionSeconds: 86_400 });
});

afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

afterAll(async () => {
  await closeDatabases();
});

async function newRequest(now: Date): Promise<string> {
  const parsed = parseCreateVerificationInput(validBody());
  if (!parsed.ok) throw new Error(parsed.error);
  return (await createVerification(db, { companyId: company.companyId, input: parsed.value, baseUrl: 'http://localhost', now }))
    .verificationId;
}

async function status(id: string): Promise<string | undefined> {
  const [row] = await db.select({ status: verifications.status }).from(verifications).where(eq(verifications.id, id));
  return row?.status;
}

async function until(condition: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('runSandboxMaintenance', () => {
  it('expires what is due, then purges what is past kept_until', async () => {
    const t0 = new Date('2032-01-01T00:00:00.000Z');
    const id = await newRequest(t0);
    expect(await runSandboxMaintenance(db, new Date(t0.getTime() + 30_000))).toMatchObject({ expired: 0, purged: { verifications: 0 } });
    expect(await status(id)).toBe('pending');

    const result = await runSandboxMaintenance(db, new Date(t0.getTime() + 60_000));
    expect(result.expired).toBeGreaterThanOrEqual(1);
    expect(await status(id)).toBe('expired');

    // kept_until = expiry (t0 + 1 min) + 1 day.
    await runSandboxMaintenance(db, new Date(t0.getTime() + 60_000 + 86_400_000 - 1));
    expect(await status(id)).toBe('expired');
    const later = await runSandboxMaintenance(db, new Date(t0.getTime() + 60_000 + 86_400_000));
    expect(later.purged.verifications).toBeGreaterThanOrEqual(1);
    expect(await status(id)).toBeUndefined();
  });
});

describe('startSandboxJobs', () => {
  it('sweeps on its timer and purges at start, on the real clock', async () => {
    const now = Date.now();
    // Due for expiry an hour ago, retained for a day.
    const due = await newRequest(new Date(now - 2 * 60 * 60 * 1000));
    // Expired three days ago (swept back then), so kept until about two days ago: due for the purge.
    const old = await newRequest(new Date(now - 3 * 24 * 60 * 60 * 1000));
    await runSandboxMaintenance(db, new Date(now - 3 * 24 * 60 * 60 * 1000 + 60_000));
    expect(await status(old)).toBe('expired');

    stops.push(startSandboxJobs({ intervalMs: 20, purgeIntervalMs: 60_000 }));
    await until(async () => (await status(due)) === 'expired' && (await status(old)) === undefined);
  });

  it("claims each run in the sandbox's lease table, so another instance on the same database skips it", async () => {
    // Another instance holds the sweep: it ran a moment ago and is still running.
    await db.delete(jobLeases);
    await db.insert(jobLeases).values({
      name: 'expiry sweep',
      nextRunAt: new Date(Date.now() + 60_000),
      leasedUntil: new Date(Date.now() + 60_000),
      lastRunBy: 'another-instance',
    });
    const due = await newRequest(new Date(Date.now() - 2 * 60 * 60 * 1000));
    stops.push(startSandboxJobs({ intervalMs: 20, purgeIntervalMs: 60_000, owner: 'this-instance' }));
    // The purge (not held elsewhere) runs here and sweeps on its way; the sweep job stays the other's.
    await until(async () => (await status(due)) === 'expired');
    await until(async () =>
      (await db.select().from(jobLeases)).some((row) => row.name === 'retention purge' && row.lastFinishedAt !== null),
    );
    const leases = Object.fromEntries((await db.select().from(jobLeases)).map((row) => [row.name, row.lastRunBy]));
    expect(leases).toEqual({ 'expiry sweep': 'another-instance', 'retention purge': 'this-instance' });
  });

  it('runs once per process: a second start returns the running jobs', async () => {
    const stop = startSandboxJobs({ intervalMs: 1_000_000, purgeIntervalMs: 1_000_000 });
    stops.push(stop);
    expect(startSandboxJobs()).toBe(stop);
    await stop();
    // Stopped: a new start begins new jobs.
    const again = startSandboxJobs({ intervalMs: 1_000_000, purgeIntervalMs: 1_000_000 });
    stops.push(again);
    expect(again).not.toBe(stop);
  });

  it('stops sweeping once stopped', async () => {
    const stop = startSandboxJobs({ intervalMs: 10, purgeIntervalMs: 1_000_000 });
    await stop();
    const id = await newRequest(new Date(Date.now() - 2 * 60 * 60 * 1000));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await status(id)).toBe('pending');
  });
});
