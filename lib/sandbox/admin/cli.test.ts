// The sandbox CLI. Its commands run in this process through runCli (the code the entry point
// runs), against an in-memory database; one test runs the real entry point,
// `tsx --conditions=react-server lib/sandbox/admin/cli.ts`, on a temporary data directory: the
// exit code, the JSON line on stdout, and the refusal while a "server" (this test process) holds
// the directory's lock.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { getSandboxDb } from '@/lib/sandbox/db';
import { apiKeys, companies, webhookEndpoints } from '@/lib/sandbox/schema';
import { seedDataDir } from '@/test/support/seeded-data-dir';
import { authenticateApiKey } from './api-keys';
import { EXIT_USAGE, runCli } from './cli';

const TSX = path.join(process.cwd(), 'node_modules/tsx/dist/cli.mjs');
const CLI = path.join(process.cwd(), 'lib/sandbox/admin/cli.ts');

type Run = { code: number; stdout: string; stderr: string };

function runReal(dataDir: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [TSX, '--conditions=react-server', CLI, ...args],
      { cwd: process.cwd(), env: { ...process.env, DATA_DIR: dataDir }, timeout: 110_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

let dataDir: string;

beforeAll(async () => {
  await closeDatabases();
  dataDir = await mkdtemp(path.join(tmpdir(), 'sandbox-cli-'));
  process.env.DATA_DIR = 'memory://';
  resetEnv();
  // Opened here, not by the first command, so that the first test's time is the command's.
  await getSandboxDb();
});

/** Runs one command in this process, its lines joined as the entry point prints them. */
async function runInProcess(...argv: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, stdout: out.map((line) => `${line}\n`).join(''), stderr: err.join('\n') };
}

afterAll(async () => {
  await closeDatabases();
  await rm(dataDir, { recursive: true, force: true });
});

const jsonLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('sandbox CLI (in-process)', () => {
  let created: { companyId: string; apiKey: string };
  let second: { companyId: string; apiKey: string };

  it('company:create prints exactly one JSON line with the company id and a key', async () => {
    const run = await runInProcess(
      'company:create',
      '--name',
      'Acme Bank',
      '--token-validity',
      '3600',
      '--retention',
      '86400',
      '--audit-retention',
      '172800',
    );
    expect(run, run.stderr).toMatchObject({ code: 0 });
    expect(run.stdout.endsWith('\n')).toBe(true);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
    created = JSON.parse(run.stdout);
    expect(Object.keys(created)).toEqual(['companyId', 'apiKey']);
    expect(created.companyId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created.apiKey).toMatch(/^vd_sk_[A-Za-z0-9_-]{43}$/);
  });

  it('company:create with default settings, and key:create for an existing company', async () => {
    const run = await runInProcess('company:create', '--name', 'Defaults Ltd');
    expect(run, run.stderr).toMatchObject({ code: 0 });
    second = JSON.parse(run.stdout);

    const key = await runInProcess('key:create', '--company', created.companyId);
    expect(key, key.stderr).toMatchObject({ code: 0 });
    const issued = JSON.parse(key.stdout);
    expect(issued).toEqual({ companyId: created.companyId, apiKey: expect.stringMatching(/^vd_sk_[A-Za-z0-9_-]{43}$/) });
    expect(issued.apiKey).not.toBe(created.apiKey);
    // Keep it for the authentication check below.
    (created as { extraKey?: string }).extraKey = issued.apiKey;
  });

  it('company:list prints one JSON line per company, without keys', async () => {
    const run = await runInProcess('company:list');
    expect(run, run.stderr).toMatchObject({ code: 0 });
    const lines = jsonLines(run.stdout);
    expect(lines).toEqual([
      {
        companyId: created.companyId,
        name: 'Acme Bank',
        isDefault: false,
        tokenValiditySeconds: 3600,
        verificationRetentionSeconds: 86400,
        auditLogRetentionSeconds: 172800,
        createdAt: expect.stringMatching(/Z$/),
      },
      {
        companyId: second.companyId,
        name: 'Defaults Ltd',
        isDefault: false,
        tokenValiditySeconds: 604800,
        verificationRetentionSeconds: 2592000,
        auditLogRetentionSeconds: 7776000,
        createdAt: expect.stringMatching(/Z$/),
      },
    ]);
    expect(run.stdout).not.toContain('vd_sk_');
  });

  it('key:create for an unknown company fails without issuing a key', async () => {
    const run = await runInProcess('key:create', '--company', '3f2b8c1e-9d4a-4b7e-8f00-123456789abc');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('No company with id 3f2b8c1e-9d4a-4b7e-8f00-123456789abc');
  });

  let endpoint: { endpointId: string; secret: string };

  it('webhook:add prints the endpoint id and its secret; webhook:disable and webhook:list (without secrets)', async () => {
    const add = await runInProcess('webhook:add', '--company', created.companyId, '--url', 'https://hooks.example.com/acme');
    expect(add, add.stderr).toMatchObject({ code: 0 });
    expect(add.stdout.trimEnd().split('\n')).toHaveLength(1);
    endpoint = JSON.parse(add.stdout);
    expect(Object.keys(endpoint)).toEqual(['endpointId', 'secret']);
    expect(endpoint.endpointId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const retired = await runInProcess('webhook:add', '--company', created.companyId.toUpperCase(), '--url', 'http://127.0.0.1:9/old');
    expect(retired, retired.stderr).toMatchObject({ code: 0 });
    const retiredId = (JSON.parse(retired.stdout) as { endpointId: string }).endpointId;
    const disable = await runInProcess('webhook:disable', '--endpoint', retiredId);
    expect(disable, disable.stderr).toMatchObject({ code: 0 });
    expect(JSON.parse(disable.stdout)).toEqual({ endpointId: retiredId, disabled: true });

    const list = await runInProcess('webhook:list', '--company', created.companyId);
    expect(list, list.stderr).toMatchObject({ code: 0 });
    expect(jsonLines(list.stdout)).toEqual([
      {
        endpointId: endpoint.endpointId,
        url: 'https://hooks.example.com/acme',
        isDefault: false,
        createdAt: expect.stringMatching(/Z$/),
        disabledAt: null,
      },
      {
        endpointId: retiredId,
        url: 'http://127.0.0.1:9/old',
        isDefault: false,
        createdAt: expect.stringMatching(/Z$/),
        disabledAt: expect.stringMatching(/Z$/),
      },
    ]);
    expect(list.stdout).not.toContain('whsec_');

    // Another company has none.
    const empty = await runInProcess('webhook:list', '--company', second.companyId);
    expect(empty).toMatchObject({ code: 0, stdout: '' });
  });

  it('webhook:add for an unknown company and webhook:disable of an unknown endpoint fail, changing nothing', async () => {
    const add = await runInProcess('webhook:add', '--company', '3f2b8c1e-9d4a-4b7e-8f00-123456789abc', '--url', 'https://x.example.com/');
    expect(add.code).toBe(1);
    expect(add.stdout).toBe('');
    expect(add.stderr).toContain('No company with id 3f2b8c1e-9d4a-4b7e-8f00-123456789abc');
    const disable = await runInProcess('webhook:disable', '--endpoint', '3f2b8c1e-9d4a-4b7e-8f00-123456789abc');
    expect(disable.code).toBe(1);
    expect(disable.stderr).toContain('No active webhook endpoint with id');
  });

  it('the keys it printed authenticate against the database', async () => {
    const db = await getSandboxDb({ waitForLockMs: 0 });
    for (const apiKey of [created.apiKey, (created as { extraKey?: string }).extraKey!]) {
      expect(await authenticateApiKey(db, `Bearer ${apiKey}`)).toMatchObject({ ok: true, companyId: created.companyId });
    }
    expect(await authenticateApiKey(db, `Bearer ${second.apiKey}`)).toMatchObject({ ok: true, companyId: second.companyId });
    // The secret it printed is the one deliveries are signed with.
    const [stored] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.endpointId));
    expect(stored).toMatchObject({ companyId: created.companyId, secret: endpoint.secret });
  });
});

describe('sandbox CLI entry point (spawned)', { timeout: 120_000 }, () => {
  it('exit 0 with exactly one JSON line; exit 2 and nothing changed while a server holds the data directory', async () => {
    await closeDatabases();
    process.env.DATA_DIR = dataDir;
    resetEnv();
    // A directory a server has used before: the entry point is under test here, not creating a database.
    await seedDataDir(dataDir);
    const run = await runReal(dataDir, 'company:create', '--name', 'Acme Bank');
    expect(run, run.stderr).toMatchObject({ code: 0 });
    expect(run.stdout.endsWith('\n')).toBe(true);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
    const created = JSON.parse(run.stdout) as { companyId: string; apiKey: string };
    expect(Object.keys(created)).toEqual(['companyId', 'apiKey']);

    // This process plays the running server: it opens the directory and holds its lock.
    const db = await getSandboxDb();
    expect(await authenticateApiKey(db, `Bearer ${created.apiKey}`)).toMatchObject({ ok: true, companyId: created.companyId });
    const snapshot = async () => ({
      companies: await db.select().from(companies).orderBy(companies.id),
      keys: await db.select().from(apiKeys).orderBy(apiKeys.id),
      endpoints: await db.select().from(webhookEndpoints).orderBy(webhookEndpoints.id),
    });
    const before = await snapshot();
    expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(true);

    // Every command opens the database the same way before it reads or writes; a write is tried here.
    const refused = await runReal(dataDir, 'key:create', '--company', created.companyId);
    expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code: 2, stdout: '' });
    expect(refused.stderr).toContain(`the data directory is in use by a running server (pid ${process.pid} on host ${hostname()}, since `);

    expect(await snapshot()).toEqual(before);
    // The CLI did not take or remove the server's lock.
    expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(true);
    await closeDatabases();
    // Once the server has stopped, the directory opens again without waiting: the refused CLI left no lock behind.
    const reopened = await getSandboxDb({ waitForLockMs: 0 });
    expect(await reopened.select().from(companies)).toHaveLength(1);
    await closeDatabases();
  });
});

describe('sandbox CLI usage errors (in-process, no database opened)', () => {
  it.each([
    [[], 'No command given'],
    [['company:delete'], 'Unknown command: company:delete'],
    [['--name', 'x'], 'Unknown command: --name'],
    [['company:create'], 'company:create needs --name NAME'],
    [['company:create', '--name'], "Option '--name <value>' argument missing"],
    [['company:create', '--name', '   '], 'company:create needs --name NAME'],
    [['company:create', '--name', 'n'.repeat(201)], '--name must be at most 200 characters'],
    [['company:create', '--name', 'x', '--token-validity', 'soon'], '--token-validity must be a whole number of seconds'],
    [['company:create', '--name', 'x', '--retention', '0'], '--retention must be a whole number of seconds'],
    [['company:create', '--name', 'x', '--audit-retention', '1.5'], '--audit-retention must be a whole number of seconds'],
    [['company:create', '--name', 'x', '--retention', '2147483648'], '--retention must be a whole number of seconds'],
    [['company:create', '--name', 'x', '--colour', 'red'], "Unknown option '--colour'"],
    [['company:create', '--name', 'x', 'extra'], 'extra'],
    [['company:list', '--name', 'x'], "Unknown option '--name'"],
    [['key:create'], 'key:create needs --company ID'],
    [['key:create', '--company', 'acme'], '--company must be a company id'],
    [['webhook:add'], 'webhook:add needs --company ID'],
    [['webhook:add', '--company', '3f2b8c1e-9d4a-4b7e-8f00-123456789abc'], 'webhook:add needs --url URL'],
    [['webhook:add', '--company', 'acme', '--url', 'https://x.example.com'], '--company must be a company id'],
    [['webhook:add', '--company', '3f2b8c1e-9d4a-4b7e-8f00-123456789abc', '--url', 'ftp://x.example.com'], '--url must use http or https'],
    [['webhook:add', '--company', '3f2b8c1e-9d4a-4b7e-8f00-123456789abc', '--url', 'hooks'], '--url must be an absolute http(s) URL'],
    [
      ['webhook:add', '--company', '3f2b8c1e-9d4a-4b7e-8f00-123456789abc', '--url', 'https://u:p@x.example.com'],
      '--url must not contain a user name or password',
    ],
    [['webhook:list'], 'webhook:list needs --company ID'],
    [['webhook:list', '--company', '3f2b8c1e-9d4a-4b7e-8f00-123456789abc', '--url', 'x'], "Unknown option '--url'"],
    [['webhook:disable'], 'webhook:disable needs --endpoint ID'],
    [['webhook:disable', '--endpoint', 'x'], '--endpoint must be an endpoint id'],
  ])('%j → exit 64: %s', async (argv, message) => {
    const run = await runInProcess(...argv);
    expect(run.code).toBe(EXIT_USAGE);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain('Usage: npm run sandbox');
  });

  it('--help prints the usage to stdout and exits 0', async () => {
    const run = await runInProcess('--help');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('company:create --name NAME');
  });
});
