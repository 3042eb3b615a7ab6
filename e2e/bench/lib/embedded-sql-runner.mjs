#!/usr/bin/env node
// Runs SQL statements on an embedded (PGlite) data directory while its server is stopped, for the
// data-scale phase (lib/scale-sql.mjs): PGlite serves one process at a time, so the bench cannot
// reach the server's database any other way. It opens the directory exactly as the server does
// (the app's own opener, its lock and its settings), through tsx: started as
// `node --conditions=react-server --import tsx`.
// Input: a JSON job on stdin ({ dataDir, statements: [{ sql, rows }], out }); output: the results
// ([{ ms, rows }]) written to the file `out`, as the app's logger may print on stdout.
import { writeFileSync } from 'node:fs';
import { text } from 'node:stream/consumers';
import { closeEmbeddedDatabases, openDatabase } from '../../../lib/platform/embedded-database.ts';

const job = JSON.parse(await text(process.stdin));
const pg = await openDatabase(job.dataDir);
const results = [];
try {
  for (const statement of job.statements) {
    const started = performance.now();
    let rows = null;
    if (statement.rows) rows = (await pg.query(statement.sql)).rows;
    else await pg.exec(statement.sql);
    results.push({ ms: performance.now() - started, rows });
  }
} finally {
  await closeEmbeddedDatabases();
}
writeFileSync(job.out, JSON.stringify(results));
