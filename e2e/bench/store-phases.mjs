// The phases of one store: starts its server, signs in, warms up, then measures every figure in
// turn (each in its time box, one failing without stopping the others), Lighthouse in a phase of
// its own once the load has settled, and last the data-scale phase, which grows the tables.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findServingProcess, rssMb } from '../kit/processes.mjs';
import { newWebhookSecret } from '../kit/webhook-secret.mjs';
import { budgetRows } from './budgets.mjs';
import { measureClickToDetail } from './figures/click-to-detail.mjs';
import { measureClickToResult } from './figures/click-to-result.mjs';
import { dataScaleTable, measureDataScale } from './figures/data-scale.mjs';
import { measureFirstLoadJs } from './figures/js-size.mjs';
import { fillRegister, LIGHTHOUSE_PAGES, measureLighthouse } from './figures/lighthouse.mjs';
import { LIVE_SAMPLES, measureLiveLatency } from './figures/live-latency.mjs';
import { actionReplayer, measureCreateOverhead, measureReadOverhead } from './figures/overhead.mjs';
import { measureThroughput } from './figures/throughput.mjs';
import { measureDetailTtfb, STATIC_BASELINE_PATH } from './figures/ttfb.mjs';
import { captureCreateAction, launchBrowser, signIn } from './lib/browser.mjs';
import { keepAliveAgent, timedRequest } from './lib/http.mjs';
import { armHardStop, DeadlineError, isAborting, log, segmentDeadline } from './lib/run-control.mjs';
import { ADMIN, startServer } from './lib/server.mjs';
import { loadSettled } from './lib/settle.mjs';
import { round } from './lib/stats.mjs';
import { STORE_LABELS } from './lib/stores.mjs';
import { RESERVE_MS, THROUGHPUT_MS, timeBox } from './lib/time-box.mjs';
import { reportNotes } from './notes.mjs';

/** Measures every figure on one prepared store; returns its report (rows, notes, figures, errors). */
export async function measureStore(prepared, deadline, scope, config) {
  const { port: PORT, scale: SCALE, storeDeadlineMs, scaleDeadlineMs, loadAverageBefore, onServer } = config;
  const BASE = `http://localhost:${PORT}`;
  const figures = {};
  const errors = {};
  const { store, dataDir, env: storeEnv, apiKey } = prepared;

  deadline.check(60_000);
  const webhookSecret = newWebhookSecret();
  log(`${store}: starting next start on ${BASE} (data: ${dataDir})`);
  const server = await startServer({ port: PORT, dataDir, storeEnv, apiKey, webhookSecret, register: scope.register });
  onServer(server);
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
      if (error instanceof DeadlineError || isAborting()) throw error;
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
  await phase('liveLatency', `live latency (${LIVE_SAMPLES} webhooks${store === 'postgres' ? ', posted to a second instance' : ''})`, () =>
    withSecondInstance(store === 'postgres', { port: PORT + 3, prepared, webhookSecret, register: scope.register }, async (webhookBase) =>
      measureLiveLatency({
        browser,
        streamBase: BASE,
        webhookBase,
        cookies,
        webhookSecret,
        verificationId: subjectId,
        // The page is another record's detail page (see figures/live-latency.mjs).
        pageId: (await actionReplayer({ base: BASE, cookieHeader, action, agent: keepAliveAgent() })()).verificationId,
        box: timeBox('live', deadline),
        deadline,
      }),
    ),
  );
  unregisterBrowser();
  await browser.close();

  // Fixed-length: run only if it can end before the deadline, else report it as not measured.
  if (!only || only.includes('throughput')) {
    if (deadline.remaining() < THROUGHPUT_MS + 5_000) log(`${store}: no time left for the throughput figure`);
    else
      await phase(
        'throughput',
        'throughput (autocannon, 32 connections: constant route, create actions, reads, webhooks; the sandbox’s reads and creates)',
        async () => {
          // The reads and the deliveries rotate over the records the create actions make; these
          // (the create figure's, else the subject) only if those made none.
          const ids = createdIds.length > 0 ? createdIds : [subjectId];
          return measureThroughput({ base: BASE, apiKey, cookieHeader, action, webhookSecret, ids, deadline });
        },
      );
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
    armHardStop(scaleDeadlineMs + 60_000, `${store} data scale`);
    const scaleDeadline = segmentDeadline(scaleDeadlineMs);
    const relaunch = async () => {
      const next = await startServer({ port: PORT, dataDir, storeEnv, apiKey, webhookSecret, register: scope.register });
      onServer(next);
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
  const notes = reportNotes({ store: prepared, figures, errors, deadlineMs: storeDeadlineMs, loadAverageBefore });
  return { store, label: STORE_LABELS[store], rows, tables, notes, figures, errors };
}

/**
 * Runs `measure` with the base URL of a second instance of the build on the same database (B;
 * `enabled`: on PostgreSQL, which several instances share), stopped afterwards; without one,
 * with undefined. B gets its own data directory, as every instance of a deployment has, and the
 * same secrets and database as the first.
 */
async function withSecondInstance(enabled, { port, prepared, webhookSecret, register }, measure) {
  if (!enabled) return measure(undefined);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'verification-desk-bench-b-'));
  const unregisterDir = register(() => rmSync(dataDir, { recursive: true, force: true }));
  let unregisterServer = () => false;
  let second;
  try {
    log(`${prepared.store}: starting a second instance on port ${port}`);
    second = await startServer({
      port,
      dataDir,
      storeEnv: prepared.env,
      apiKey: prepared.apiKey,
      webhookSecret,
      register: (stop) => {
        unregisterServer = register(stop);
      },
    });
    return await measure(`http://localhost:${port}`);
  } finally {
    if (unregisterServer()) await second?.stop();
    if (unregisterDir()) rmSync(dataDir, { recursive: true, force: true });
  }
}
