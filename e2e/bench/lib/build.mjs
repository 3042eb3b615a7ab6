// Is the production build in .next older than the code it was built from? `npm run bench`
// builds unless the build is current (like make): on a busy machine `next build` can take minutes
// of the run's 5, and rebuilding unchanged sources measures nothing new. Conservative: any file
// under the sources newer than .next/BUILD_ID (written last by `next build`, never by `next
// dev`) means a rebuild.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SOURCES = [
  'app',
  'components',
  'lib',
  'public',
  'proxy.ts',
  'instrumentation.ts',
  'instrumentation-node.ts',
  'next.config.mjs',
  'postcss.config.mjs',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file shows as a newer directory
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** Why a build is needed, or null when .next is a production build newer than every source. */
export function buildNeeded(root = process.cwd()) {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return 'no production build in .next';
  const built = statSync(buildId).mtimeMs;
  const changed = SOURCES.find((source) => newestMtime(path.join(root, source)) > built);
  return changed ? `${changed} changed since the last build` : null;
}

/** Runs `next build` in its own process group, which `register` lets the bench kill on a stop. */
export function build(register) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'build'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const unregister = register(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    });
    child.once('exit', (code, signal) => {
      unregister();
      if (code === 0) resolve();
      else reject(new Error(`next build failed (${code ?? signal}):\n${output.slice(-4000)}`));
    });
  });
}
