#!/usr/bin/env node
// `npm run bench`: builds the app (production) once, then for each store (`--store pglite|postgres|
// both`, default both: the embedded PGlite, and a throwaway PostgreSQL server through DATABASE_URL)
// starts `next start` with the embedded sandbox on loopback, measures the budgeted figures and
// prints a table (figure, budget, PASS/FAIL); writes the tables as Markdown and JSON to
// e2e/bench/results/, and exits 1 if a budget fails.
//
// Absolute times drift on a shared machine, so every budget compares against a baseline measured
// in this same run, interleaved request by request. Each segment is bounded: the build by
// BENCH_BUILD_DEADLINE_S (default 240 s), each store by BENCH_DEADLINE_S (default 480 s; cleanup
// after it takes a few seconds): phases get time boxes within their store's deadline, and on a
// deadline, an error or Ctrl-C the bench stops everything it started (the servers' process
// groups, PostgreSQL, the build, the browsers) and exits 2 (130 on SIGINT). A figure that throws
// is reported as ERROR while the others still run (exit 2).
//
// Builds first when .next is missing or older than any source file (lib/build.mjs).
// Options: --build (always build), --no-build (never), --store, BENCH_PORT (default 3550; the
// Lighthouse Chromium listens on BENCH_PORT + 1, a bare HTTP server of the create figure on + 2; all
// must stay in 3500-3599 on the shared machine).
// For investigating one figure: BENCH_ONLY=readOverhead,createOverhead (names of the figures in
// results/latest.json; the others are reported as not measured) and BENCH_CPU_PROF=<dir> (a CPU
// profile of each server, written when the bench stops it). The budgets are in budgets.mjs; this
// file runs the phases, cleans up and writes the report. --help prints these options.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findServingProcess, rssMb } from '../kit/processes.mjs';
import { newWebhookSecret } from '../kit/webhook-secret.mjs';
import { budgetRows } from './budgets.mjs';
import { measureClickToDetail } from './figures/click-to-detail.mjs';
import { measureClickToResult } from './figures/click-to-result.mjs';
import { dataScaleTable, measureDataScale, scaleDeadlineS, scaleFromArgs } from './figures/data-scale.mjs';
import { measureFirstLoadJs } from './figures/js-size.mjs';
import { fillRegister, LIGHTHOUSE_PAGES, measureLighthouse } from './figures/lighthouse.mjs';
import { measureLiveLatency } from './figures/live-latency.mjs';
import { actionReplayer, measureCreateOverhead, measureReadOverhead } from './figures/overhead.mjs';
import { measureThroughput } from './figures/throughput.mjs';
import { measureDetailTtfb, STATIC_BASELINE_PATH } from './figures/ttfb.mjs';
import { captureCreateAction, launchBrowser, signIn } from './lib/browser.mjs';
import { buildNeeded } from './lib/build.mjs';
import { keepAliveAgent, timedRequest } from './lib/http.mjs';
import { textGrid, textTable, writeResults } from './lib/report.mjs';
import { ADMIN, startServer } from './lib/server.mjs';
import { loadSettled } from './lib/settle.mjs';
import { round } from './lib/stats.mjs';
import { prepareStore, STORE_LABELS, storesFromArgs } from './lib/stores.mjs';
import { loadAverage, reportNotes } from './notes.mjs';

if (process.argv.includes('--help')) {
  console.log(`usage: node e2e/bench/run.mjs [--build | --no-build] [--store pglite|postgres|both] [--scale N]

  --build     always build first
  --no-build  never build; measure what is in .next
  (neither)   build when .next is missing or older than any source file
  --store     the store(s) to measure: the embedded PGlite, a throwaway PostgreSQL server
              (DATABASE_URL), or both, one after the other (default both)
  --scale     the data-scale phase's large size in register rows (default 20000; 0 leaves it
              out): pages, exports and a purge at 1k rows and at N (at most 100000 on PGlite)

Environment: BENCH_PORT (default 3550; Lighthouse's Chromium uses BENCH_PORT + 1, the create figure's bare
HTTP server + 2), BENCH_DEADLINE_S
(each store's time, default 480), BENCH_BUILD_DEADLINE_S (the build's, default 240), BENCH_ONLY
(comma-separated figure names of results/latest.json), BENCH_SCALE_DEADLINE_S (the data-scale
phase's time per store, by default sized to --scale), BENCH_CPU_PROF (a directory for the servers'
CPU profiles), CHROMIUM_PATH, CHROME_PATH.
Writes e2e/bench/results/latest.{md,json}; exits 0 when every budget passes, 1 when one fails, 2 on
an error or a deadline.`);
  process.exit(0);
}

let STORES;
let SCALE;
try {
  STORES = storesFromArgs(process.argv);
  SCALE = scaleFromArgs(process.argv);
} catch (error) {
  console.error(`bench: ${error.message}`);
  process.exit(2);
}

const startedAt = performance.now();
const STORE_DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 480) * 1000;
const SCALE_DEADLINE_MS = Number(process.env.BENCH_SCALE_DEADLINE_S ?? scaleDeadlineS(SCALE)) * 1000;
const BUILD_DEADLINE_MS = Number(process.env.BENCH_BUILD_DEADLINE_S ?? 240) * 1000;
const PORT = Number(process.env.BENCH_PORT ?? 3550);
const BASE = `http://localhost:${PORT}`;
const FORCE_BUILD = process.argv.includes('--build');
const SKIP_BUILD = process.argv.includes('--no-build');
const RESULTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
const loadAverageBefore = loadAverage();

const elapsedS = () => round((performance.now() - startedAt) / 1000, 1);
const log = (message) => process.stderr.write(`[bench ${String(elapsedS()).padStart(5)} s] ${message}\n`);

// ---- cleanup, deadline, signals -------------------------------------------------------------

class DeadlineError extends Error {}
class AbortedError extends Error {}

let aborting = false;
/** Stops of things that were registered while the bench was already stopping. */
const lateStops = [];

/** Undo actions of what is running, newest first; each entry removes itself once done. */
const cleanups = new Set();
/** Registers `undo`; returns the function that unregisters it (true if it still was registered). */
function register(undo) {
  // Something started after the bench began to stop (main was still running): stop it now.
  if (aborting) {
    lateStops.push(
      Promise.resolve()
        .then(undo)
        .catch(() => {}),
    );
    throw new AbortedError('stopping');
  }
  const entry = { undo };
  cleanups.add(entry);
  return () => cleanups.delete(entry);
}
// Bounded: a cleanup that hangs must not keep the bench past its deadline for long.
const boundedUndo = (undo) =>
  Promise.race([
    Promise.resolve()
      .then(undo)
      .catch(() => {}),
    new Promise((r) => setTimeout(r, 6_000)),
  ]);
async function cleanUp() {
  for (const entry of [...cleanups].reverse()) {
    cleanups.delete(entry);
    await boundedUndo(entry.undo);
  }
}
/**
 * What one store starts (its database, server, browser), undone when that store is done rather
 * than at the end, so the next store runs alone on the machine.
 */
function cleanupScope() {
  const entries = [];
  return {
    register(undo) {
      const unregister = register(undo);
      entries.push({ undo, unregister });
      return unregister;
    },
    async close() {
      for (const { undo, unregister } of entries.reverse()) if (unregister()) await boundedUndo(undo);
    },
  };
}

/** A segment's deadline (the build's, a store's), `ms` from now. */
function segmentDeadline(ms) {
  const startAt = performance.now();
  return {
    startAt,
    endAt: startAt + ms,
    remaining: () => startAt + ms - performance.now(),
    /** Throws unless at least `marginMs` is left, so a phase is not started that cannot finish. */
    check(marginMs = 0) {
      if (aborting) throw new AbortedError('stopping');
      if (this.remaining() < marginMs) throw new DeadlineError(`deadline of ${ms / 1000} s reached (${elapsedS()} s elapsed)`);
    },
  };
}

async function abort(reason, code) {
  if (aborting) return;
  aborting = true;
  console.error(`\nbench: ${reason}`);
  await cleanUp();
  // A launch already under way when the stop began registers (and is stopped) a moment later.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await Promise.race([Promise.allSettled(lateStops), new Promise((resolve) => setTimeout(resolve, 5_000))]);
  process.exit(code);
}
// The hard stop of the segment under way: whatever is awaited (a hung request, a browser), the
// run ends there. Re-armed for each segment (the build, each store).
let hardStop;
function armHardStop(ms, what) {
  clearTimeout(hardStop);
  hardStop = setTimeout(() => abort(`${what}: deadline of ${ms / 1000} s reached; stopped everything`, 2), ms);
}
process.on('SIGINT', () => abort('interrupted (SIGINT)', 130));
// `on`, not `once`: a second Ctrl-C while cleaning up must not kill the bench half-way (abort
// runs once), and no other handler may see itself as the last SIGINT listener and exit early.
process.on('SIGTERM', () => abort('terminated (SIGTERM)', 143));
process.on('SIGHUP', () => abort('hung up (SIGHUP)', 129));

// ---- phases ---------------------------------------------------------------------------------

function build() {
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

// Time boxes (lib/time-box.mjs). Each measuring phase gets a share of what is left before its
// store's deadline (minus a reserve for reporting and cleanup, and the fixed 5 s + 2 × 10 s of autocannon, each after 2 s of warm-up), in
// proportion to its weight ≈ its full duration in seconds on a busy 2-core machine (on an idle
// one every phase ends well inside its share); a phase that finishes early leaves
// its time to the later ones. Past its share a phase still takes its minimum of samples while
// the deadline allows. On a loaded machine figures are then taken on fewer samples (reported as
// such) instead of the run being killed with none.
const RESERVE_MS = 12_000;
const THROUGHPUT_MS = 37_000;
const PHASES = {
  read: { weight: 30, min: 100 },
  create: { weight: 35, min: 40 },
  ttfb: { weight: 5, min: 20 },
  js: { weight: 9, min: 5 },
  click: { weight: 18, min: 5 },
  detail: { weight: 10, min: 5 },
  live: { weight: 8, min: 10 },
  lighthouse: { weight: 150, min: 14 },
};

function timeBox(phase, deadline) {
  const names = Object.keys(PHASES);
  const later = names.slice(names.indexOf(phase)).reduce((sum, name) => sum + PHASES[name].weight, 0);
  // Lighthouse comes after the fixed-length throughput figure; every other phase comes before it.
  const hard = deadline.endAt - RESERVE_MS - (phase === 'lighthouse' ? 0 : THROUGHPUT_MS);
  const share = (Math.max(0, hard - performance.now()) * PHASES[phase].weight) / later;
  return { soft: performance.now() + share, hard, min: PHASES[phase].min };
}

let buildNote = '';

/** The running server, so an error report can show what it printed. */
let serverForReport;

/** Measures every figure on one prepared store; returns its report (rows, notes, figures, errors). */
async function measureStore(prepared, deadline, scope) {
  const figures = {};
  const errors = {};
  const { store, dataDir, env: storeEnv, apiKey } = prepared;

  deadline.check(60_000);
  const webhookSecret = newWebhookSecret();
  log(`${store}: starting next start on ${BASE} (data: ${dataDir})`);
  const server = await startServer({ port: PORT, dataDir, storeEnv, apiKey, webhookSecret, register: scope.register });
  serverForReport = server;
  const serving = findServingProcess(server.pid);
  log(`${store}: server ready; serving process ${serving.pid} (${serving.title})`);

  const browser = await launchBrowser();
  const unregisterBrowser = scope.register(() => browser.close());
  const { cookies, cookieHeader } = await signIn(browser, BASE);
  const { cookieHeader: adminCookieHeader } = await signIn(browser, BASE, ADMIN);
  const action = await captureCreateAction(browser, BASE, cookies);

  // The record every per-record figure uses, created through the dashboard so it is in the register.
  const subjectId = (await actionReplayer({ base: BASE, cookieHeader, action, agent: keepAliveAgent() })()).verificationId;

  // Warm-up: every route a few times, so no figure pays for a route module's first load or the
  // database's first queries.
  for (let i = 0; i < 3; i++) {
    for (const p of ['/', '/verifications/new', `/verifications/${subjectId}`, `/api/verifications/${subjectId}`, STATIC_BASELINE_PATH]) {
      await timedRequest(`${BASE}${p}`, { headers: { cookie: cookieHeader } });
    }
    await timedRequest(`${BASE}/sign-in`);
    await timedRequest(`${BASE}/v1/verifications/${subjectId}`, { headers: { authorization: `Bearer ${apiKey}` } });
  }
  figures.memory = { idleMb: rssMb(serving.pid), pid: serving.pid, process: serving.title };
  log(`${store}: idle RSS ${figures.memory.idleMb} MB`);

  // One figure failing to measure (an exception) is reported, and the others still run.
  const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
  const phase = async (name, label, measure, within = deadline) => {
    if (only && !only.includes(name)) return;
    within.check();
    const started = performance.now();
    log(`${store}: ${label} …`);
    try {
      figures[name] = await measure();
    } catch (error) {
      if (error instanceof DeadlineError || aborting) throw error;
      errors[name] = error?.message ?? String(error);
      // Whole: a runner's error is its first line, and what it printed (its stderr) follows.
      log(`${store}: ${name} failed: ${errors[name]}`);
    }
    log(`${store}: ${name} done in ${round((performance.now() - started) / 1000, 1)} s`);
  };

  let createdIds = [];
  await phase('readOverhead', 'read overhead (500 + 500, interleaved)', () =>
    measureReadOverhead({ base: BASE, cookieHeader, apiKey, id: subjectId, box: timeBox('read', deadline), deadline }),
  );
  await phase(
    'createOverhead',
    'create overhead (4 × 200, interleaved: create action, direct POST, no-op action, constant route)',
    async () => {
      const { createdIds: ids, ...result } = await measureCreateOverhead({
        base: BASE,
        cookieHeader,
        apiKey,
        action,
        barePort: PORT + 2,
        box: timeBox('create', deadline),
        deadline,
      });
      createdIds = ids;
      return result;
    },
  );
  await phase('detailTtfb', 'detail page TTFB vs static page', () =>
    measureDetailTtfb({ base: BASE, cookieHeader, id: subjectId, box: timeBox('ttfb', deadline), deadline }),
  );
  await phase('firstLoadJs', 'first-load JS', () =>
    measureFirstLoadJs({ browser, base: BASE, cookies, detailId: subjectId, box: timeBox('js', deadline), deadline }),
  );
  await phase('clickToResult', 'click to result (20)', () =>
    measureClickToResult({ browser, base: BASE, cookies, box: timeBox('click', deadline), deadline }),
  );
  await phase('clickToDetail', 'click to detail page (20)', () =>
    measureClickToDetail({ browser, base: BASE, cookies, box: timeBox('detail', deadline), deadline }),
  );
  await phase('liveLatency', 'live latency (50 webhooks)', () =>
    measureLiveLatency({
      browser,
      base: BASE,
      cookies,
      webhookSecret,
      verificationId: subjectId,
      box: timeBox('live', deadline),
      deadline,
    }),
  );
  unregisterBrowser();
  await browser.close();

  // Fixed-length: run only if it can end before the deadline, else report it as not measured.
  if (!only || only.includes('throughput')) {
    if (deadline.remaining() < THROUGHPUT_MS + 5_000) log(`${store}: no time left for the throughput figure`);
    else
      await phase('throughput', 'sandbox throughput (autocannon: 5 s ceiling, 2 × 10 s, each after 2 s of warm-up)', async () => {
        // Reads need records: those the create figure made, else a few made now.
        const ids = createdIds.length > 0 ? createdIds : [subjectId];
        return measureThroughput({ base: BASE, apiKey, ids, deadline });
      });
  }
  figures.memory.afterLoadMb = rssMb(serving.pid);
  log(`${store}: RSS after load ${figures.memory.afterLoadMb} MB`);

  // Lighthouse last, in a phase of its own once the load phases' work has died down, so that it
  // scores the pages and not what the bench itself left running on the cores.
  if (!only || only.includes('lighthouse')) {
    // A full first page of the register, when the create figures did not run (BENCH_ONLY).
    await fillRegister({
      create: actionReplayer({ base: BASE, cookieHeader, action, agent: keepAliveAgent() }),
      made: 1 + createdIds.length,
    });
    // Until the 1-minute load is under 1 (lib/settle.mjs), at most two minutes, and never into
    // the time Lighthouse needs; the load it then found goes into the notes.
    const maxMs = Math.min(120_000, Math.max(0, deadline.remaining() - RESERVE_MS - 120_000));
    figures.lighthouseSettle = await loadSettled({ maxMs });
    log(`${store}: load average ${figures.lighthouseSettle.loadAverage} before Lighthouse`);
    await phase('lighthouse', `Lighthouse (${LIGHTHOUSE_PAGES.length} audits: every page, desktop and mobile)`, async () => {
      return measureLighthouse({
        base: BASE,
        cookieHeader: adminCookieHeader,
        detailId: subjectId,
        port: PORT + 1,
        register: scope.register,
        box: timeBox('lighthouse', deadline),
        deadline,
      });
    });
  }

  // Last, as it grows the tables the other figures read; with a deadline of its own, sized to it.
  if (SCALE > 0) {
    armHardStop(SCALE_DEADLINE_MS + 60_000, `${store} data scale`);
    const scaleDeadline = segmentDeadline(SCALE_DEADLINE_MS);
    const relaunch = async () => {
      const next = await startServer({ port: PORT, dataDir, storeEnv, apiKey, webhookSecret, register: scope.register });
      serverForReport = next;
      return { server: next, pid: findServingProcess(next.pid).pid };
    };
    await phase(
      'dataScale',
      `data scale (1k rows, then ${SCALE})`,
      () =>
        measureDataScale({
          store,
          scale: SCALE,
          base: BASE,
          cookieHeader: adminCookieHeader,
          subjectId,
          prepared,
          serving: { server, pid: serving.pid },
          relaunch,
          register: scope.register,
          deadline: scaleDeadline,
          log: (message) => log(`${store}: ${message}`),
        }),
      scaleDeadline,
    );
  }

  const rows = budgetRows(figures, errors, undefined, { store, scale: SCALE });
  const tables = figures.dataScale ? [dataScaleTable(figures.dataScale)] : [];
  const notes = reportNotes({ store: prepared, figures, errors, deadlineMs: STORE_DEADLINE_MS, loadAverageBefore });
  return { store, label: STORE_LABELS[store], rows, tables, notes, figures, errors };
}

async function main() {
  // Every store's database is prepared by the CLIs while the build runs (neither touches the other).
  const scopes = Object.fromEntries(STORES.map((store) => [store, cleanupScope()]));
  const preparing = Object.fromEntries(STORES.map((store) => [store, prepareStore(store, { register: scopes[store].register })]));
  // Awaited below; this only keeps an early rejection from being "unhandled".
  for (const promise of Object.values(preparing)) promise.catch(() => {});

  armHardStop(BUILD_DEADLINE_MS, 'build');
  const reason = FORCE_BUILD ? '--build' : SKIP_BUILD ? null : buildNeeded();
  if (SKIP_BUILD) buildNote = 'existing .next (--no-build)';
  else if (!reason) buildNote = 'existing .next, newer than every source file (use --build to force a build)';
  if (reason) {
    log(`next build (${reason}), while the CLIs prepare a fresh database for ${STORES.join(' and ')} …`);
    await build();
    buildNote = `built in this run (${reason}) in ${elapsedS()} s`;
    log('built');
  } else log(`not building: ${buildNote}`);

  const reports = [];
  for (const store of STORES) {
    // The store's time starts once its database is ready (prepared while the build ran, or
    // still being prepared); the hard stop bounds that wait too.
    armHardStop(STORE_DEADLINE_MS + 60_000, store);
    const prepared = await preparing[store];
    const deadline = segmentDeadline(STORE_DEADLINE_MS);
    reports.push(await measureStore(prepared, deadline, scopes[store]));
    // The next store runs alone: this one's server, browser and database are stopped first.
    await scopes[store].close();
    serverForReport = undefined;
  }
  clearTimeout(hardStop);

  const elapsed = elapsedS();
  const meta = {
    finishedAt: new Date().toISOString(),
    elapsedS: elapsed,
    machine: `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${os.platform()}`,
    loadAverageBefore,
    loadAverageAfter: loadAverage(),
    build: buildNote,
  };
  writeResults(RESULTS_DIR, { meta, stores: reports });
  let failed = false;
  let erred = false;
  for (const report of reports) {
    const passed = report.rows.filter((x) => x.result === 'PASS').length;
    console.log(`\n${report.label}: ${passed}/${report.rows.length} budgets passed\n\n${textTable(report.rows)}`);
    for (const table of report.tables) console.log(`\n${table.title}\n\n${textGrid(table.header, table.rows)}`);
    failed ||= passed < report.rows.length;
    erred ||= Object.keys(report.errors).length > 0;
  }
  console.log(`\n${elapsed} s elapsed · results: ${path.relative(process.cwd(), RESULTS_DIR)}/latest.{md,json}`);
  if (erred) return 2;
  return failed ? 1 : 0;
}

let exitCode;
try {
  exitCode = await main();
} catch (error) {
  if (!aborting) {
    console.error(`\nbench: ${error instanceof DeadlineError ? error.message : (error?.stack ?? error)}`);
    if (serverForReport) console.error(`\n--- last server output ---\n${serverForReport.output().slice(-3000)}`);
  }
  exitCode = 2;
}
clearTimeout(hardStop);
if (!aborting) {
  await cleanUp();
  process.exit(exitCode);
}
