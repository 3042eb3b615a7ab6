// `npm run users -- …`: manage staff accounts from the command line. On the embedded store it
// refuses while a server holds the data directory (PGlite allows one process at a time); with
// DATABASE_URL it works beside running servers, as one more client of the shared database.
//
//   users create --email E --role admin|operator|viewer [--name N] [--password-stdin | --password-file F]
//   users invite --email E
//   users list
//   users disable --email E
//   users enable --email E
//   users setup-link
//   users sign-in-link <email>
import 'server-only';
import type { Readable } from 'node:stream';
import { inspect, parseArgs } from 'node:util';
import { passwordProblem } from '@/lib/auth/password-policy';
import { isStaffRole } from '@/lib/auth/roles';
import { createStaffSchema } from '@/lib/auth/schemas';
import { issueSetupToken } from '@/lib/auth/setup';
import { issueSignInLink, SIGN_IN_LINK_MINUTES, SignInLinkRefusedError } from '@/lib/auth/sign-in-link';
import { getDb } from '@/lib/db';
import { getEnv, InvalidEnvironmentError, isPasswordSignInEnabled } from '@/lib/env';
import { runAsProgram } from '@/lib/platform/cli-program';
import { DataDirInUseError } from '@/lib/platform/embedded-database';
import { PASSWORD_FLAG_REFUSAL, readGivenPassword } from './cli-password';
import { inviteStaff, issueInvitation } from './invitations/invitations.server';
import { invitationLink } from './invitations/link.server';
import { createStaff, disableStaff, enableStaff, findStaffIdByEmail, listStaff, StaffError } from './staff-accounts';

const USAGE = `Usage:
  npm run users -- create --email E --role admin|operator|viewer [--name N] [--password-stdin | --password-file F]
      Without a password: prints a one-time invitation link (48 hours) where they set their own.
      --password-stdin reads the password from standard input (a pipe, not a terminal), and
      --password-file F from the file F; one trailing newline is dropped. A password is never
      taken on the command line, where every local user can read it (ps, /proc).
  npm run users -- invite --email E
      A new invitation link for an account without a password yet; the earlier link stops working.
  npm run users -- list
  npm run users -- disable --email E
  npm run users -- enable --email E
      Lets a disabled account sign in again.
  npm run users -- setup-link
      While no staff account exists: prints a new one-time link that creates the first
      administrator (the earlier link stops working). APP_URL sets the address it starts with.
  npm run users -- sign-in-link <email>
      The break-glass way in: prints a one-time sign-in link for that administrator, valid for
      ${SIGN_IN_LINK_MINUTES} minutes. Works with PASSWORD_SIGN_IN=off and while the sign-in provider is down.

With DATABASE_URL this works while servers run; on the embedded store (DATA_DIR) stop the server first.`;

class UsageError extends Error {}

/** Where a run reads and writes: the process's own streams, or a test's. */
export type UsersCliIo = {
  out: (line: string) => void;
  err: (line: string) => void;
  /** What --password-stdin reads; `isTTY` set means a terminal, which it refuses. */
  stdin: Readable & { isTTY?: boolean };
};

async function run(argv: string[], io: UsersCliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      role: { type: 'string' },
      name: { type: 'string' },
      // Declared only to be refused with a reason rather than as an unknown option.
      password: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      'password-file': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command] = positionals;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }

  switch (command) {
    case 'create': {
      if (!values.email || !values.role) throw new UsageError('create needs --email and --role');
      if (!isStaffRole(values.role)) throw new UsageError('--role must be admin, operator or viewer');
      const parsed = createStaffSchema.safeParse({
        email: values.email,
        role: values.role,
        name: values.name ?? values.email.split('@')[0],
      });
      if (!parsed.success) throw new UsageError(parsed.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join('\n'));
      if (values.password !== undefined) throw new UsageError(PASSWORD_FLAG_REFUSAL);
      const given = await readGivenPassword({ stdin: values['password-stdin'] ?? false, file: values['password-file'] }, io.stdin).catch(
        (error: Error) => {
          throw new UsageError(error.message);
        },
      );
      if (given) {
        // The same rules as every other new password; said before anything is opened.
        const problem = passwordProblem(given.password);
        if (problem) throw new UsageError(`${given.from}: ${problem}`);
      }
      await getDb({ waitForLockMs: 0 });
      if (given) {
        const id = await createStaff(null, { ...parsed.data, password: given.password });
        io.out(JSON.stringify({ id, email: parsed.data.email, role: parsed.data.role }));
        return 0;
      }
      if (!isPasswordSignInEnabled()) {
        // Single sign-on only: the account is all they need; a password could not be used.
        const id = await createStaff(null, parsed.data);
        io.out(JSON.stringify({ id, email: parsed.data.email, role: parsed.data.role, signIn: 'single sign-on' }));
        return 0;
      }
      // stdout only, like setup-link: the operator asked for the link on this terminal.
      const invited = await inviteStaff(null, parsed.data);
      io.out(
        JSON.stringify({
          id: invited.userId,
          email: parsed.data.email,
          role: parsed.data.role,
          invitation: invitationLink(invited.token),
          expiresAt: invited.expiresAt.toISOString(),
        }),
      );
      return 0;
    }
    case 'invite': {
      if (!values.email) throw new UsageError('invite needs --email');
      if (!isPasswordSignInEnabled()) {
        io.err('Password sign-in is turned off (PASSWORD_SIGN_IN=off): staff sign in with single sign-on, invitations are not used.');
        return 1;
      }
      await getDb({ waitForLockMs: 0 });
      const id = await findStaffIdByEmail(values.email);
      if (!id) {
        io.err(`No account with the e-mail address ${values.email}.`);
        return 1;
      }
      const { token, expiresAt } = await issueInvitation(null, id);
      io.out(JSON.stringify({ id, invitation: invitationLink(token), expiresAt: expiresAt.toISOString() }));
      return 0;
    }
    case 'list': {
      await getDb({ waitForLockMs: 0 });
      for (const staff of await listStaff()) {
        io.out(JSON.stringify({ id: staff.id, email: staff.email, name: staff.name, role: staff.role, disabled: staff.disabled }));
      }
      return 0;
    }
    case 'disable': {
      if (!values.email) throw new UsageError('disable needs --email');
      await getDb({ waitForLockMs: 0 });
      const id = await findStaffIdByEmail(values.email);
      if (!id) {
        io.err(`No account with the e-mail address ${values.email}.`);
        return 1;
      }
      await disableStaff(null, id);
      io.out(JSON.stringify({ id, disabled: true }));
      return 0;
    }
    case 'enable': {
      if (!values.email) throw new UsageError('enable needs --email');
      await getDb({ waitForLockMs: 0 });
      const id = await findStaffIdByEmail(values.email);
      if (!id) {
        io.err(`No account with the e-mail address ${values.email}.`);
        return 1;
      }
      await enableStaff(null, id);
      io.out(JSON.stringify({ id, disabled: false }));
      return 0;
    }
    case 'setup-link': {
      await getDb({ waitForLockMs: 0 });
      const token = await issueSetupToken();
      if (!token) {
        io.err('Staff accounts exist already: setup is closed. An administrator adds accounts on the Staff page, or use `create`.');
        return 1;
      }
      const env = getEnv();
      // stdout only: the operator asked for it on this terminal; nothing goes to a log.
      io.out(JSON.stringify({ link: `${env.APP_URL ?? `http://localhost:${env.PORT}`}/setup?token=${token}` }));
      return 0;
    }
    case 'sign-in-link': {
      const email = positionals[1] ?? values.email;
      if (!email) throw new UsageError("sign-in-link needs the administrator's e-mail address");
      const { token, expiresAt } = await issueSignInLink(await getDb({ waitForLockMs: 0 }), email);
      const env = getEnv();
      // stdout only: the operator asked for it on this terminal; nothing goes to a log.
      io.out(JSON.stringify({ link: `${env.APP_URL ?? `http://localhost:${env.PORT}`}/sign-in/link?token=${token}`, expiresAt }));
      return 0;
    }
    default:
      throw new UsageError(command ? `unknown command: ${command}` : 'missing command');
  }
}

/**
 * Runs one command and returns its exit code: 0, 1 (refused or failed), 2 (a server holds the
 * data directory), 64 (the command line is wrong). Does not close the database (the entry does).
 */
export async function runUsersCli(argv: string[], io: UsersCliIo): Promise<number> {
  try {
    return await run(argv, io);
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      io.err(`Refusing to run: ${error.message}. Stop the server first, then run this command again.`);
      return 2;
    }
    if (error instanceof UsageError || (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
      io.err(`${error.message}\n\n${USAGE}`);
      return 64;
    }
    if (error instanceof InvalidEnvironmentError) {
      io.err(`Refusing to run. ${error.message}`);
      return 1;
    }
    if (error instanceof StaffError || error instanceof SignInLinkRefusedError) {
      io.err(error.message);
      return 1;
    }
    io.err(inspect(error));
    return 1;
  }
}

await runAsProgram(import.meta.url, (argv, lines) => runUsersCli(argv, { ...lines, stdin: process.stdin }));
