// Runs `next start` for the browser tests and keeps a copy of everything it prints in a file
// (e2e/leak-check.spec.ts scans it for secrets and personal data), while still passing it
// through to Playwright. Usage: node e2e/support/serve-with-log.mjs <log file>
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const logFile = process.argv[2];
if (!logFile) {
  console.error('usage: node e2e/support/serve-with-log.mjs <log file>');
  process.exit(2);
}
mkdirSync(path.dirname(logFile), { recursive: true });
// Written synchronously, chunk by chunk: the leak check reads the file while the server runs.
const fd = openSync(logFile, 'a');

const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start'], { stdio: ['ignore', 'pipe', 'pipe'] });
child.stdout.on('data', (chunk) => {
  writeSync(fd, chunk);
  process.stdout.write(chunk);
});
child.stderr.on('data', (chunk) => {
  writeSync(fd, chunk);
  process.stderr.write(chunk);
});

// Playwright ends its web servers by signalling this process (or its whole group); next start
// must hear it too, so it can close its data directory cleanly.
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
child.on('exit', (code, signal) => {
  closeSync(fd);
  process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0));
});
