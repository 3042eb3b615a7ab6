// SQL on the store being measured, for the data-scale phase: a PostgreSQL server directly (a
// client of its own beside the app's pool), the embedded PGlite through a child process that
// opens the data directory as the server does (lib/embedded-sql-runner.mjs), which the caller may
// do only while the server is stopped. Each statement is `{ sql, rows }`: `rows` when its rows are
// wanted. A batch answers `[{ ms, rows }]`, one per statement.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inheritedEnv, ROOT } from '../../kit/server.mjs';

const RUNNER = 'e2e/bench/lib/embedded-sql-runner.mjs';

/** Runs `statements` on the PostgreSQL server at `url`, in order, on one connection. */
export async function runOnServer(url, statements) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const results = [];
    for (const statement of statements) {
      const started = performance.now();
      const answer = await client.query(statement.sql);
      const last = Array.isArray(answer) ? answer.at(-1) : answer;
      results.push({ ms: performance.now() - started, rows: statement.rows ? last.rows : null });
    }
    return results;
  } finally {
    await client.end();
  }
}

/** Runs `statements` on the embedded data directory `dataDir`, whose server must be stopped. */
export async function runOnDataDir(dataDir, statements, { register } = {}) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-sql-'));
  const out = path.join(scratch, 'results.json');
  try {
    await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), '--conditions=react-server', RUNNER], {
        cwd: ROOT,
        env: { ...inheritedEnv(), DATA_DIR: dataDir },
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      const unregister = register ? register(() => child.kill('SIGKILL')) : () => {};
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.once('error', reject);
      child.once('exit', (code, signal) => {
        unregister();
        if (code === 0) resolve();
        else reject(new Error(`SQL on the embedded store failed (${code ?? signal}):\n${stderr.slice(-2000)}`));
      });
      child.stdin.end(JSON.stringify({ dataDir, statements, out }));
    });
    return JSON.parse(readFileSync(out, 'utf8'));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
