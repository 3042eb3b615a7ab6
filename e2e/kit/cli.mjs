// @ts-check
// The project's CLIs (lib/sandbox/admin/cli.ts, lib/staff/cli.ts, and test scripts such as
// e2e/load/burst-report.ts), run with tsx and the react-server condition as `npm run sandbox` and
// `npm run users` run them, on a data directory no server holds (they refuse while one does).
// They print their result as the last JSON line on stdout. They inherit what a server would
// (server.mjs's filter), so they prepare the same database the server then opens; a caller whose
// server uses a PostgreSQL server passes the same DATABASE_URL (`env`), since none is inherited.
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { inheritedEnv, ROOT } from './server.mjs';

/** @typedef {import('./cli.d.mts').Staff} Staff */
/** @typedef {import('./cli.d.mts').CliOptions} CliOptions */

const SANDBOX_CLI = 'lib/sandbox/admin/cli.ts';
const STAFF_CLI = 'lib/staff/cli.ts';

/** @param {string} script @param {string[]} args */
const command = (script, args) => [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), '--conditions=react-server', script, ...args];
/** @param {string} output */
const lastJsonLine = (output) => JSON.parse(output.trim().split('\n').pop() ?? '');

/**
 * Runs `script` (a path from the repository's root) with `args`, waits, returns its last JSON line.
 * `env` adds what the caller's server gets explicitly (e.g. DATABASE_URL, which is not inherited);
 * `input` is written to its standard input (a password for --password-stdin: never an argument).
 * @param {string} script
 * @param {string[]} args
 * @param {{ dataDir: string, env?: Record<string, string>, input?: string }} options
 */
export function runCli(script, args, { dataDir, env = {}, input = '' }) {
  const output = execFileSync(process.execPath, command(script, args), {
    cwd: ROOT,
    env: { ...inheritedEnv(), ...env, DATA_DIR: dataDir },
    input,
    encoding: 'utf8',
    // A test script may print a large report as its one line.
    maxBuffer: 64 * 1024 * 1024,
  });
  return lastJsonLine(output);
}

/**
 * runCli without blocking this process (so the bench can build meanwhile). In a process group of
 * its own, which `register(undo)` (optional) lets the caller's cleanup kill.
 * @param {string} script
 * @param {string[]} args
 * @param {CliOptions} options
 */
export function runCliAsync(script, args, { dataDir, register, env = {}, input = '' }) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, command(script, args), {
      cwd: ROOT,
      env: { ...inheritedEnv(), ...env, DATA_DIR: dataDir },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdin.end(input);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const unregister = register
      ? register(() => {
          try {
            process.kill(-(/** @type {number} */ (child.pid)), 'SIGKILL');
          } catch {}
        })
      : () => {};
    child.once('exit', (code) => {
      unregister();
      if (code === 0) resolve(lastJsonLine(out));
      else reject(new Error(`${script} ${args[0]} failed (${code}):\n${err.slice(-2000)}`));
    });
  });
}

const SEED = 'e2e/support/seed.ts';

/**
 * Runs `steps` (companies, keys, webhook endpoints, staff; see e2e/support/seed.ts) in one process,
 * in order; returns one result per step. Setup for specs: the CLIs themselves are tested by Vitest.
 * @param {string} dataDir
 * @param {import('./cli.d.mts').SeedStep[]} steps
 * @param {Record<string, string>} [env]
 * @returns {any[]}
 */
export const seed = (dataDir, steps, env = {}) => runCli(SEED, [], { dataDir, env, input: JSON.stringify(steps) });

/**
 * One account per entry, made in one process (see seed).
 * @param {string} dataDir
 * @param {Staff[]} staff
 * @param {Record<string, string>} [env]
 * @returns {Array<{ id: string }>}
 */
export const createStaffUsers = (dataDir, staff, env = {}) =>
  seed(
    dataDir,
    staff.map(({ email, role, name, password }) => ({ staff: { email, role, name, password } })),
    env,
  );

/** @param {string} name */
const companyArgs = (name) => ['company:create', '--name', name];
/** The password goes in on standard input (`input`): the CLI takes none as an argument. @param {Staff} staff */
const staffArgs = ({ email, role, name }) => ['create', '--email', email, '--role', role, '--password-stdin', '--name', name];

/**
 * A sandbox company and its first API key.
 * @param {string} dataDir
 * @param {string} name
 * @returns {{ companyId: string, apiKey: string }}
 */
export const createCompany = (dataDir, name) => runCli(SANDBOX_CLI, companyArgs(name), { dataDir });

/**
 * Another API key for a sandbox company (a second integration of the same company).
 * @param {string} dataDir
 * @param {string} companyId
 * @returns {{ apiKey: string }}
 */
export const createApiKey = (dataDir, companyId) => runCli(SANDBOX_CLI, ['key:create', '--company', companyId], { dataDir });

/**
 * A staff account that can sign in at once.
 * @param {string} dataDir
 * @param {Staff} staff
 * @returns {{ id: string }}
 */
export const createStaffUser = (dataDir, staff) => runCli(STAFF_CLI, staffArgs(staff), { dataDir, input: staff.password });

/**
 * @param {string} name
 * @param {CliOptions} options
 * @returns {Promise<{ companyId: string, apiKey: string }>}
 */
export const createCompanyAsync = (name, options) => runCliAsync(SANDBOX_CLI, companyArgs(name), options);

/**
 * @param {Staff} staff
 * @param {CliOptions} options
 * @returns {Promise<{ id: string }>}
 */
export const createStaffUserAsync = (staff, options) => runCliAsync(STAFF_CLI, staffArgs(staff), { ...options, input: staff.password });
