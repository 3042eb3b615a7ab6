// The embedded Postgres's memory settings: PGlite's wasm heap never shrinks and Postgres touches
// all of shared_buffers, so these decide most of the server's resident memory.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { killContenders, startContender } from '@/test/support/lock-contenders';
import { captureLogs, stopCapturingLogs } from '@/test/support/logs';
import { seedDataDir } from '@/test/support/seeded-data-dir';
import { closeDatabases } from './database';
import { DataDirInUseError, openDatabase } from './embedded-database';

afterAll(async () => {
  await closeDatabases();
});

it('runs with small buffers, keeping the PGlite defaults it replaces', async () => {
  const pg = await openDatabase('memory://');
  const setting = async (name: string) =>
    (await pg.query<{ setting: string }>(`select current_setting('${name}') as setting`)).rows[0]!.setting;
  expect(await setting('shared_buffers')).toBe('16MB');
  expect(await setting('wal_buffers')).toBe('1MB');
  expect(await setting('work_mem')).toBe('2MB');
  // From PGlite's own start parameters, which startParams replaces rather than extends.
  expect(await setting('max_worker_processes')).toBe('0');
  expect(await setting('search_path')).toBe('public');
});

// The data directory's lock, with real processes (test/support/lock-contender.ts) that open the
// directory as the server does: after a server is killed with SIGKILL, the next one starts at
// once; one that really runs is named in the refusal; of several starting at once, one opens it.
// The directory holds a database already (seedDataDir): the lock is the subject, not creating one.
describe('the data directory after a crash', { timeout: 120_000 }, () => {
  let dataDir: string;

  beforeEach(async () => {
    await closeDatabases();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'embedded-database-'));
    await seedDataDir(dataDir);
  });

  afterEach(async () => {
    stopCapturingLogs();
    await killContenders();
    await closeDatabases();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A server-like process that opened `dataDir`, wrote its pid to `marks`, and was killed with SIGKILL. */
  async function killedServer(): Promise<number> {
    const server = startContender('database', dataDir);
    expect(await server.outcome, server.stderr()).toMatchObject({ event: 'acquired' });
    await server.kill();
    return server.pid;
  }

  it('a server killed with SIGKILL: the next open takes over at once (no wait), logs it, and finds what it wrote', async () => {
    const deadPid = await killedServer();
    const logs = captureLogs();
    const pg = await openDatabase(dataDir, { waitForLockMs: 0 });
    expect((await pg.query<{ pid: number }>('select pid from marks')).rows).toEqual([{ pid: deadPid }]);
    const takeOver = logs.records().find((r) => r.msg.includes('took over the lock'));
    expect(takeOver, logs.text()).toMatchObject({ level: 'warn', previousOwner: { pid: deadPid, host: os.hostname() } });
    expect(takeOver!.msg).toContain('no longer runs');
  });

  it('while a server runs, an open is refused with its pid, host and start in the message', async () => {
    const server = startContender('database', dataDir);
    expect(await server.outcome, server.stderr()).toMatchObject({ event: 'acquired' });
    const error = await openDatabase(dataDir, { waitForLockMs: 0 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DataDirInUseError);
    const message = (error as Error).message;
    expect(message).toMatch(
      new RegExp(
        `^the data directory is in use by a running server \\(pid ${server.pid} on host ${os.hostname()}, since \\d{4}-\\d\\d-\\d\\dT`,
      ),
    );
    expect(message).toContain(dataDir);
  });

  it('three servers starting at once after a crash: exactly one opens the directory, the others name it', async () => {
    await killedServer();
    const servers = Array.from({ length: 3 }, () => startContender('database', dataDir, { go: true }));
    await Promise.all(servers.map((s) => s.ready));
    for (const server of servers) server.go();
    const outcomes = await Promise.all(servers.map((s) => s.outcome));
    const winners = outcomes.filter((o) => o.event === 'acquired');
    expect(winners, JSON.stringify(outcomes)).toHaveLength(1);
    for (const loser of outcomes.filter((o) => o !== winners[0])) {
      expect(loser.message).toContain(`the data directory is in use by a running server (pid ${winners[0]!.pid} on host`);
    }
  });
});
