// Runs the project's CLIs on a data directory before the server holds it (they refuse while
// a server runs): a second sandbox company whose verifications are not ours, staff accounts.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

function runCli(script: string, args: string[], dataDir: string): string {
  return execFileSync(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), '--conditions=react-server', script, ...args], {
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
}

const lastJsonLine = <T>(output: string): T => JSON.parse(output.trim().split('\n').pop() ?? '') as T;

export function createCompany(dataDir: string, name: string): { companyId: string; apiKey: string } {
  return lastJsonLine(runCli('lib/sandbox/admin/cli.ts', ['company:create', '--name', name], dataDir));
}

export function createStaffUser(dataDir: string, email: string, role: string, password: string, name: string): { id: string } {
  return lastJsonLine(
    runCli('lib/staff/cli.ts', ['create', '--email', email, '--role', role, '--password', password, '--name', name], dataDir),
  );
}
