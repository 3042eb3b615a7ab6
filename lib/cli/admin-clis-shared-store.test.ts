// The operators' CLIs (`npm run users`, `npm run sandbox`) against a PostgreSQL server while a
// server is running: they are one more client of the shared database, so there is no lock to
// refuse on (the embedded store's lock and refusal are tested in lib/staff/cli.test.ts and
// lib/sandbox/admin/cli.test.ts, which also run the real entry points). The CLIs' commands run
// in this process with an operator's settings (test/support/in-process-cli.ts). The running
// server is a connection that sits in an open transaction that has read the staff table, and the
// server's view of the changes is this process's pool, opened again after each command.
// PostgreSQL only.
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCliAuth } from '@/lib/auth/auth';
import { isSetupTokenValid } from '@/lib/auth/setup';
import { setupTokenOfLink } from '@/lib/auth/setup-link';
import { getDb } from '@/lib/db';
import { setupTokens, staffUsers } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { type CliRun, sandboxCli, usersCli } from '@/test/support/in-process-cli';

const url = process.env.DATABASE_URL;
let held: pg.Client | undefined;

/** The settings an operator gives the CLIs beside a running server. */
const settings = () => ({
  DATABASE_URL: url,
  BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET,
  AUDIT_SIGNING_KEY: process.env.AUDIT_SIGNING_KEY,
  // A running server's data directory would be locked on the embedded store; here it is not even used.
  DATA_DIR: path.join(tmpdir(), 'clis-shared-unused'),
  APP_URL: 'https://desk.example.com',
});
type Cli = (env: Record<string, string | undefined>, args: string[], input?: string) => Promise<CliRun>;
const USERS: Cli = usersCli;
const SANDBOX: Cli = sandboxCli;
const cli = (run: Cli, args: string[], env: Record<string, string | undefined> = {}, input = '') =>
  run({ ...settings(), ...env }, args, input);

beforeAll(async () => {
  if (!url) return;
  resetEnv();
  const db = await getDb();
  await db.delete(staffUsers);
  await db.delete(setupTokens);
  held = new pg.Client({ connectionString: url, application_name: 'verification-desk' });
  await held.connect();
  await held.query('begin');
  await held.query('select count(*) from staff_users');
});

afterAll(async () => {
  await held?.query('rollback');
  await held?.end();
});

describe.skipIf(!url)('the CLIs with DATABASE_URL while a server holds the database open', { timeout: 120_000 }, () => {
  it('users: setup-link, create, list and disable work, and the server sees the changes at once', async () => {
    const setup = await cli(USERS, ['setup-link']);
    expect(setup.code, setup.stderr).toBe(0);
    const { link } = JSON.parse(setup.stdout) as { link: string };
    expect(link).toMatch(/^https:\/\/desk\.example\.com\/setup\?token=[A-Za-z0-9_-]{43}$/);
    expect(await isSetupTokenValid(setupTokenOfLink(link)!)).toBe(true);

    const created = await cli(
      USERS,
      ['create', '--email', 'ops@example.com', '--role', 'operator', '--password-stdin'],
      {},
      'a long enough password',
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).not.toContain('in use');
    const { id } = JSON.parse(created.stdout) as { id: string };
    // The running server signs the new account in (its password hash is on the shared store).
    const auth = await getCliAuth();
    const signIn = await auth.api.signInEmail({ body: { email: 'ops@example.com', password: 'a long enough password' }, asResponse: true });
    expect(signIn.status).toBe(200);

    const listed = await cli(USERS, ['list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout.trim())).toMatchObject({ id, email: 'ops@example.com', role: 'operator', disabled: false });

    // With an account, setup is closed: the CLI says so instead of issuing a link.
    const closed = await cli(USERS, ['setup-link']);
    expect(closed.code).toBe(1);
    expect(closed.stderr).toContain('setup is closed');
    expect(closed.stdout).toBe('');

    const disabled = await cli(USERS, ['disable', '--email', 'ops@example.com']);
    expect(disabled.code, disabled.stderr).toBe(0);
    const [row] = await (await getDb()).select({ disabled: staffUsers.disabled }).from(staffUsers).where(eq(staffUsers.id, id));
    expect(row?.disabled).toBe(true);
  });

  it('users refuses without BETTER_AUTH_SECRET, naming it, and changes nothing', async () => {
    const run = await cli(USERS, ['create', '--email', 'nosecret@example.com', '--role', 'viewer'], { BETTER_AUTH_SECRET: undefined });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('BETTER_AUTH_SECRET is required with DATABASE_URL');
    expect(run.stderr).not.toContain(url!);
    const rows = await (await getDb()).select().from(staffUsers).where(eq(staffUsers.email, 'nosecret@example.com'));
    expect(rows).toEqual([]);
  });

  it('sandbox: company:create and company:list work', async () => {
    const created = await cli(SANDBOX, ['company:create', '--name', 'Beside The Server']);
    expect(created.code, created.stderr).toBe(0);
    const { companyId } = JSON.parse(created.stdout) as { companyId: string };
    const listed = await cli(SANDBOX, ['company:list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(companyId);
  });
});
