#!/usr/bin/env node
// `npm run bench`: builds the app (production), starts `next start` with the embedded sandbox on
// loopback, measures the budgeted figures, prints a table (figure, budget, PASS/FAIL), writes
// it as Markdown and JSON to e2e/bench/results/, and exits 1 if a budget fails.
//
// Absolute times drift on a shared machine, so every budget compares against a baseline measured
// in this same run, interleaved request by request. The whole run, build included, is bounded by
// one deadline (BENCH_DEADLINE_S, default 280 s; cleanup after it takes a few seconds): phases
// get time boxes, and on the deadline, an error or Ctrl-C the bench stops everything it started
// (the server's process group, the build, the browsers) and exits 2 (130 on SIGINT). A figure
// that throws is reported as ERROR while the others still run (exit 2).
//
// Builds first when .next is missing or older than any source file (lib/build.mjs).
// Options: --build (always build), --no-build (never), BENCH_PORT (default 3550; the Lighthouse
// Chromium listens on BENCH_PORT + 1; both must stay in 3500-3599 on the shared machine).
// For investigating one figure: BENCH_ONLY=readOverhead,createOverhead (names of the figures in
// results/latest.json; the others are reported as not measured) and BENCH_CPU_PROF=<dir> (a CPU
// profile of the server, written when the bench stops it). The budgets are in budgets.mjs; this
// file runs the phases, cleans up and writes the report. --help prints these options.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCompanyAsync, createStaffUserAsync } from '../kit/cli.mjs';
import { findServingProcess, rssMb } from '../kit/processes.mjs';
import { newWebhookSecret } from '../kit/webhook-secret.mjs';
import { budgetRows } from './budgets.mjs';
import { measureClickToDetail } from './figures/click-to-detail.mjs';
import { measureClickToResult } from './figures/click-to-result.mjs';
import { measureFirstLoadJs } from './figures/js-size.mjs';
import { measureLighthouse } from './figures/lighthouse.mjs';
import { measureLiveLatency } from './figures/live-latency.mjs';
import { actionReplayer, measureCreateOverhead, measureReadOverhead } from './figures/overhead.mjs';
import { measureThroughput } from './figures/throughput.mjs';
import { measureDetailTtfb, STATIC_BASELINE_PATH } from './figures/ttfb.mjs';
import { captureCreateAction, launchBrowser, signIn } from './lib/browser.mjs';
import { buildNeeded } from './lib/build.mjs';
import { keepAliveAgent, timedRequest } from './lib/http.mjs';
import { textTable, writeResults } from './lib/report.mjs';
import { OPERATOR, startServer } from './lib/server.mjs';
import { round } from './lib/stats.mjs';
import { loadAverage, reportNotes } from './notes.mjs';

if (process.argv.includes('--help')) {
  console.log(`usage: node e2e/bench/run.mjs [--build | --no-build]

  --build     always build first
  --no-build  never build; measure what is in .next
  (neither)   build when .next is missing or older than any source file

Environment: BENCH_PORT (default 3550; Lighthouse's Chromium uses BENCH_PORT + 1), BENCH_DEADLINE_S
(default 280), BENCH_ONLY (comma-separated figure names of results/latest.json), BENCH_CPU_PROF
(a directory for the server's CPU profile), CHROMIUM_PATH, CHROME_PATH.
Writes e2e/bench/results/latest.{md,json}; exits 0 when every budget passes, 1 when one fails, 2 on
an error or the deadline.`);
  process.exit(0);
}

const startedAt = performance.now();
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 280) * 1000;
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
async function cleanUp() {
  for (const entry of [...cleanups].reverse()) {
    cleanups.delete(entry);
    // Bounded: a cleanup that hangs must not keep the bench past its deadline for long.
    await Promise.race([
      Promise.resolve()
        .then(entry.undo)
        .catch(() => {}),
      new Promise((r) => setTimeout(r, 6_000)),
    ]);
  }
}

const deadline = {
  remaining: () => DEADLINE_MS - (performance.now() - startedAt),
  /** Throws unless at least `marginMs` is left, so a phase is not started that cannot finish. */
  check(marginMs = 0) {
    if (aborting) throw new AbortedError('stopping');
    if (this.remaining() < marginMs)
      throw new DeadlineError(`global deadline of ${DEADLINE_MS / 1000} s reached (${elapsedS()} s elapsed)`);
  },
};

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
// The hard stop: whatever is awaited (a hung request, a browser), the run ends here.
const hardStop = setTimeout(() => abort(`global deadline of ${DEADLINE_MS / 1000} s reached; stopped everything`, 2), DEADLINE_MS);
// `on`, not `once`: a second Ctrl-C while cleaning up must not kill the bench half-way (abort
// runs once), and no other handler may see itself as the last SIGINT listener and exit early.
process.on('SIGINT', () => abort('interrupted (SIGINT)', 130));
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

// Time boxes (lib/time-box.mjs). Each measuring phase gets a share of what is left before the
// deadline (minus a reserve for reporting and cleanup, and the fixed 5 s + 2 × 10 s of autocannon, each after 2 s of warm-up), in
// proportion to its weight ≈ its full duration in seconds on a busy 2-core machine (on an idle
// one every phase ends well inside its share); a phase that finishes early leaves
// its time to the later ones. Past its share a phase still takes its minimum of samples while
// the deadline allows. On a loaded machine figures are then taken on fewer samples (reported as
// such) instead of the run being killed with none.
const RESERVE_MS = 12_000;
const THROUGHPUT_MS = 37_000;
const PHASES = {
  read: { weight: 30, min: 100 },
  create: { weight: 25, min: 40 },
  ttfb: { weight: 5, min: 20 },
  js: { weight: 9, min: 5 },
  click: { weight: 18, min: 5 },
  detail: { weight: 10, min: 5 },
  live: { weight: 8, min: 10 },
  lighthouse: { weight: 55, min: 4 },
};

function timeBox(phase) {
  const names = Object.keys(PHASES);
  const later = names.slice(names.indexOf(phase)).reduce((sum, name) => sum + PHASES[name].weight, 0);
  const hard = startedAt + DEADLINE_MS - RESERVE_MS - THROUGHPUT_MS;
  const share = (Math.max(0, hard - performance.now()) * PHASES[phase].weight) / later;
  return { soft: performance.now() + share, hard, min: PHASES[phase].min };
}

let buildNote = '';

/** The running server, so an error report can show what it printed. */
let serverForReport;

async function main() {
  const figures = {};
  const errors = {};

  // The data directory is prepared by the CLIs while the build runs (neither touches the other).
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'verification-desk-bench-'));
  register(() => rmSync(dataDir, { recursive: true, force: true }));
  const prepared = (async () => {
    const company = await createCompanyAsync('Bench company', { dataDir, register });
    await createStaffUserAsync({ ...OPERATOR, role: 'operator' }, { dataDir, register });
    return company.apiKey;
  })();
  prepared.catch(() => {}); // awaited below; this only keeps an early rejection from being "unhandled"
  const reason = FORCE_BUILD ? '--build' : SKIP_BUILD ? null : buildNeeded();
  if (SKIP_BUILD) buildNote = 'existing .next (--no-build)';
  else if (!reason) buildNote = 'existing .next, newer than every source file (use --build to force a build)';
  if (reason) {
    log(`next build (${reason}), while the CLIs prepare a fresh data directory …`);
    await build();
    buildNote = `built in this run (${reason}) in ${elapsedS()} s`;
    log('built');
  } else log(`not building: ${buildNote}`);
  const apiKey = await prepared;

  deadline.check(60_000);
  const webhookSecret = newWebhookSecret();
  log(`starting next start on ${BASE} (data: ${dataDir})`);
  const server = await startServer({ port: PORT, dataDir, apiKey, webhookSecret, register });
  serverForReport = server;
  const serving = findServingProcess(server.pid);
  log(`server ready; serving process ${serving.pid} (${serving.title})`);

  const browser = await launchBrowser();
  const unregisterBrowser = register(() => browser.close());
  const { cookies, cookieHeader } = await signIn(browser, BASE);
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
  log(`idle RSS ${figures.memory.idleMb} MB`);

  // One figure failing to measure (an exception) is reported, and the others still run.
  const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
  const phase = async (name, label, measure) => {
    if (only && !only.includes(name)) return;
    deadline.check();
    const started = performance.now();
    log(`${label} …`);
    try {
      figures[name] = await measure();
    } catch (error) {
      if (error instanceof DeadlineError || aborting) throw error;
      errors[name] = error?.message ?? String(error);
      log(`${name} failed: ${errors[name].split('\n')[0]}`);
    }
    log(`${name} done in ${round((performance.now() - started) / 1000, 1)} s`);
  };

  let createdIds = [];
  await phase('readOverhead', 'read overhead (500 + 500, interleaved)', () =>
    measureReadOverhead({ base: BASE, cookieHeader, apiKey, id: subjectId, box: timeBox('read'), deadline }),
  );
  await phase('createOverhead', 'create overhead (200 + 200, interleaved)', async () => {
    const { createdIds: ids, ...result } = await measureCreateOverhead({
      base: BASE,
      cookieHeader,
      apiKey,
      action,
      box: timeBox('create'),
      deadline,
    });
    createdIds = ids;
    return result;
  });
  await phase('detailTtfb', 'detail page TTFB vs static page', () =>
    measureDetailTtfb({ base: BASE, cookieHeader, id: subjectId, box: timeBox('ttfb'), deadline }),
  );
  await phase('firstLoadJs', 'first-load JS', () =>
    measureFirstLoadJs({ browser, base: BASE, cookies, detailId: subjectId, box: timeBox('js'), deadline }),
  );
  await phase('clickToResult', 'click to result (20)', () =>
    measureClickToResult({ browser, base: BASE, cookies, box: timeBox('click'), deadline }),
  );
  await phase('clickToDetail', 'click to detail page (20)', () =>
    measureClickToDetail({ browser, base: BASE, cookies, box: timeBox('detail'), deadline }),
  );
  await phase('liveLatency', 'live latency (50 webhooks)', () =>
    measureLiveLatency({ browser, base: BASE, cookies, webhookSecret, verificationId: subjectId, box: timeBox('live'), deadline }),
  );
  unregisterBrowser();
  await browser.close();

  await phase('lighthouse', 'Lighthouse (4 pages)', () =>
    measureLighthouse({ base: BASE, cookieHeader, detailId: subjectId, port: PORT + 1, register, box: timeBox('lighthouse'), deadline }),
  );
  // Fixed-length: run only if it can end before the deadline, else report it as not measured.
  if (deadline.remaining() < THROUGHPUT_MS + 5_000) log('no time left for the throughput figure');
  else
    await phase('throughput', 'sandbox throughput (autocannon: 5 s ceiling, 2 × 10 s, each after 2 s of warm-up)', async () => {
      // Reads need records: those the create figure made, else a few made now.
      const ids = createdIds.length > 0 ? createdIds : [subjectId];
      return measureThroughput({ base: BASE, apiKey, ids, deadline });
    });
  figures.memory.afterLoadMb = rssMb(serving.pid);
  log(`RSS after load ${figures.memory.afterLoadMb} MB`);

  const rows = budgetRows(figures, errors);
  const notes = reportNotes({ figures, errors, deadlineMs: DEADLINE_MS, loadAverageBefore });

  const elapsed = elapsedS();
  const meta = {
    finishedAt: new Date().toISOString(),
    elapsedS: elapsed,
    machine: `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${os.platform()}`,
    loadAverageBefore,
    loadAverageAfter: loadAverage(),
    build: buildNote,
  };
  writeResults(RESULTS_DIR, { rows, meta, notes, figures, errors });
  const passed = rows.filter((x) => x.result === 'PASS').length;
  console.log(`\n${textTable(rows)}\n`);
  console.log(
    `${passed}/${rows.length} budgets passed · ${elapsed} s elapsed · results: ${path.relative(process.cwd(), RESULTS_DIR)}/latest.{md,json}`,
  );
  if (Object.keys(errors).length > 0) return 2;
  return passed === rows.length ? 0 : 1;
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
