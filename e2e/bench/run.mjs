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
// profile of each server, written when the bench stops it). The budgets are in budgets.mjs, one
// store's phases in store-phases.mjs, the cleanup and deadlines in lib/run-control.mjs; this file
// builds, runs each store in turn and writes the report. --help prints these options.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scaleDeadlineS, scaleFromArgs } from './figures/data-scale.mjs';
import { build, buildNeeded } from './lib/build.mjs';
import { printReports, writeResults } from './lib/report.mjs';
import {
  armHardStop,
  cleanUp,
  cleanupScope,
  DeadlineError,
  disarmHardStop,
  elapsedS,
  isAborting,
  log,
  register,
  segmentDeadline,
} from './lib/run-control.mjs';
import { prepareStore, storesFromArgs } from './lib/stores.mjs';
import { USAGE } from './lib/usage.mjs';
import { loadAverage } from './notes.mjs';
import { measureStore } from './store-phases.mjs';

if (process.argv.includes('--help')) {
  console.log(USAGE);
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

const STORE_DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 480) * 1000;
const SCALE_DEADLINE_MS = Number(process.env.BENCH_SCALE_DEADLINE_S ?? scaleDeadlineS(SCALE)) * 1000;
const BUILD_DEADLINE_MS = Number(process.env.BENCH_BUILD_DEADLINE_S ?? 240) * 1000;
const PORT = Number(process.env.BENCH_PORT ?? 3550);
const FORCE_BUILD = process.argv.includes('--build');
const SKIP_BUILD = process.argv.includes('--no-build');
const RESULTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'results');
const loadAverageBefore = loadAverage();

let buildNote = '';

/** The running server, so an error report can show what it printed. */
let serverForReport;

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
    await build(register);
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
    reports.push(
      await measureStore(prepared, deadline, scopes[store], {
        port: PORT,
        scale: SCALE,
        storeDeadlineMs: STORE_DEADLINE_MS,
        scaleDeadlineMs: SCALE_DEADLINE_MS,
        loadAverageBefore,
        onServer: (server) => (serverForReport = server),
      }),
    );
    // The next store runs alone: this one's server, browser and database are stopped first.
    await scopes[store].close();
    serverForReport = undefined;
  }
  disarmHardStop();

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
  const { failed, erred } = printReports(reports);
  console.log(`\n${elapsed} s elapsed · results: ${path.relative(process.cwd(), RESULTS_DIR)}/latest.{md,json}`);
  if (erred) return 2;
  return failed ? 1 : 0;
}

let exitCode;
try {
  exitCode = await main();
} catch (error) {
  if (!isAborting()) {
    console.error(`\nbench: ${error instanceof DeadlineError ? error.message : (error?.stack ?? error)}`);
    if (serverForReport) console.error(`\n--- last server output ---\n${serverForReport.output().slice(-3000)}`);
  }
  exitCode = 2;
}
disarmHardStop();
if (!isAborting()) {
  await cleanUp();
  process.exit(exitCode);
}
