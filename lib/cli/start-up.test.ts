// Start-up on a shared PostgreSQL (DATABASE_URL), as real processes running the composition root
// (test/support/start-desk.ts): what it refuses, naming the variables, and how several instances
// starting together share one first-run setup link. PostgreSQL only: the embedded store has one
// process by design.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GENERATED_KEY_FILE } from '@/lib/audit/chain/signing-key.server';
import { isSetupTokenValid } from '@/lib/auth/setup';
import { setupTokenOfLink } from '@/lib/auth/setup-link';
import { getDb } from '@/lib/db';
import { setupTokens, staffUsers } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { sharedStoreSandboxProblem } from '@/lib/sandbox/admin/shared-store-check';
import { getSandboxDb } from '@/lib/sandbox/db';
import { TEST_AUDIT_SIGNING_KEY } from '@/test/support/audit-signing-key';
import { sandboxCli } from '@/test/support/in-process-cli';

const TSX = path.join(process.cwd(), 'node_modules/tsx/dist/cli.mjs');
const START = path.join(process.cwd(), 'test/support/start-desk.ts');
const SECRET = 'start-up-test-secret-0123456789-0123456789';

type Run = { code: number; stdout: string; stderr: string };

function run(script: string, args: string[], env: Record<string, string | undefined>): Promise<Run> {
  // Only what the test gives, on top of a neutral base: no variable of this process leaks in.
  const base = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', LOG_LEVEL: 'silent' };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [TSX, '--conditions=react-server', script, ...args],
      { cwd: process.cwd(), env: { ...base, ...env } as NodeJS.ProcessEnv, timeout: 90_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

const url = process.env.DATABASE_URL;
let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'start-up-'));
  resetEnv();
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

beforeEach(async () => {
  if (!url) return;
  const db = await getDb();
  await db.delete(staffUsers);
  await db.delete(setupTokens);
});

/** A real service's settings: the dashboard is not pointed at the sandbox. */
const REAL_SERVICE = { SANDBOX: 'off', VERIFICATION_API_URL: 'http://127.0.0.1:9', VERIFICATION_API_KEY: 'a-key-of-the-real-service' };

describe.skipIf(!url)('start-up with DATABASE_URL', { timeout: 120_000 }, () => {
  it('refuses to start without BETTER_AUTH_SECRET or AUDIT_SIGNING_KEY, naming each, and writes no secret or key into the data directory', async () => {
    const dataDir = path.join(tmp, 'no-secret');
    const result = await run(START, [], { ...REAL_SERVICE, DATABASE_URL: url, DATA_DIR: dataDir });
    expect(result.code, result.stdout).toBe(1);
    expect(result.stderr).toContain('Verification Desk cannot start.');
    expect(result.stderr).toContain('BETTER_AUTH_SECRET is required with DATABASE_URL');
    expect(result.stderr).toContain('AUDIT_SIGNING_KEY is required with DATABASE_URL');
    expect(result.stderr).not.toContain(url!);
    await expect(readFile(path.join(dataDir, 'auth-secret'), 'utf8')).rejects.toThrow(/ENOENT/);
    await expect(readFile(path.join(dataDir, GENERATED_KEY_FILE), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('instances starting together issue one setup link: one shows it, the others point to it and to the CLI', async () => {
    const dirs = ['a', 'b', 'c'].map((name) => path.join(tmp, `together-${name}`));
    const runs = await Promise.all(
      dirs.map((dataDir) =>
        run(START, [], {
          ...REAL_SERVICE,
          DATABASE_URL: url,
          BETTER_AUTH_SECRET: SECRET,
          AUDIT_SIGNING_KEY: TEST_AUDIT_SIGNING_KEY,
          DATA_DIR: dataDir,
        }),
      ),
    );
    for (const result of runs) expect(result.code, result.stderr).toBe(0);

    const links = await Promise.all(dirs.map((dir) => readFile(path.join(dir, 'setup-link.txt'), 'utf8').catch(() => null)));
    const written = links.filter((link): link is string => link !== null);
    expect(written).toHaveLength(1);
    const token = setupTokenOfLink(written[0]!.trim());
    expect(await isSetupTokenValid(token!)).toBe(true);
    expect(await (await getDb()).select().from(setupTokens)).toHaveLength(1);

    const others = runs.filter((_, i) => links[i] === null);
    for (const other of others) {
      expect(other.stdout).toContain('A one-time setup link was issued at');
      expect(other.stdout).toContain('npm run users -- setup-link');
      expect(other.stdout).not.toContain('token=');
    }

    // A restart of the instance that issued it keeps the same link working (and shows where it is).
    const issuer = dirs[links.findIndex((link) => link !== null)]!;
    const again = await run(START, [], {
      ...REAL_SERVICE,
      DATABASE_URL: url,
      BETTER_AUTH_SECRET: SECRET,
      AUDIT_SIGNING_KEY: TEST_AUDIT_SIGNING_KEY,
      DATA_DIR: issuer,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(path.join(issuer, 'setup-link.txt'));
    expect(await readFile(path.join(issuer, 'setup-link.txt'), 'utf8')).toBe(written[0]);
    expect(await isSetupTokenValid(token!)).toBe(true);
  });

  it('refuses the self-provisioning sandbox (no service configured), naming the variables and the CLI', async () => {
    // No service configured means the sandbox, as SANDBOX=on does (lib/sandbox/config.test.ts
    // "isSandboxEnabled"): both reach the same refusal, so one process shows it.
    const result = await run(START, [], {
      DATABASE_URL: url,
      BETTER_AUTH_SECRET: SECRET,
      AUDIT_SIGNING_KEY: TEST_AUDIT_SIGNING_KEY,
      DATA_DIR: path.join(tmp, 'sandbox'),
    });
    expect(result.code, result.stdout).toBe(1);
    expect(result.stderr).toContain('Verification Desk cannot start.');
    for (const name of [
      'DATABASE_URL',
      'VERIFICATION_API_URL',
      'VERIFICATION_API_KEY',
      'SANDBOX=off',
      'npm run sandbox -- company:create',
    ]) {
      expect(result.stderr).toContain(name);
    }
  });

  it('serves the sandbox with a company and key provisioned with its CLI, and refuses a key it does not know', async () => {
    const dataDir = path.join(tmp, 'provisioned');
    // The CLI's command in this process (its entry point is run in lib/sandbox/admin/cli.test.ts).
    const provisioned = await sandboxCli({ DATABASE_URL: url, DATA_DIR: dataDir }, ['company:create', '--name', 'Shared Sandbox']);
    expect(provisioned.code, provisioned.stderr).toBe(0);
    const { apiKey } = JSON.parse(provisioned.stdout) as { apiKey: string };

    const env = {
      SANDBOX: 'on',
      DATABASE_URL: url,
      BETTER_AUTH_SECRET: SECRET,
      AUDIT_SIGNING_KEY: TEST_AUDIT_SIGNING_KEY,
      DATA_DIR: dataDir,
      VERIFICATION_API_URL: 'http://127.0.0.1:3000',
    };
    const started = await run(START, [], { ...env, VERIFICATION_API_KEY: apiKey });
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toContain('{"event":"started"}');
    expect(started.stdout).toContain('Service: embedded sandbox at http://127.0.0.1:3000');

    // A key it does not know: the check start-up makes, asked directly (a refusal's way out of
    // the process, exit 1 and the message, is the test above's).
    const unknown = await sharedStoreSandboxProblem(await getSandboxDb(), {
      url: env.VERIFICATION_API_URL,
      apiKey: `vd_sk_${'A'.repeat(43)}`,
    });
    expect(unknown).toContain('VERIFICATION_API_KEY is not a live API key of the embedded sandbox on DATABASE_URL');
    expect(unknown).not.toContain('A'.repeat(43));
    expect(await sharedStoreSandboxProblem(await getSandboxDb(), { url: env.VERIFICATION_API_URL, apiKey })).toBeNull();
  });
});
