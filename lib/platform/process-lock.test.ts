// The lock that names its owner, with real processes (test/support/lock-contender.ts): a lock
// left by a killed process is taken over at once, a live one is refused with its pid, and of
// several processes racing for an abandoned lock exactly one gets it.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { killContenders, startContender } from '@/test/support/lock-contenders';
import { acquireLock, type HeldLock, LockHeldError } from './process-lock';

let root: string;
let lockPath: string;
const held: HeldLock[] = [];

async function acquire(options: Parameters<typeof acquireLock>[1] = {}): Promise<HeldLock> {
  const lock = await acquireLock(lockPath, { waitMs: 0, ...options });
  held.push(lock);
  return lock;
}

async function refusal(options: Parameters<typeof acquireLock>[1] = {}): Promise<LockHeldError> {
  const error = await acquire(options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LockHeldError);
  return error as LockHeldError;
}

/** A lock left by a process that was killed with SIGKILL while it held it. */
async function lockOfAKilledProcess(): Promise<number> {
  const owner = startContender('lock', lockPath);
  expect(await owner.outcome, owner.stderr()).toMatchObject({ event: 'acquired' });
  await owner.kill();
  expect(existsSync(lockPath)).toBe(true);
  return owner.pid;
}

const minuteAgo = () => new Date(Date.now() - 60_000);

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'process-lock-'));
  lockPath = path.join(root, 'server.lock');
});

afterEach(async () => {
  await Promise.all(held.splice(0).map((lock) => lock.release()));
  await killContenders();
  await rm(root, { recursive: true, force: true });
});

afterAll(killContenders);

describe('a lock that names its owner', { timeout: 60_000 }, () => {
  it('a lock whose process was killed with SIGKILL is taken over at once, saying whose it was', async () => {
    const deadPid = await lockOfAKilledProcess();
    const lock = await acquire();
    expect(lock.tookOver).toMatchObject({ reason: 'process-ended', from: { owner: { pid: deadPid, host: os.hostname() } } });
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: process.pid, nonce: lock.owner.nonce });
  });

  it('a lock held by a live process is refused, naming its pid and host; once it is killed, taken at once', async () => {
    const owner = startContender('lock', lockPath);
    expect(await owner.outcome, owner.stderr()).toMatchObject({ event: 'acquired' });

    const error = await refusal();
    expect(error.message).toContain(`pid ${owner.pid} on host ${os.hostname()}, since `);
    expect(error.holder.owner).toMatchObject({ pid: owner.pid, host: os.hostname() });

    await owner.kill();
    expect((await acquire()).tookOver?.from.owner?.pid).toBe(owner.pid);
  });

  it('a live process is refused by this one too, and this one by it (each names the other)', async () => {
    const mine = await acquire();
    const other = startContender('lock', lockPath);
    const answer = await other.outcome;
    expect(answer.event, other.stderr()).toBe('refused');
    expect(answer.message).toContain(`pid ${process.pid} on host ${os.hostname()}`);
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ nonce: mine.owner.nonce });
  });

  it('released, the lock file is gone and the next process takes it without a takeover', async () => {
    const lock = await acquire();
    await lock.release();
    expect(existsSync(lockPath)).toBe(false);
    const next = startContender('lock', lockPath);
    expect(await next.outcome, next.stderr()).toMatchObject({ event: 'acquired', tookOver: null });
  });

  it.each([1, 2])('four processes racing for a killed owner’s lock: exactly one gets it, the others name it (round %i)', async () => {
    const deadPid = await lockOfAKilledProcess();
    const contenders = Array.from({ length: 4 }, () => startContender('lock', lockPath, { go: true }));
    await Promise.all(contenders.map((c) => c.ready));
    for (const contender of contenders) contender.go();
    const outcomes = await Promise.all(contenders.map((c) => c.outcome));

    const winners = outcomes.filter((o) => o.event === 'acquired');
    expect(winners, JSON.stringify(outcomes)).toHaveLength(1);
    const winner = winners[0]!;
    expect(winner.tookOver).toMatchObject({ reason: 'process-ended', from: { owner: { pid: deadPid } } });
    for (const loser of outcomes.filter((o) => o !== winner)) {
      expect(loser.event).toBe('refused');
      expect(loser.message).toContain(`pid ${winner.pid} on host`);
    }
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: winner.pid });
  });

  it('many contenders at once, fifty times over a killed owner’s lock: exactly one gets it each time', async () => {
    // The same race inside this process, where it is cheap to repeat: the file operations of
    // eight acquisitions interleave on libuv's threads as those of eight processes would.
    await lockOfAKilledProcess();
    const deadLock = readFileSync(lockPath, 'utf8');
    for (let round = 0; round < 50; round++) {
      await writeFile(lockPath, deadLock);
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => acquireLock(lockPath, { waitMs: 0 })));
      const winners = results.filter((r) => r.status === 'fulfilled').map((r) => r.value);
      expect(winners, `round ${round}`).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(LockHeldError);
      expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ nonce: winners[0]!.owner.nonce });
      await winners[0]!.release();
    }
  });

  it('a contender killed while taking over (holding the claim on the dead lock) does not block the next one', async () => {
    await lockOfAKilledProcess();
    // The claim a contender takes before it replaces the dead lock: named after that holding.
    const record = JSON.parse(readFileSync(lockPath, 'utf8')) as { nonce: string };
    const claimPath = `${lockPath}.takeover-${record.nonce}-${Math.floor(statSync(lockPath).mtimeMs)}`;
    const stuck = startContender('lock', claimPath);
    expect(await stuck.outcome, stuck.stderr()).toMatchObject({ event: 'acquired' });

    // While that contender lives, it is the one taking over: the refusal names it.
    expect((await refusal()).holder.owner?.pid).toBe(stuck.pid);
    await stuck.kill();

    const lock = await acquire();
    expect(lock.tookOver?.reason).toBe('process-ended');
    expect(JSON.parse(readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('a lock from another host is held while it is touched, and taken over once untouched for staleMs', async () => {
    const foreign = { pid: 4242, host: 'another-host.example', since: '2026-01-01T00:00:00.000Z', nonce: 'feed-beef' };
    await writeFile(lockPath, JSON.stringify(foreign));
    // pid 4242 may or may not exist here: on another host it says nothing.
    const error = await refusal({ staleMs: 15_000 });
    expect(error.message).toContain('pid 4242 on host another-host.example, since 2026-01-01T00:00:00.000Z');

    await utimes(lockPath, minuteAgo(), minuteAgo());
    const lock = await acquire({ staleMs: 15_000 });
    expect(lock.tookOver).toMatchObject({ reason: 'stale', from: { owner: { host: 'another-host.example' } } });
  });

  it('an earlier version’s lock (a directory, no owner) is held while fresh and taken over when stale', async () => {
    await mkdir(lockPath);
    expect((await refusal({ staleMs: 15_000 })).message).toContain('an unknown owner');

    await utimes(lockPath, minuteAgo(), minuteAgo());
    const lock = await acquire({ staleMs: 15_000 });
    expect(lock.tookOver).toMatchObject({ reason: 'stale', from: { owner: null } });
    expect(statSync(lockPath).isFile()).toBe(true);
  });

  it.runIf(existsSync('/proc/self/stat'))(
    'a pid reused by another process, or this process’s own pid from an earlier start, does not hold it',
    async () => {
      const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      const record = (pid: number) => ({
        pid,
        host: os.hostname(),
        bootId,
        processStart: '1',
        since: minuteAgo().toISOString(),
        nonce: 'dead-0001',
      });

      // A live process, but not the one that took the lock: it started at another time.
      const stranger = startContender('lock', path.join(root, 'unrelated.lock'));
      await stranger.outcome;
      await writeFile(lockPath, JSON.stringify(record(stranger.pid)));
      expect((await acquire()).tookOver?.reason).toBe('process-ended');
      await held.pop()!.release();

      // This process's pid (a container's first process has the same pid at every start).
      await writeFile(lockPath, JSON.stringify(record(process.pid)));
      expect((await acquire()).tookOver?.reason).toBe('process-ended');
    },
  );

  it('leaves no temporary files or claims behind', async () => {
    await lockOfAKilledProcess();
    await acquire();
    expect(await readdir(root)).toEqual(['server.lock']);
  });
});
