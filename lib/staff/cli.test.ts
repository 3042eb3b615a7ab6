// The users CLI. Its commands run in this process through runUsersCli (the code the entry point
// runs), against an in-memory database; one test runs the real entry point,
// `tsx --conditions=react-server lib/staff/cli.ts`, on a temporary data directory: the exit
// code, the JSON line on stdout, a password read from a pipe, and the refusal while a server
// (this test process) holds the directory's lock.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCliAuth } from '@/lib/auth/auth';
import { getDb } from '@/lib/db';
import { auditEntries, staffAccounts, staffSessions, staffUsers } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { openDatabase } from '@/lib/platform/embedded-database';
import { acceptInvitation, lookupInvitation } from '@/lib/staff/invitations/invitations.server';
import { seedDataDir } from '@/test/support/seeded-data-dir';
import { runUsersCli } from './cli';

const TSX = path.join(process.cwd(), 'node_modules/tsx/dist/cli.mjs');
const CLI = path.join(process.cwd(), 'lib/staff/cli.ts');
const EXIT_USAGE = 64;

type Run = { args: string[]; input: string; code: number; stdout: string; stderr: string };

/** Runs the real entry point with `args`; `input` is what it finds on standard input (a pipe, as from a script). */
function spawnUsers(dataDir: string, input: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [TSX, '--conditions=react-server', CLI, ...args],
      { cwd: process.cwd(), env: { ...process.env, DATA_DIR: dataDir }, timeout: 110_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ args, input, code, stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}

/** Runs one command in this process; `input` is what it finds on standard input (a pipe, not a terminal). */
async function usersWithInput(input: string, ...args: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runUsersCli(args, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    stdin: Readable.from(input === '' ? [] : [Buffer.from(input)]),
  });
  return { args, input, code, stdout: out.map((line) => `${line}\n`).join(''), stderr: err.join('\n') };
}

const users = (...args: string[]) => usersWithInput('', ...args);

const jsonLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

let tmp: string;
/** A directory no command may create: usage errors must be refused before opening anything. */
let untouchedDir: string;

const GIVEN_PASSWORD = 'a given password of some length';
/** Files holding a password, as an operator's script would pass them to --password-file. */
let commonPasswordFile: string;
let givenPasswordFile: string;

beforeAll(async () => {
  await closeDatabases();
  tmp = await mkdtemp(path.join(tmpdir(), 'users-cli-'));
  untouchedDir = path.join(tmp, 'untouched');
  commonPasswordFile = path.join(tmp, 'common-password.txt');
  givenPasswordFile = path.join(tmp, 'given-password.txt');
  await writeFile(commonPasswordFile, 'qwerty123456\n', { mode: 0o600 });
  await writeFile(givenPasswordFile, GIVEN_PASSWORD, { mode: 0o600 });
  delete process.env.BETTER_AUTH_SECRET;
});

afterAll(async () => {
  await closeDatabases();
  await rm(tmp, { recursive: true, force: true });
});

// First in the file: no database is open yet in this process, so a command that opened one
// would create the directory.
describe('users CLI usage errors (in-process)', () => {
  it('exits 64 with the usage on stderr for bad arguments, before opening any database', async () => {
    process.env.DATA_DIR = untouchedDir;
    resetEnv();
    const usageRuns: Run[] = [];
    for (const [args, input] of [
      [['create', '--email', 'x@example.com', '--role', 'superuser']],
      [['create', '--role', 'operator']],
      [['create', '--email', 'x@example.com', '--role', 'viewer', '--password-stdin'], 'short\n'],
      [['create', '--email', 'x@example.com', '--role', 'viewer', '--password-stdin'], 'password1234'],
      [['invite']],
      [['create', '--email', 'x@example.com', '--role', 'viewer', '--colour', 'red']],
      [['create', '--email', 'x@example.com', '--role', 'viewer', '--password-file', commonPasswordFile]],
      [['create', '--email', 'x@example.com', '--role', 'viewer', '--password-file', path.join(tmp, 'missing.txt')]],
      [['create', '--email', 'x@example.com', '--role', 'viewer', '--password-stdin', '--password-file', commonPasswordFile], 'x'],
      // A password on the command line is refused, even a good one: other users can read it there.
      [['create', '--email', 'x@example.com', '--role', 'viewer', '--password', GIVEN_PASSWORD]],
      [['disable']],
      [['enable']],
    ] as Array<[string[], string?]>) {
      usageRuns.push(await usersWithInput(input ?? '', ...args));
    }
    for (const run of usageRuns) {
      expect({ args: run.args, code: run.code, stdout: run.stdout }).toEqual({ args: run.args, code: EXIT_USAGE, stdout: '' });
      expect(run.stderr, run.args.join(' ')).toContain('Usage:');
      expect(run.stderr).toContain('npm run users -- create --email E --role admin|operator|viewer');
    }
    // Keyed by the command line, and what was piped in when anything was.
    const byArgs = new Map(usageRuns.map((run) => [[run.args.join(' '), run.input].filter(Boolean).join(' < '), run.stderr]));
    expect(byArgs.get('create --email x@example.com --role superuser')).toContain('--role must be admin, operator or viewer');
    expect(byArgs.get('create --role operator')).toContain('create needs --email and --role');
    expect(byArgs.get('create --email x@example.com --role viewer --password-stdin < short\n')).toContain(
      '--password-stdin: Use at least 12 characters.',
    );
    expect(byArgs.get('create --email x@example.com --role viewer --password-stdin < password1234')).toContain(
      '--password-stdin: This password is one of the most common ones',
    );
    expect(byArgs.get(`create --email x@example.com --role viewer --password-file ${commonPasswordFile}`)).toContain(
      '--password-file: This password is one of the most common ones',
    );
    expect(byArgs.get(`create --email x@example.com --role viewer --password-file ${path.join(tmp, 'missing.txt')}`)).toContain(
      '--password-file: cannot read',
    );
    expect(byArgs.get(`create --email x@example.com --role viewer --password-stdin --password-file ${commonPasswordFile} < x`)).toContain(
      'Use either --password-stdin or --password-file, not both.',
    );
    const onCommandLine = byArgs.get(`create --email x@example.com --role viewer --password ${GIVEN_PASSWORD}`);
    expect(onCommandLine).toContain('--password is not accepted: a password on the command line can be read by every local user');
    expect(onCommandLine).not.toContain(GIVEN_PASSWORD);
    expect(byArgs.get('invite')).toContain('invite needs --email');
    expect(byArgs.get('create --email x@example.com --role viewer --colour red')).toContain("Unknown option '--colour'");
    expect(byArgs.get('disable')).toContain('disable needs --email');
    expect(byArgs.get('enable')).toContain('enable needs --email');
    expect(existsSync(untouchedDir)).toBe(false);
  });
});

describe('users CLI (in-process)', () => {
  // The operator is invited (no password on the command line); they set this one through the link.
  const operator = { id: '', email: '', role: '', password: 'the operator chose this one', invitation: '', firstInvitation: '' };
  let admin: { id: string; email: string; role: string };
  const tokenOf = (link: string) => link.slice(link.lastIndexOf('/') + 1);

  beforeAll(async () => {
    process.env.DATA_DIR = 'memory://';
    resetEnv();
    // Opened here, not by the first command, so that the first test's time is the command's.
    await getDb();
  });

  afterAll(async () => {
    await closeDatabases();
  });

  it('create without --password prints one JSON line with id, e-mail, role and a 48-hour invitation link', async () => {
    const before = Date.now();
    const run = await users('create', '--email', 'Olga.Op@Example.com', '--role', 'operator');
    expect(run, run.stderr).toMatchObject({ code: 0 });
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);

    const printed = JSON.parse(run.stdout);
    expect(Object.keys(printed).sort()).toEqual(['email', 'expiresAt', 'id', 'invitation', 'role']);
    expect(printed).toMatchObject({ email: 'olga.op@example.com', role: 'operator', id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(printed.invitation).toMatch(/^http:\/\/localhost:\d+\/invitation\/[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(printed.expiresAt) - before).toBeGreaterThan(47.9 * 3_600_000);
    Object.assign(operator, { id: printed.id, email: printed.email, role: printed.role, firstInvitation: printed.invitation });
  });

  it('invite --email prints a new link for an account without a password', async () => {
    const run = await users('invite', '--email', 'OLGA.OP@example.com');
    expect(run, run.stderr).toMatchObject({ code: 0 });
    const printed = JSON.parse(run.stdout);
    expect(printed).toEqual({
      id: operator.id,
      invitation: expect.stringMatching(/\/invitation\/[A-Za-z0-9_-]{43}$/),
      expiresAt: expect.any(String),
    });
    expect(printed.invitation).not.toBe(operator.firstInvitation);
    operator.invitation = printed.invitation;
  });

  it('create with --password-stdin takes the password from a pipe (one final newline dropped) and does not print it', async () => {
    const run = await usersWithInput(
      `${GIVEN_PASSWORD}\n`,
      'create',
      '--email',
      'ada@example.com',
      '--role',
      'admin',
      '--name',
      'Ada Admin',
      '--password-stdin',
    );
    expect(run, run.stderr).toMatchObject({ code: 0 });
    admin = JSON.parse(run.stdout);
    expect(admin).toEqual({ id: expect.any(String), email: 'ada@example.com', role: 'admin' });
    expect(run.stdout).not.toContain(GIVEN_PASSWORD);
    expect(run.stderr).not.toContain(GIVEN_PASSWORD);
  });

  it('create refuses an e-mail that already has an account (exit 1)', async () => {
    const run = await users('create', '--email', 'OLGA.OP@example.com', '--role', 'viewer');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('already exists');
  });

  it('invite refuses an account that has a password, and an unknown e-mail (exit 1)', async () => {
    const withPassword = await users('invite', '--email', 'ada@example.com');
    expect(withPassword.code).toBe(1);
    expect(withPassword.stdout).toBe('');
    expect(withPassword.stderr).toContain('They have set a password already');
    const unknown = await users('invite', '--email', 'nobody@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No account with the e-mail address nobody@example.com');
  });

  it('the newest invitation link and the given password really sign in, and the accounts are audited', async () => {
    // The first link was voided by the second, which sets the operator's password.
    expect(await lookupInvitation(tokenOf(operator.firstInvitation))).toEqual({ state: 'unknown' });
    await acceptInvitation(tokenOf(operator.invitation), operator.password);
    const auth = await getCliAuth();
    for (const [email, password] of [
      [operator.email, operator.password],
      [admin.email, GIVEN_PASSWORD],
    ] as const) {
      const response = await auth.api.signInEmail({ body: { email, password }, asResponse: true });
      expect({ email, status: response.status }).toEqual({ email, status: 200 });
    }
    const wrong = await auth.api.signInEmail({ body: { email: operator.email, password: GIVEN_PASSWORD }, asResponse: true });
    expect(wrong.status).not.toBe(200);

    const db = await getDb();
    const rows = await db.select().from(staffUsers).orderBy(asc(staffUsers.email));
    expect(rows.map((r) => [r.email, r.name, r.role, r.disabled])).toEqual([
      ['ada@example.com', 'Ada Admin', 'admin', false],
      ['olga.op@example.com', 'Olga.Op', 'operator', false],
    ]);
    const audit = await db.select().from(auditEntries);
    expect(
      audit
        .filter((e) => e.action === 'staff.created')
        .map((e) => [e.actorId, e.targetId])
        .sort(),
    ).toEqual(
      [
        [null, admin.id],
        [null, operator.id],
      ].sort(),
    );
  });

  it('list prints one JSON line per account, without passwords', async () => {
    const run = await users('list');
    expect(run, run.stderr).toMatchObject({ code: 0 });
    const lines = jsonLines(run.stdout);
    expect(lines).toEqual([
      { id: admin.id, email: 'ada@example.com', name: 'Ada Admin', role: 'admin', disabled: false },
      { id: operator.id, email: 'olga.op@example.com', name: 'Olga.Op', role: 'operator', disabled: false },
    ]);
    expect(run.stdout).not.toContain(operator.password);
    expect(run.stdout).not.toContain(GIVEN_PASSWORD);
    expect(run.stdout.toLowerCase()).not.toContain('password');
  });

  it('disable --email disables the account (e-mail in any case), which ends its sign-in', async () => {
    const run = await users('disable', '--email', 'OLGA.OP@Example.com');
    expect(run, run.stderr).toMatchObject({ code: 0 });
    expect(JSON.parse(run.stdout)).toEqual({ id: operator.id, disabled: true });
    const [row] = (await (await getDb()).select().from(staffUsers)).filter((u) => u.id === operator.id);
    expect(row?.disabled).toBe(true);
    const refused = await (await getCliAuth()).api.signInEmail({
      body: { email: operator.email, password: operator.password },
      asResponse: true,
    });
    expect(refused.status).not.toBe(200);
  });

  it('disable with an unknown e-mail exits 1 and says so', async () => {
    const run = await users('disable', '--email', 'nobody@example.com');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('No account with the e-mail address nobody@example.com');
  });

  it('refuses to disable the last administrator (exit 1), and it stays enabled', async () => {
    const run = await users('disable', '--email', 'ada@example.com');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('last active administrator');
    const [row] = (await (await getDb()).select().from(staffUsers)).filter((u) => u.id === admin.id);
    expect(row?.disabled).toBe(false);
  });

  it('enable lets a disabled account sign in again (created with --password-file), both changes audited', async () => {
    const email = 'eve@example.com';
    const created = await users('create', '--email', email, '--role', 'viewer', '--password-file', givenPasswordFile);
    expect(created, created.stderr).toMatchObject({ code: 0 });
    const { id } = JSON.parse(created.stdout) as { id: string };
    expect(await users('disable', '--email', email)).toMatchObject({ code: 0 });
    const enabled = await users('enable', '--email', email);
    expect(enabled, enabled.stderr).toMatchObject({ code: 0 });
    expect(JSON.parse(enabled.stdout)).toEqual({ id, disabled: false });

    const audit = await (await getDb()).select().from(auditEntries);
    expect(
      audit
        .filter((e) => e.targetId === id)
        .map((e) => e.action)
        .sort(),
    ).toEqual(['staff.created', 'staff.disabled', 'staff.enabled']);
    const back = await (await getCliAuth()).api.signInEmail({ body: { email, password: GIVEN_PASSWORD }, asResponse: true });
    expect(back.status).toBe(200);
  });
});

describe('users CLI entry point (spawned)', { timeout: 120_000 }, () => {
  it('exit 0 with one JSON line, a password from a pipe; then, while a server holds the data directory: exit 2, a clear message, nothing changed', async () => {
    await closeDatabases();
    const dataDir = path.join(tmp, 'data');
    // A directory a server has used before: the entry point is under test here, not creating a database.
    await seedDataDir(dataDir);
    const created = await spawnUsers(
      dataDir,
      `${GIVEN_PASSWORD}\n`,
      'create',
      '--email',
      'ada@example.com',
      '--role',
      'admin',
      '--password-stdin',
    );
    expect(created, created.stderr).toMatchObject({ code: 0 });
    expect(created.stdout.endsWith('\n')).toBe(true);
    expect(created.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(created.stdout)).toEqual({ id: expect.any(String), email: 'ada@example.com', role: 'admin' });
    expect(created.stdout + created.stderr).not.toContain(GIVEN_PASSWORD);

    // This process plays the running server: it opens the directory and holds its lock.
    process.env.DATA_DIR = dataDir;
    resetEnv();
    await openDatabase(dataDir);
    const db = await getDb();
    const snapshot = async () => ({
      users: await db.select().from(staffUsers).orderBy(asc(staffUsers.id)),
      accounts: await db.select().from(staffAccounts).orderBy(asc(staffAccounts.id)),
      sessions: await db.select().from(staffSessions).orderBy(asc(staffSessions.id)),
      audit: await db.select().from(auditEntries).orderBy(asc(auditEntries.id)),
    });
    const before = await snapshot();
    expect(before.users.map((u) => [u.email, u.disabled])).toEqual([['ada@example.com', false]]);
    expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(true);

    // Every command opens the database the same way before it reads or writes; a write is tried here.
    const refused = await spawnUsers(dataDir, '', 'create', '--email', 'late@example.com', '--role', 'admin');
    expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code: 2, stdout: '' });
    expect(refused.stderr).toContain(`the data directory is in use by a running server (pid ${process.pid} on host ${hostname()}, since `);
    expect(refused.stderr).toContain('Stop the server first');

    expect(await snapshot()).toEqual(before);
    // The CLI neither took nor removed the server's lock.
    expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(true);
    // The password the spawned CLI read from its pipe is the account's (signed in after the comparison: a sign-in writes a session).
    const signIn = await (await getCliAuth()).api.signInEmail({
      body: { email: 'ada@example.com', password: GIVEN_PASSWORD },
      asResponse: true,
    });
    expect(signIn.status).toBe(200);
    await closeDatabases();
  });
});
