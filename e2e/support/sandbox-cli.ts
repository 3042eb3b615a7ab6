// Runs the sandbox CLI on a data directory before the server holds it (the CLI refuses while
// a server runs), e.g. to create a second company whose verifications are not ours.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export function createCompany(dataDir: string, name: string): { companyId: string; apiKey: string } {
  const output = execFileSync(
    process.execPath,
    [path.resolve('node_modules/tsx/dist/cli.mjs'), '--conditions=react-server', 'lib/sandbox/cli.ts', 'company:create', '--name', name],
    { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' },
  );
  return JSON.parse(output.trim().split('\n').pop() ?? '') as { companyId: string; apiKey: string };
}
