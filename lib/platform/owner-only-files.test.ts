// The embedded data directory on a real disk, with real file modes: nothing in it may be readable
// or writable by group or others. Run under a umask of 022 (the usual default), which is what left
// PGlite's files 0666 and its folders 0755 before: the tests set it themselves, so that a machine
// whose umask is stricter cannot make them pass by accident. A directory created from nothing is
// the spawned start's case; the others start from one that holds a database (seedDataDir).
import { execFile } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureLogs, stopCapturingLogs } from '@/test/support/logs';
import { seedDataDir } from '@/test/support/seeded-data-dir';
import { closeDatabases } from './database';
import { openDatabase } from './embedded-database';
import { tightenToOwnerOnly } from './owner-only-files';

const TSX = path.join(process.cwd(), 'node_modules/tsx/dist/cli.mjs');
const START = path.join(process.cwd(), 'test/support/start-desk.ts');
const TIGHTENED = /tightened the data directory/;

/** Every folder and file under `root` (and `root`) with a group or other bit, as "0644 relative/path". */
async function openToOthers(root: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (entry: string) => {
    const stats = await lstat(entry);
    if (stats.isSymbolicLink()) return;
    if (stats.mode & 0o077) found.push(`${(stats.mode & 0o777).toString(8).padStart(4, '0')} ${path.relative(root, entry) || '.'}`);
    if (stats.isDirectory()) for (const name of await readdir(entry)) await visit(path.join(entry, name));
  };
  await visit(root);
  return found;
}

/** What an earlier version left: folders 0755 and files 0666. Returns how many entries it widened. */
async function widen(root: string): Promise<number> {
  const stats = await lstat(root);
  if (stats.isSymbolicLink()) return 0;
  await chmod(root, stats.isDirectory() ? 0o755 : 0o666);
  let count = 1;
  if (stats.isDirectory()) for (const name of await readdir(root)) count += await widen(path.join(root, name));
  return count;
}

let tmp: string;
let dataDir: string;
let originalUmask: number;

beforeEach(async () => {
  await closeDatabases();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'owner-only-'));
  dataDir = path.join(tmp, 'data');
  originalUmask = process.umask(0o022);
});

afterEach(async () => {
  stopCapturingLogs();
  await closeDatabases();
  process.umask(originalUmask);
  await rm(tmp, { recursive: true, force: true });
});

afterAll(async () => {
  await closeDatabases();
});

describe('the embedded data directory', { timeout: 240_000 }, () => {
  it('stays owner-only while it runs: everything PGlite writes after the open (new tables, WAL segments)', async () => {
    await seedDataDir(dataDir);
    const pg = await openDatabase(dataDir);
    await pg.exec('create table written (id serial primary key, note text)');
    await pg.query("insert into written (note) select 'row ' || n from generate_series(1, 2000) n");
    // A new WAL segment and relation files are created only now, long after the open.
    await pg.query('select pg_switch_wal()');
    await pg.exec('create table later (id integer); insert into later values (1); checkpoint');
    expect((await lstat(path.join(dataDir, 'server.lock'))).isFile()).toBe(true);
    expect(await openToOthers(dataDir)).toEqual([]);
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);

    await closeDatabases();
    expect(await openToOthers(dataDir)).toEqual([]);
  });

  it('left with wider modes by an earlier version: tightened at the next start, which logs it once (a count, the directory)', async () => {
    await seedDataDir(dataDir);
    // A file of the operator's beside the database: its content must not reach the log.
    await mkdir(path.join(dataDir, 'notes'));
    await writeFile(path.join(dataDir, 'notes', 'kept.txt'), 'whsec_c2VjcmV0IGNvbnRlbnQ= do not log me');
    const widened = await widen(dataDir);
    expect((await openToOthers(dataDir)).length).toBe(widened);

    const logs = captureLogs();
    await openDatabase(dataDir);
    expect(await openToOthers(dataDir)).toEqual([]);
    const lines = logs.records().filter((record) => TIGHTENED.test(record.msg));
    expect(lines, logs.text()).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', dir: dataDir, tightened: widened, failed: 0 });
    expect(lines[0]!.msg).toContain(String(widened));
    expect(logs.text()).not.toContain('do not log me');
    expect(logs.text()).not.toContain('kept.txt');

    // Nothing left to tighten: the next start says nothing about it.
    await closeDatabases();
    logs.lines.length = 0;
    await openDatabase(dataDir);
    expect(logs.records().filter((record) => TIGHTENED.test(record.msg))).toEqual([]);
  });

  it('is tightened without following a symbolic link out of it', async () => {
    const outside = path.join(tmp, 'outside.txt');
    await writeFile(outside, 'not ours to change', { mode: 0o644 });
    await chmod(outside, 0o644);
    await mkdir(dataDir, { mode: 0o755 });
    await chmod(dataDir, 0o755);
    await symlink(outside, path.join(dataDir, 'link'));
    expect(await tightenToOwnerOnly(dataDir)).toEqual({ tightened: 1, failed: 0 });
    expect((await stat(outside)).mode & 0o777).toBe(0o644);
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
  });

  it('after a real first start (a spawned process, umask 022, a new directory), holds nothing that other users can read', async () => {
    // The child inherits this process's umask, set to 022 by beforeEach.
    const base = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', LOG_LEVEL: 'warn' };
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [TSX, '--conditions=react-server', START],
        { cwd: process.cwd(), env: { ...base, DATA_DIR: dataDir } as NodeJS.ProcessEnv, timeout: 200_000 },
        (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
      );
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('{"event":"started"}');
    // The setup link and the database (with the sandbox's tables) were written.
    expect((await readdir(dataDir)).sort()).toEqual(expect.arrayContaining(['pgdata', 'setup-link.txt']));
    expect(await openToOthers(dataDir)).toEqual([]);
  });
});
