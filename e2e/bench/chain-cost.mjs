// @ts-check
// What chaining the audit trail costs, measured side by side on one PostgreSQL server: a database
// migrated to just before the chain (0016) and one migrated to the chain (0017), the same
// statements alternated between them round by round, so both see the same machine at the same
// moment. Printed with the load average; run it alone (no build, test or helper beside it).
//
//   node e2e/bench/chain-cost.mjs [--seconds 5] [--rounds 4] [--connections 8]
//
// - audit writes per second: the single-row INSERT recordAudit sends, from `connections` clients
//   at once (the chain makes them queue for the head's row lock: this is its worst case);
// - a create's database statement (the register row, its audit entry and the claim's settlement
//   in one WITH, as lib/verifications/create/create-verification.server.ts sends it), one client,
//   p50 and p90 in ms.

import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { tsImport } from 'tsx/esm/api';
import { startThrowawayPostgres } from '../kit/postgres.mjs';
import { ROOT } from '../kit/server.mjs';
import { round, summarize } from './lib/stats.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '4' },
    connections: { type: 'string', default: '8' },
  },
});
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = Number(values.connections);
const CHAIN_MIGRATION = '0017_audit_chain';
/** @type {{ migrationsUpTo: (lastTag: string, from: string) => string }} */
const { migrationsUpTo } = await tsImport('../../test/support/migrations-up-to.ts', import.meta.url);

async function database(server, name, lastTag) {
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = server.url.replace(/\/postgres$/, `/${name}`);
  const pool = new pg.Pool({ connectionString: url, max: CONNECTIONS + 1 });
  await pool.query('create extension if not exists pg_trgm');
  const folder = migrationsUpTo(lastTag, path.join(ROOT, 'lib/db/migrations'));
  await migrate(drizzle({ client: pool }), {
    migrationsFolder: folder,
    migrationsSchema: 'drizzle',
    migrationsTable: 'dashboard_migrations',
  });
  rmSync(folder, { recursive: true, force: true });
  await pool.query('set jit = off');
  return pool;
}

const AUDIT_INSERT = `insert into audit_entries (actor_id, action, target_type, target_id, details) values ($1, 'verification.viewed', 'verification', $2, null)`;

/** Audit INSERTs per second from CONNECTIONS clients for SECONDS. */
async function auditWrites(pool) {
  const until = Date.now() + SECONDS * 1000;
  let count = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, client) => {
      while (Date.now() < until) {
        await pool.query(AUDIT_INSERT, [`staff-${client}`, randomUUID()]);
        count++;
      }
    }),
  );
  return count / SECONDS;
}

/** The create's one statement, as the dashboard sends it, timed one at a time for SECONDS. */
async function creates(pool) {
  const times = [];
  const until = Date.now() + SECONDS * 1000;
  while (Date.now() < until) {
    const key = randomUUID();
    const id = randomUUID();
    await pool.query('insert into create_submissions (key) values ($1)', [key]);
    const started = performance.now();
    await pool.query(
      `with register as (
         insert into verification_requests (verification_id, name, purpose, language, shareable_link, email_notification, sms_notification)
         values ($1, 'Bench Person', 'ensure_compliance', 'en', true, false, false) on conflict do nothing returning 1),
       audit as (
         insert into audit_entries (actor_id, action, target_type, target_id) values (null, 'verification.created', 'verification', $1) returning 1)
       update create_submissions set verification_id = $1 where key = $2`,
      [id, key],
    );
    times.push(performance.now() - started);
  }
  return summarize(times);
}

const server = await startThrowawayPostgres();
try {
  const before = await database(server, 'before_chain', '0016_contact_search');
  const after = await database(server, 'with_chain', CHAIN_MIGRATION);
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');
  const rows = { before: { writes: [], create: [] }, after: { writes: [], create: [] } };
  for (let roundIndex = 0; roundIndex < ROUNDS; roundIndex++) {
    // Alternate which goes first, so neither always follows the other's checkpoint or vacuum.
    const order = roundIndex % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
    for (const side of order) {
      const pool = side === 'before' ? before : after;
      rows[side].writes.push(await auditWrites(pool));
      rows[side].create.push(await creates(pool));
    }
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const summary = Object.fromEntries(
    Object.entries(rows).map(([side, { writes, create }]) => [
      side,
      {
        auditWritesPerSecond: round(median(writes), 0),
        createStatementP50Ms: round(median(create.map((c) => c.p50)), 3),
        createStatementP90Ms: round(median(create.map((c) => c.p90)), 3),
      },
    ]),
  );
  const ratio = (a, b) => round(a / b, 2);
  console.log(
    `chain cost, ${ROUNDS} rounds of ${SECONDS} s each side, ${CONNECTIONS} writers; load average before: ${load}; after: ${loadavg()
      .map((v) => v.toFixed(2))
      .join(' / ')}`,
  );
  console.log(`| | before the chain (0016) | with the chain (0017) | ratio |`);
  console.log(`| --- | --- | --- | --- |`);
  console.log(
    `| audit writes/s (${CONNECTIONS} clients) | ${summary.before.auditWritesPerSecond} | ${summary.after.auditWritesPerSecond} | ${ratio(summary.after.auditWritesPerSecond, summary.before.auditWritesPerSecond)}× |`,
  );
  console.log(
    `| create statement p50 (ms) | ${summary.before.createStatementP50Ms} | ${summary.after.createStatementP50Ms} | ${ratio(summary.after.createStatementP50Ms, summary.before.createStatementP50Ms)}× |`,
  );
  console.log(
    `| create statement p90 (ms) | ${summary.before.createStatementP90Ms} | ${summary.after.createStatementP90Ms} | ${ratio(summary.after.createStatementP90Ms, summary.before.createStatementP90Ms)}× |`,
  );
  await before.end();
  await after.end();
} finally {
  await server.stop();
}
