// The operators' CLIs run in the test's own process, through the runners their entry points call
// (lib/staff/cli.ts, lib/sandbox/admin/cli.ts, lib/cli/data.ts), with only the given settings,
// as a spawned CLI would see them. Spawning one costs seconds of module loading; each CLI's own
// test spawns its real entry point once.
import { Readable } from 'node:stream';
import { runDataCli } from '@/lib/cli/data';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { runCli as runSandboxCli } from '@/lib/sandbox/admin/cli';
import { runUsersCli } from '@/lib/staff/cli';

export type CliRun = { code: number; stdout: string; stderr: string };

/** The settings the CLIs read; those not given are unset for the run. */
const SETTINGS = ['DATA_DIR', 'DATABASE_URL', 'BETTER_AUTH_SECRET', 'AUDIT_SIGNING_KEY', 'APP_URL'] as const;

type Io = { out: (line: string) => void; err: (line: string) => void };

/**
 * Runs `run` with only `env` of the CLIs' settings, on databases of its own: this process's
 * databases are closed before and after, and its settings are back afterwards.
 */
export async function inProcess(
  env: Partial<Record<(typeof SETTINGS)[number], string>>,
  run: (io: Io) => Promise<number>,
): Promise<CliRun> {
  const saved = Object.fromEntries(SETTINGS.map((name) => [name, process.env[name]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const name of SETTINGS) {
      if (values[name] === undefined) delete process.env[name];
      else process.env[name] = values[name];
    }
    resetEnv();
  };
  await closeDatabases();
  apply(env);
  const out: string[] = [];
  const err: string[] = [];
  try {
    const code = await run({ out: (line) => out.push(line), err: (line) => err.push(line) });
    return { code, stdout: out.map((line) => `${line}\n`).join(''), stderr: err.join('\n') };
  } finally {
    await closeDatabases();
    apply(saved);
  }
}

type Env = Parameters<typeof inProcess>[0];

/** `npm run users -- …`; `input` is what it finds on standard input (a pipe). */
export const usersCli = (env: Env, args: string[], input = '') =>
  inProcess(env, (io) => runUsersCli(args, { ...io, stdin: Readable.from(input === '' ? [] : [Buffer.from(input)]) }));

/** `npm run sandbox -- …` */
export const sandboxCli = (env: Env, args: string[]) => inProcess(env, (io) => runSandboxCli(args, io));

/** `npm run data -- …` */
export const dataCli = (env: Env, args: string[]) => inProcess(env, (io) => runDataCli(args, io));
