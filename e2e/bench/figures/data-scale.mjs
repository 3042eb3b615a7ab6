// The data-scale phase (`--scale N`): the same pages, exports and purge at 1,000 register rows and
// at N, on the tables real use would have grown (lib/scale-fill.mjs), so that what gets slower
// with the size of the data shows. It runs after every other figure of its store, as it changes
// the data they read. On PostgreSQL the bench fills the tables beside the running server; on
// PGlite, which serves one process at a time, it stops the server for each fill and starts it
// again, and the phase runs at min(N, 100,000) with its figures reported, not budgeted.

import {
  BENCH_STAFF_IDS,
  COUNT_SQL,
  FILL_CHUNK,
  fillChunkSql,
  PROBE_PARAMS_SQL,
  RETENTION_RUN_SQL,
  SETTLE_STATEMENTS,
  scheduleRetentionSql,
  staffSql,
  timelineSql,
} from '../lib/scale-fill.mjs';
import { runOnDataDir, runOnServer } from '../lib/scale-sql.mjs';
import { round } from '../lib/stats.mjs';
import { loadAverage } from '../notes.mjs';
import { measureExport, measurePages, measurePurgeBlocking, SCALE_EXPORTS, SCALE_PAGES } from './data-scale-probes.mjs';

export const DEFAULT_SCALE = 20_000;
export const PGLITE_SCALE_MAX = 100_000;
const SMALL = 1_000;
const TIMELINE_ENTRIES = 5_000;

/**
 * `--scale N` / `--scale=N`: the large size (default DEFAULT_SCALE); `--scale 0` leaves the phase
 * out. Throws on anything but a whole number, 0 or above SMALL.
 */
export function scaleFromArgs(argv) {
  const at = argv.findIndex((arg) => arg === '--scale' || arg.startsWith('--scale='));
  if (at === -1) return DEFAULT_SCALE;
  const raw = argv[at].includes('=') ? argv[at].slice('--scale='.length) : argv[at + 1];
  const value = Number(String(raw).replaceAll('_', ''));
  if (Number.isInteger(value) && (value === 0 || value > SMALL)) return value;
  throw new Error(`--scale must be 0 (no data-scale phase) or a whole number of rows above ${SMALL}, not ${JSON.stringify(raw ?? null)}`);
}

/**
 * The phase's default time per store, in seconds: a fixed part for the 1k-row size and the purge,
 * and a part per row for filling, reading and exporting the large size.
 */
export function scaleDeadlineS(scale) {
  return Math.ceil(300 + scale * 0.002);
}

/**
 * Measures the phase on one store. `serving`: { server, pid } of the running server; `relaunch()`
 * starts it again (same data, same settings) and answers the same shape.
 */
export async function measureDataScale({
  store,
  scale,
  base,
  cookieHeader,
  subjectId,
  prepared,
  serving,
  relaunch,
  register,
  deadline,
  log,
}) {
  const onServer = store === 'postgres';
  const target = onServer ? scale : Math.min(scale, PGLITE_SCALE_MAX);
  let current = serving;
  let relaunchMs = 0;
  /** Runs SQL on the store; on PGlite with the server stopped, and started again after. */
  const sql = async (statements, { restart = true } = {}) => {
    if (onServer) return runOnServer(prepared.env.DATABASE_URL, statements);
    await current.server.stop();
    const results = await runOnDataDir(prepared.dataDir, statements, { register });
    if (restart) {
      const started = performance.now();
      current = await relaunch();
      relaunchMs = performance.now() - started;
    }
    return results;
  };
  const tag = `bench-${Date.now().toString(36)}-`;
  let made = 0;
  const fillStatements = (to) => {
    const statements = [];
    for (let from = made; from < to; from += FILL_CHUNK)
      statements.push({ sql: fillChunkSql({ tag, from, to: Math.min(to, from + FILL_CHUNK) }) });
    made = Math.max(made, to);
    return statements;
  };
  // The retention job must not run before the purge is measured: an hour from the server's start
  // is its next run; on PGlite, whose restarts re-read the lease row, it is put off explicitly.
  const holdRetention = onServer ? [] : [{ sql: scheduleRetentionSql(24 * 3600) }];
  const paramsOf = ([row], counts) => ({
    registerCursor: row.register_cursor,
    auditCursor: row.audit_cursor,
    middleId: row.middle_id,
    dueForPurge: row.due_for_purge,
    actorId: BENCH_STAFF_IDS[1],
    timelineId: subjectId,
    requests: counts.requests,
    auditEntries: counts.audit,
  });

  const sizes = [];
  const measureSize = async (params, fill) => {
    deadline.check();
    const size = { rows: params.requests, auditEntries: params.auditEntries, fill, loadAverage: loadAverage() };
    log(`data scale: ${params.requests} requests, ${params.auditEntries} audit entries: pages …`);
    size.pages = await measurePages({ base, cookieHeader, params, count: 30, deadline });
    size.exports = {};
    for (const item of SCALE_EXPORTS) {
      deadline.check();
      log(`data scale: ${item.label} …`);
      size.exports[item.name] = await measureExport({
        base,
        cookieHeader,
        path: item.path,
        pid: current.pid,
        timeoutMs: Math.max(60_000, deadline.remaining()),
      });
    }
    size.params = params;
    sizes.push(size);
  };

  // 1k generated rows beside what the other figures left, and the long timeline. Generated ones
  // every time: the others' names hold no "dubo", and a search page at 1k showing a few hits
  // would be compared with a full page of them at N, a difference in what is drawn, not in size.
  const small = SMALL;
  const smallChunks = fillStatements(small);
  const first = await sql([
    { sql: staffSql() },
    ...smallChunks,
    { sql: timelineSql(subjectId, TIMELINE_ENTRIES) },
    ...holdRetention,
    ...SETTLE_STATEMENTS,
    { sql: COUNT_SQL, rows: true },
    { sql: PROBE_PARAMS_SQL, rows: true },
  ]);
  await measureSize(
    paramsOf(first.at(-1).rows, first.at(-2).rows[0]),
    fillFigure(first.slice(1, 1 + smallChunks.length), [first[0], ...first.slice(1 + smallChunks.length, -2)], small),
  );

  // N rows: the same tables, grown.
  const rest = target - sizes[0].rows;
  log(`data scale: filling ${rest} more requests (${Math.ceil(rest / FILL_CHUNK)} statements of up to ${FILL_CHUNK}) …`);
  const grownChunks = fillStatements(made + rest);
  const grown = await sql([
    ...grownChunks,
    ...holdRetention,
    ...SETTLE_STATEMENTS,
    { sql: COUNT_SQL, rows: true },
    { sql: PROBE_PARAMS_SQL, rows: true },
  ]);
  const fill = fillFigure(grown.slice(0, grownChunks.length), grown.slice(grownChunks.length, -2), rest);
  log(
    `data scale: filled in ${fill.seconds} s (${fill.secondsPer100k} s per 100k requests with their audit entries; settling ${fill.settleSeconds} s)`,
  );
  await measureSize(paramsOf(grown.at(-1).rows, grown.at(-2).rows[0]), fill);

  // One retention run, with a large share of the register due.
  deadline.check();
  const dueForPurge = sizes[1].params.dueForPurge;
  log(`data scale: retention purge of ${dueForPurge} requests …`);
  const readWindow = async () => {
    const [row] = (await sql([{ sql: RETENTION_RUN_SQL, rows: true }], { restart: false }))[0].rows;
    return row && { startedMs: Number(row.started_ms), finishedMs: row.running ? null : Number(row.finished_ms) };
  };
  const timeoutMs = Math.max(0, Math.min(deadline.remaining() - 30_000, 120_000 + dueForPurge * 2));
  let purge;
  if (onServer) {
    let triggeredAt = Number.POSITIVE_INFINITY;
    let lastLook = 0;
    purge = await measurePurgeBlocking({
      base,
      cookieHeader,
      // The job's runner looks at its row at least every 30 s; the bench makes it due now.
      trigger: async () => {
        triggeredAt = Date.now();
        await sql([{ sql: scheduleRetentionSql(0) }]);
      },
      // Looked at twice a second, on a connection of its own each time: often enough to end
      // soon after the run, rarely enough not to load the server being measured.
      ended: async () => {
        if (Date.now() - lastLook < 500) return false;
        lastLook = Date.now();
        const run = await readWindow();
        return Boolean(run?.finishedMs && run.startedMs >= triggeredAt - 1_000);
      },
      window: readWindow,
      canContinue: true,
      timeoutMs,
      deadline,
    });
  } else {
    // The server is stopped to reach the data: the job is made due once the restarted server has
    // been warmed up and its p50 taken (the last restart's time, plus a margin).
    const leadS = Math.ceil(relaunchMs / 1000) + 20;
    await sql([{ sql: scheduleRetentionSql(leadS) }]);
    const mark = current.server.output().length;
    const startedAt = Date.now();
    purge = await measurePurgeBlocking({
      base,
      cookieHeader,
      trigger: async () => {},
      // The purge's log line (lib/jobs/retention-jobs.ts) says the register's rows are gone.
      ended: async () => Date.now() > startedAt + leadS * 1000 && /register entries/.test(current.server.output().slice(mark)),
      window: async () => {
        await current.server.stop();
        return readWindow();
      },
      timeoutMs: timeoutMs + leadS * 1000,
      deadline,
    });
  }
  purge.requestsDue = dueForPurge;
  return { store, budgeted: onServer, scale: target, requested: scale, sizes, purge };
}

/** The fill's time: its chunks' statements, and the rest (staff, timeline, vacuum, analyze) as settling. */
function fillFigure(chunks, others, rows) {
  const fillMs = chunks.reduce((sum, r) => sum + r.ms, 0);
  const otherMs = others.reduce((sum, r) => sum + r.ms, 0);
  return {
    rows,
    seconds: round(fillMs / 1000, 1),
    secondsPer100k: rows > 0 ? round(fillMs / 1000 / (rows / 100_000), 1) : null,
    settleSeconds: round(otherMs / 1000, 1),
  };
}

const cell = (x) => (x ? `${x.p50} / ${x.p95} ms` : '—');
const exportCell = (x) => (x ? `${x.rowsPerSecond} rows/s (${x.rows} rows in ${x.seconds} s), RSS +${x.rssGrowthMb} MB` : '—');

/**
 * The phase's table for the report, at 1k rows and at N: each page's p50 / p95, the exports, the
 * purge; its title gives each size's load average and the fill's time.
 */
export function dataScaleTable(d) {
  const [small, large] = d.sizes;
  const sizeNote = (s) => `${s.rows} requests / ${s.auditEntries} audit entries (load average ${s.loadAverage})`;
  const fill = large?.fill;
  const title =
    `Data scale${d.budgeted ? '' : ' (reported, not budgeted)'}: ${small ? sizeNote(small) : '—'} → ${large ? sizeNote(large) : '—'}` +
    (fill
      ? `; filled ${fill.rows} requests in ${fill.seconds} s (${fill.secondsPer100k} s per 100k, settling ${fill.settleSeconds} s)`
      : '');
  const rows = [
    ...SCALE_PAGES.map((page) => [page.label, cell(small?.pages[page.name]), cell(large?.pages[page.name])]),
    ...SCALE_EXPORTS.map((item) => [item.label, exportCell(small?.exports[item.name]), exportCell(large?.exports[item.name])]),
  ];
  if (d.purge) {
    const p = d.purge;
    rows.push([
      `register page during the retention purge (${p.requestsDue} requests due)`,
      '',
      `during the ${p.purgeSeconds} s purge, ${p.pagesDuring} GETs: p50 ${p.p50DuringMs ?? '—'}, p95 ${p.p95DuringMs ?? '—'}, worst ${p.worstMs ?? '—'} ms; ` +
        `without it, ${p.pagesControl ?? 0} GETs: p50 ${p.p50ControlMs ?? '—'}, p95 ${p.p95ControlMs ?? '—'}, worst ${p.worstControlMs ?? '—'} ms` +
        (p.startedBeforeWatch ? ' (it began before the GETs every 50 ms did)' : ''),
    ]);
  }
  return { title, header: ['Probe', 'at 1k rows (p50 / p95)', `at ${large?.rows ?? d.scale} rows (p50 / p95)`], rows };
}
