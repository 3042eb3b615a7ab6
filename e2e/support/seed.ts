// Test support: everything a browser spec's server needs before it starts (sandbox companies, keys,
// webhook endpoints, staff), made in one process. The CLIs themselves are proven by Vitest
// (lib/staff/cli.test.ts, lib/sandbox/admin/cli.test.ts); here they are only setup, and each of
// their processes costs seconds of start-up. Sandbox steps go through the sandbox CLI's own
// runCli; staff steps call what `npm run users -- create | disable` calls.
//   DATA_DIR=… [DATABASE_URL=…] tsx --conditions=react-server e2e/support/seed.ts < steps.json
// Standard input: a JSON array of steps (see SeedStep in e2e/kit/cli.d.mts). An argument of the
// form `$N.field` is replaced by that field of step N's result. Prints one JSON line: the results.
import 'server-only';
import { passwordProblem } from '@/lib/auth/password-policy';
import { createStaffSchema } from '@/lib/auth/schemas';
import { getDb } from '@/lib/db';
import { isPasswordSignInEnabled } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { runCli as runSandboxCli } from '@/lib/sandbox/admin/cli';
import { getSandboxDb } from '@/lib/sandbox/db';
import { inviteStaff } from '@/lib/staff/invitations/invitations.server';
import { invitationLink } from '@/lib/staff/invitations/link.server';
import { createStaff, disableStaff, findStaffIdByEmail } from '@/lib/staff/staff-accounts';

type Step = { sandbox: string[] } | { staff: { email: string; role: string; name: string; password?: string } } | { disable: string };

type Result = Record<string, unknown>;

const steps = JSON.parse(await readStdin()) as Step[];
const results: Result[] = [];

const resolve = (arg: string) =>
  arg.replace(/^\$(\d+)\.(\w+)$/, (_, index: string, field: string) => String(results[Number(index)]?.[field] ?? ''));

async function run(step: Step): Promise<Result> {
  if ('sandbox' in step) {
    const lines: string[] = [];
    const errors: string[] = [];
    const code = await runSandboxCli(step.sandbox.map(resolve), { out: (line) => lines.push(line), err: (line) => errors.push(line) });
    if (code !== 0) throw new Error(`sandbox ${step.sandbox[0]} failed (${code}): ${errors.join('\n')}`);
    return JSON.parse(lines.at(-1) ?? '{}');
  }
  if ('disable' in step) {
    const id = await findStaffIdByEmail(step.disable);
    if (!id) throw new Error(`No account with the e-mail address ${step.disable}.`);
    await disableStaff(null, id);
    return { id, disabled: true };
  }
  const { password, ...fields } = step.staff;
  const parsed = createStaffSchema.safeParse(fields);
  if (!parsed.success) throw new Error(`staff ${fields.email}: ${parsed.error.message}`);
  if (password !== undefined) {
    const problem = passwordProblem(password);
    if (problem) throw new Error(`staff ${fields.email}: ${problem}`);
    return { id: await createStaff(null, { ...parsed.data, password }) };
  }
  if (!isPasswordSignInEnabled()) return { id: await createStaff(null, parsed.data) };
  const invited = await inviteStaff(null, parsed.data);
  return { id: invited.userId, invitation: invitationLink(invited.token) };
}

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text;
}

let code = 0;
try {
  // Both halves, as a server opens them: with no steps, this makes a migrated, empty store
  // (the run's template, e2e/support/data-dirs.ts).
  await getDb({ waitForLockMs: 0 });
  await getSandboxDb({ waitForLockMs: 0 });
  for (const step of steps) results.push(await run(step));
  console.log(JSON.stringify(results));
} catch (error) {
  console.error(error);
  code = 1;
}
await closeDatabases();
process.exit(code);
