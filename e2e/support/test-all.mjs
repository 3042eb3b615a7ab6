// `npm test`: the lint, then the Vitest suites while the production build the browser tests need
// is made beside them, then the browser tests. On two cores Vitest leaves part of the machine idle
// (its files wait on databases, timers and child processes) and the build fills it, so the two
// together take less than one after the other (measured on the 2-core machine: 386 s for both,
// against 316 s of Vitest and 106 s of build one after the other).
// The build's output goes to a file, printed only if the build fails, so Vitest's report reads
// as before. Any step that fails stops the run with its exit code.
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const lint = await run(npm, ['run', 'lint']);
if (lint !== 0) process.exit(lint);

const buildLog = path.join(os.tmpdir(), `verification-desk-build-${process.pid}.log`);
const buildOutput = createWriteStream(buildLog);
const building = new Promise((resolve) => {
  const child = spawn(process.execPath, ['e2e/support/build-with-canaries.mjs'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(buildOutput);
  child.stderr.pipe(buildOutput);
  child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
});

const unit = await run(npm, ['run', 'test:unit']);
const build = await building;
if (build !== 0) {
  process.stderr.write(readFileSync(buildLog, 'utf8'));
  process.stderr.write(`\nnpm test: the production build failed (exit ${build})\n`);
}
if (unit !== 0) process.exit(unit);
if (build !== 0) process.exit(build);
process.stdout.write('npm test: the production build for the browser tests is ready\n');
process.exit(await run(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['playwright', 'test']));
