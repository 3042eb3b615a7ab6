// The upgrade path, end to end with the real tools: an embedded data directory filled by the
// CLIs' commands (staff, audit entries, sandbox company, key and webhook endpoint; run in this
// process) and register and live-event rows, exported with `npm run data -- export` (its real
// entry point spawned while a "server" holds the directory, and refused), imported with the data
// CLI's import command into this file's PostgreSQL database. Every row comes across unchanged, a
// staff member signs in with the password set before, sequences continue after the imported
// ids, a file written before a column was added imports with its default, and a second import
// into the now non-empty database is refused.
// PostgreSQL only (the target is the postgres project's database).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '@/lib/audit/audit';
import { checkAuditChain } from '@/lib/audit/chain/chain-check.server';
import { getCliAuth } from '@/lib/auth/auth';
import { resetEnv } from '@/lib/env';
import { closeEmbeddedDatabases, openDatabase } from '@/lib/platform/embedded-database';
import { runCli as runSandboxCli } from '@/lib/sandbox/admin/cli';
import { runUsersCli } from '@/lib/staff/cli';
import { dataCli as data, inProcess } from '@/test/support/in-process-cli';

const TSX = path.join(process.cwd(), 'node_modules/tsx/dist/cli.mjs');
const script = (file: string) => path.join(process.cwd(), file);
const url = process.env.DATABASE_URL;
const PASSWORD = 'the password set before the upgrade';

type Run = { code: number; stdout: string; stderr: string };

/** `input` goes to the tool's standard input (a password for --password-stdin). */
function tool(file: string, args: string[], env: Record<string, string | undefined>, input = ''): Promise<Run> {
  const base = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', LOG_LEVEL: 'silent' };
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [TSX, '--conditions=react-server', script(file), ...args],
      { cwd: process.cwd(), env: { ...base, ...env } as NodeJS.ProcessEnv, timeout: 90_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
    child.stdin?.end(input);
  });
}

let tmp: string;
let source: string;
let target: pg.Pool;

/** Every row of every application table, as PostgreSQL's own JSON text, sorted: comparable across stores. */
async function snapshot(query: (text: string) => Promise<{ rows: unknown[] }>): Promise<Record<string, string[]>> {
  const tables = (
    await query(
      "select table_schema || '.' || table_name as name from information_schema.tables where table_schema in ('public', 'sandbox') and table_type = 'BASE TABLE' order by 1",
    )
  ).rows.map((row) => (row as { name: string }).name);
  const all: Record<string, string[]> = {};
  for (const table of tables) {
    const rows = (await query(`select to_jsonb(t)::text as row from ${table} t`)).rows.map((row) => (row as { row: string }).row);
    all[table] = rows.sort();
  }
  return all;
}

beforeAll(async () => {
  if (!url) return;
  tmp = await mkdtemp(path.join(tmpdir(), 'data-transfer-'));
  source = path.join(tmp, 'data');
  target = new pg.Pool({ connectionString: url, max: 2 });
  resetEnv();
});

afterAll(async () => {
  await closeEmbeddedDatabases();
  await target?.end();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe.skipIf(!url)('npm run data: from an embedded data directory to PostgreSQL', { timeout: 420_000 }, () => {
  let exported: string;

  it('exports every table of the embedded store, and refuses while a server holds the directory', async () => {
    const embedded = { DATA_DIR: source };
    // The commands an operator runs one after the other, here in one session on the directory.
    const filled = await inProcess(embedded, async (io) => {
      const printed: string[] = [];
      const tee = {
        out: (line: string) => {
          printed.push(line);
          io.out(line);
        },
        err: io.err,
      };
      for (const [args, input] of [
        [['create', '--email', 'ada@example.com', '--role', 'admin', '--name', 'Ada Admin', '--password-stdin'], PASSWORD],
        [['create', '--email', 'vic@example.com', '--role', 'viewer']],
        [['disable', '--email', 'vic@example.com']],
      ] as Array<[string[], string?]>) {
        const code = await runUsersCli(args, { ...tee, stdin: Readable.from(input ? [Buffer.from(input)] : []) });
        if (code !== 0) return code;
      }
      const company = await runSandboxCli(['company:create', '--name', 'Acme Bank'], tee);
      if (company !== 0) return company;
      const { companyId } = JSON.parse(printed.at(-1)!) as { companyId: string };
      return runSandboxCli(['webhook:add', '--company', companyId, '--url', 'https://desk.example.com/hook'], tee);
    });
    expect(filled.code, filled.stderr).toBe(0);

    // This process plays the server: it holds the directory while it writes register rows.
    const db = await openDatabase(source, { waitForLockMs: 0 });
    const [ada] = (await db.query<{ id: string }>("select id from staff_users where email = 'ada@example.com'")).rows;
    await db.query(
      `insert into verification_requests (verification_id, name, purpose, language, shareable_link, email_notification, sms_notification, link, status, created_by, kept_until)
       values ('ver_1', 'Jane Doe', 'Account opening', 'en', true, false, false, 'https://verify.example.com/v/1', 'completed', $1, now() + interval '30 days'),
              ('ver_2', 'Zoë Ünïcode', 'KYC "refresh"', 'de', false, true, true, null, 'pending', $1, null)`,
      [ada!.id],
    );
    await db.query("update verification_requests set identified_name = 'Jane Roe', name_mismatch = true where verification_id = 'ver_1'");
    await db.query(
      "insert into name_reviews (verification_id, decision, note, decided_by) values ('ver_1', 'same_person', 'Married name.', $1)",
      [ada!.id],
    );
    await db.query("insert into live_events (verification_id, status) values ('ver_1', 'pending'), ('ver_1', 'completed')");
    exported = path.join(tmp, 'desk-export.jsonl');
    const refused = await tool('lib/cli/data.ts', ['export', exported], embedded);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Stop the server first');
    await expect(stat(exported)).rejects.toThrow(/ENOENT/);
    await closeEmbeddedDatabases();

    // The entry point is the refusal's above; the export itself runs in this process.
    const run = await data(embedded, ['export', exported]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ exported, rows: expect.any(Number) });
    expect(((await stat(exported)).mode & 0o777).toString(8)).toBe('600');
    const [header] = (await readFile(exported, 'utf8')).split('\n');
    const tables = (JSON.parse(header!) as { tables: Array<{ table: string; rows: number }> }).tables;
    const count = (table: string) => tables.find((entry) => entry.table === table)?.rows;
    expect(count('public.staff_users')).toBe(2);
    expect(count('public.verification_requests')).toBe(2);
    expect(count('public.audit_entries')).toBeGreaterThan(0);
    expect(count('sandbox.companies')).toBe(1);
    expect(count('sandbox.api_keys')).toBe(1);
    // A table is listed after those its foreign keys point at.
    const order = tables.map((entry) => entry.table);
    expect(order.indexOf('public.staff_users')).toBeLessThan(order.indexOf('public.verification_requests'));
    expect(order.indexOf('sandbox.companies')).toBeLessThan(order.indexOf('sandbox.api_keys'));

    // Writing over an existing file is refused.
    const again = await data(embedded, ['export', exported]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Refusing to overwrite');
  });

  it('imports into an empty PostgreSQL: the same rows, an intact audit chain, a working sign-in, sequences after the imported ids', async () => {
    // As a release before migration 0013 wrote the file: no name_reviewed on the register's rows.
    // The import leaves it to the column's default and the name_reviews trigger, as the migration did.
    const older = path.join(tmp, 'desk-export-before-0013.jsonl');
    const lines = (await readFile(exported, 'utf8')).split('\n').map((line) => {
      const entry = line.startsWith('{"table":"public.verification_requests"')
        ? (JSON.parse(line) as { row: Record<string, unknown> })
        : null;
      if (!entry) return line;
      delete entry.row.name_reviewed;
      return JSON.stringify(entry);
    });
    expect(lines.join('\n')).not.toContain('name_reviewed');
    await writeFile(older, lines.join('\n'), { mode: 0o600 });
    const run = await data(
      { DATABASE_URL: url, BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET, AUDIT_SIGNING_KEY: process.env.AUDIT_SIGNING_KEY },
      ['import', older],
    );
    expect(run.code, run.stderr).toBe(0);

    const db = await openDatabase(source, { waitForLockMs: 0 });
    const before = await snapshot((text) => db.query(text));
    await closeEmbeddedDatabases();
    const after = await snapshot((text) => target.query(text));
    expect(after).toEqual(before);
    expect(after['public.verification_requests']!.join()).toContain('Zoë Ünïcode');
    // The audit chain came across whole (the trigger kept the imported hashes), and the next
    // entry written here follows its last one.
    const imported = await checkAuditChain();
    expect(imported).toMatchObject({ intact: true, verifiedSeq: after['public.audit_entries']!.length });
    await recordAudit({ actorId: null, action: 'register.exported', details: { rows: 0, complete: true } });
    expect(await checkAuditChain()).toMatchObject({ intact: true, verifiedSeq: imported.verifiedSeq + 1 });

    const auth = await getCliAuth();
    const signIn = await auth.api.signInEmail({ body: { email: 'ada@example.com', password: PASSWORD }, asResponse: true });
    expect(signIn.status).toBe(200);

    const { rows } = await target.query<{ id: string }>(
      "insert into live_events (verification_id, status) values ('ver_2', 'pending') returning id",
    );
    expect(Number(rows[0]!.id)).toBe(3);
  });

  it('refuses to import into a database that holds data, and changes nothing', async () => {
    const before = await snapshot((text) => target.query(text));
    const run = await data(
      { DATABASE_URL: url, BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET, AUDIT_SIGNING_KEY: process.env.AUDIT_SIGNING_KEY },
      ['import', exported],
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('already holds data');
    expect(run.stderr).toContain('public.staff_users: 2');
    expect(await snapshot((text) => target.query(text))).toEqual(before);
  });
});
