#!/usr/bin/env node
// `npm start`: builds the app when there is no build or the sources changed since the last
// one, then serves it with lib/cli/server.mjs (with the embedded sandbox unless
// VERIFICATION_API_URL is set). Arguments go to the server (--port, --hostname).
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverNodeOptions } from './server-node-options.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const nextBin = path.join(root, 'node_modules/next/dist/bin/next');
const server = path.join(root, 'lib/cli/server.mjs');
const SOURCES = [
  'app',
  'components',
  'lib',
  'public',
  'package.json',
  'package-lock.json',
  'next.config.mjs',
  'tsconfig.json',
  'postcss.config.mjs',
  'instrumentation.ts',
  'instrumentation-node.ts',
  'proxy.ts',
];

function newestMtime(entry) {
  let stats;
  try {
    stats = statSync(entry);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return /\.test\.tsx?$/.test(entry) ? 0 : stats.mtimeMs;
  let newest = 0;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

function buildIsCurrent() {
  let built;
  try {
    built = statSync(path.join(root, '.next/BUILD_ID')).mtimeMs;
  } catch {
    return false;
  }
  return SOURCES.every((source) => newestMtime(path.join(root, source)) <= built);
}

function run(script, args, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: root, stdio: 'inherit', env });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

if (!buildIsCurrent()) {
  console.log('Building Verification Desk (first start or sources changed)…');
  const code = await run(nextBin, ['build']);
  if (code !== 0) process.exit(code);
}
process.exit(await run(server, process.argv.slice(2), { ...process.env, NODE_OPTIONS: serverNodeOptions(process.env.NODE_OPTIONS) }));
