// The data-scale phase's measurements (figures/data-scale.mjs runs them at 1k rows and at the
// large size): signed-in page GETs, the two CSV exports with the server's memory while they
// stream, and the register page's latency while the retention purge runs.
import http from 'node:http';
import { rssMb } from '../../kit/processes.mjs';
import { expectStatus, keepAliveAgent, timedRequest } from '../lib/http.mjs';
import { SEARCH_WITH_HITS, SEARCH_WITHOUT_HIT } from '../lib/scale-fill.mjs';
import { percentile, round } from '../lib/stats.mjs';

/** The pages measured, by name, in the report's order; `path` gets the size's parameters. */
export const SCALE_PAGES = [
  { name: 'registerHome', label: 'register home', path: () => '/' },
  { name: 'searchHits', label: `register search with hits ("${SEARCH_WITH_HITS}")`, path: () => `/?q=${SEARCH_WITH_HITS}` },
  { name: 'searchNoHit', label: 'register search with no hit', path: () => `/?q=${SEARCH_WITHOUT_HIT}` },
  { name: 'statusFilter', label: 'register status filter (expired)', path: () => '/?status=expired' },
  { name: 'registerDeep', label: "register's last full page (keyset)", path: (p) => `/?after=${encodeURIComponent(p.registerCursor)}` },
  { name: 'auditTrail', label: 'audit trail', path: () => '/audit' },
  {
    name: 'auditDeep',
    label: "audit trail's last full page (keyset)",
    path: (p) => `/audit?after=${encodeURIComponent(p.auditCursor)}`,
  },
  { name: 'auditByAction', label: 'audit filter by action', path: () => '/audit?action=verification.status_changed' },
  { name: 'auditByActor', label: 'audit filter by actor', path: (p) => `/audit?actor=${encodeURIComponent(p.actorId)}` },
  {
    name: 'auditByVerification',
    label: 'audit filter by verification id',
    path: (p) => `/audit?verification=${encodeURIComponent(p.middleId)}`,
  },
  { name: 'timeline', label: 'detail page, timeline of 5,000 entries', path: (p) => `/verifications/${encodeURIComponent(p.timelineId)}` },
  { name: 'queue', label: 'needs attention (everyone’s queue)', path: () => '/queue' },
];

const isoDay = (date) => date.toISOString().slice(0, 10);

/**
 * The overview's views. They add up every request of their period by design, so their time grows
 * with the rows in it: budgeted on their p50 at the large size (issue 29: 300 ms at a million rows
 * on PostgreSQL) rather than as a ratio to 1k rows.
 */
export const SCALE_OVERVIEW_PAGES = [
  { name: 'overviewMonth', label: 'overview, this month (its default)', path: () => '/overview' },
  { name: 'overviewQuarter', label: 'overview, this quarter', path: () => '/overview?period=quarter' },
  {
    name: 'overviewYear',
    label: 'overview, the last 365 days (bars per week)',
    path: () => `/overview?period=custom&from=${isoDay(new Date(Date.now() - 364 * 86_400_000))}&to=${isoDay(new Date())}`,
  },
];

export const SCALE_EXPORTS = [
  { name: 'registerExport', label: 'CSV export of the register', path: '/api/exports/register' },
  { name: 'auditExport', label: 'CSV export of the audit trail', path: '/api/exports/audit' },
];

const pageHeaders = (cookieHeader) => ({ cookie: cookieHeader, accept: 'text/html', 'accept-encoding': 'gzip' });

/**
 * Every page `count` times after `warmup` rounds, in rounds (each page once per round), so the
 * machine's load falls on all pages alike. Each response must be a 200.
 */
export async function measurePages({ base, cookieHeader, params, count, warmup = 5, deadline }) {
  const agent = keepAliveAgent();
  const headers = pageHeaders(cookieHeader);
  const pages = [...SCALE_PAGES, ...SCALE_OVERVIEW_PAGES];
  const times = Object.fromEntries(pages.map((page) => [page.name, []]));
  for (let round = 0; round < warmup + count; round++) {
    deadline.check();
    for (const page of pages) {
      const response = await timedRequest(`${base}${page.path(params)}`, { headers, agent, timeoutMs: 60_000 });
      expectStatus(response, 200, page.label);
      if (round >= warmup) times[page.name].push(response.total);
    }
  }
  agent.destroy();
  return Object.fromEntries(Object.entries(times).map(([name, values]) => [name, latencies(values)]));
}

const latencies = (values) => ({ n: values.length, p50: round(percentile(values, 50)), p95: round(percentile(values, 95)) });

/**
 * Downloads an export whole, counting its rows (lines after the header) without keeping it, while
 * sampling the serving process's VmRSS every 100 ms. Growth = the highest sample − the one before.
 */
export function measureExport({ base, cookieHeader, path, pid, timeoutMs }) {
  const rssBeforeMb = rssMb(pid);
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => {
    try {
      rssPeakMb = Math.max(rssPeakMb, rssMb(pid));
    } catch {}
  }, 100);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let lines = 0;
    let bytes = 0;
    const request = http.get(`${base}${path}`, { headers: { cookie: cookieHeader } }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        return fail(new Error(`${path}: expected HTTP 200, got ${response.statusCode}`));
      }
      response.on('data', (chunk) => {
        bytes += chunk.length;
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
      });
      response.on('error', fail);
      response.on('end', () => {
        clearInterval(sampler);
        clearTimeout(timer);
        const seconds = (performance.now() - started) / 1000;
        rssPeakMb = Math.max(rssPeakMb, rssMb(pid));
        const rows = Math.max(0, lines - 1);
        resolve({
          rows,
          seconds: round(seconds, 2),
          megabytes: round(bytes / 1024 / 1024, 1),
          rowsPerSecond: Math.round(rows / seconds),
          rssBeforeMb,
          rssPeakMb,
          rssGrowthMb: round(rssPeakMb - rssBeforeMb, 1),
        });
      });
    });
    const timer = setTimeout(() => request.destroy(new Error(`${path} took longer than ${timeoutMs / 1000} s`)), timeoutMs);
    function fail(error) {
      clearInterval(sampler);
      clearTimeout(timer);
      reject(error);
    }
    request.on('error', fail);
  });
}

/**
 * The register page's latency while the retention purge runs, against the same page without it.
 * `trigger()` makes the purge due, and a GET goes every 50 ms (the next one starts 50 ms after the
 * previous one started, or when it ends if it took longer) until `ended()` says the purge is over;
 * `window()` then gives the run's start and end (epoch ms, the database's clock, which is this
 * machine's). The GETs that overlapped the run are "during"; those that ended before it started
 * (the runner picks the job up a little after the trigger) are the control, topped up when
 * `canContinue` by as many GETs after the run as it lacks, so that both sets hold the same
 * number of GETs at the same pace. blocked = the slowest during − the slowest of the control:
 * what the purge added to the worst page. The slowest of a thousand GETs on a busy 2-core machine
 * is itself far above the p50, purge or not, so the worst is compared with a worst, never with a p50.
 */
export async function measurePurgeBlocking({ base, cookieHeader, trigger, ended, window, canContinue, timeoutMs, deadline }) {
  const agent = keepAliveAgent();
  const headers = pageHeaders(cookieHeader);
  const get = async () => {
    const startedAt = Date.now();
    const response = expectStatus(
      await timedRequest(`${base}/`, { headers, agent, timeoutMs: 120_000 }),
      200,
      'register home during the purge',
    );
    return { startedAt, ms: response.total };
  };
  const paced = async (sample) => {
    const wait = sample.startedAt + 50 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  };
  for (let i = 0; i < 3; i++) await get();
  const before = [];
  for (let i = 0; i < 20; i++) before.push((await get()).ms);
  const p50Before = percentile(before, 50);
  await trigger();
  const loopStartedAt = Date.now();

  const samples = [];
  const stopAt = performance.now() + timeoutMs;
  let finished = false;
  while (performance.now() < stopAt) {
    deadline.check();
    const sample = await get();
    samples.push(sample);
    if (finished) break;
    // One GET more after the purge says it is over, so the last one it could have slowed is in.
    finished = await ended();
    await paced(sample);
  }
  if (!finished) {
    agent.destroy();
    throw new Error(`the retention purge did not end within ${timeoutMs / 1000} s`);
  }
  // Read while the server still serves (window() may stop it), so that the control can go on.
  const run = canContinue ? await window() : null;
  const after = [];
  if (run?.finishedMs) {
    const lacking = () => countDuring(samples, run) - samples.filter((s) => s.startedAt + s.ms <= run.startedMs).length - after.length;
    while (lacking() > 0) {
      deadline.check();
      const sample = await get();
      if (sample.startedAt >= run.finishedMs) after.push(sample);
      await paced(sample);
    }
  }
  agent.destroy();
  const window_ = run ?? (await window());
  if (!window_?.finishedMs) throw new Error(`the retention purge did not end within ${timeoutMs / 1000} s`);
  const duringMs = samples.filter((s) => overlaps(s, window_)).map((s) => s.ms);
  // The GETs nearest the run first, as many as overlapped it.
  const control = [...samples.filter((s) => s.startedAt + s.ms <= window_.startedMs).reverse(), ...after]
    .slice(0, duringMs.length)
    .map((s) => s.ms);
  const worst = duringMs.length > 0 ? Math.max(...duringMs) : null;
  const worstControl = control.length > 0 ? Math.max(...control) : null;
  return {
    p50BeforeMs: round(p50Before),
    purgeSeconds: round((window_.finishedMs - window_.startedMs) / 1000, 2),
    pagesDuring: duringMs.length,
    worstMs: worst === null ? null : round(worst),
    // Beside the worst, where the rest lay: one slow GET among hundreds reads differently from many.
    p50DuringMs: worst === null ? null : round(percentile(duringMs, 50)),
    p95DuringMs: worst === null ? null : round(percentile(duringMs, 95)),
    pagesControl: control.length,
    worstControlMs: worstControl === null ? null : round(worstControl),
    p50ControlMs: worstControl === null ? null : round(percentile(control, 50)),
    p95ControlMs: worstControl === null ? null : round(percentile(control, 95)),
    // No GET overlapped: none waited. A control shorter than the run's GETs says so in the report.
    blockedMs: worst === null ? 0 : round(worst - (worstControl ?? p50Before)),
    // A run that began before the loop (PGlite's is scheduled ahead) was partly not watched.
    startedBeforeWatch: window_.startedMs < loopStartedAt,
  };
}

function overlaps(sample, run) {
  return sample.startedAt < run.finishedMs && sample.startedAt + sample.ms > run.startedMs;
}

function countDuring(samples, run) {
  return samples.filter((s) => overlaps(s, run)).length;
}
