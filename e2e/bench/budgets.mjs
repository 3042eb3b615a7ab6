// The bench's budgets, one entry per row of the report, in the report's order. Each entry names
// the measured figure it reads (`from`, a key of results/latest.json's `figures`), how the value
// it budgets is computed from it, the budget as the report shows it, the limits that must all
// hold (`atMost`, `atLeast` or `equals`), and how the measurement reads in the report. Budgets
// that are a difference or a ratio compare against a baseline measured in the same run, side by
// side (see figures/); a ratio the bench computes itself (first-load JS) is computed here.
// run.mjs measures; budgetRows() turns the figures into the report's rows.
import { SCALE_EXPORTS, SCALE_OVERVIEW_PAGES, SCALE_PAGES } from './figures/data-scale-probes.mjs';
import { JS_ROUTES } from './figures/js-size.mjs';
import { LIGHTHOUSE_PAGES } from './figures/lighthouse.mjs';
import { ms, sampled, signedMs } from './lib/format.mjs';
import { REPORTED } from './lib/report.mjs';
import { round } from './lib/stats.mjs';

/** autocannon's figures for one kind of request, and the constant route's ceiling beside them. */
const load = (tp, x) => `${x.perSecond}/s vs ${tp.ceiling.perSecond}/s; p99 ${x.p99} ms, non-2xx ${x.non2xx}, errors ${x.errors}`;

/**
 * One throughput row: `part` of the throughput figure, per second, as a ratio to the constant
 * route's. With `atLeast`, budgeted, and no answer may be an error; without, reported only.
 * `done`: the part counts only the requests that did their work (a created record, an applied
 * delivery), and names them; every other answer fails the row.
 */
function throughputBudget({ figure, part, atLeast, done, limits = [], measured = () => '' }) {
  return {
    figure,
    from: 'throughput',
    select: (tp) => tp[part] && tp,
    derive: (tp) => ({ [`${part}Ratio`]: round(tp[part].perSecond / tp.ceiling.perSecond, 2) }),
    ...(atLeast === undefined
      ? { budget: 'reported, not budgeted', limits: [] }
      : {
          budget: `≥ ${atLeast}×, no non-2xx or errors`,
          limits: [
            { value: (tp) => tp[`${part}Ratio`], atLeast },
            { value: (tp) => tp[part].non2xx, equals: 0 },
            { value: (tp) => tp[part].errors, equals: 0 },
            ...(done ? [{ value: (tp) => tp[part].notDone, equals: 0 }] : []),
            ...limits.map((limit) => ({ ...limit, value: (tp) => limit.value(tp[part]) })),
          ],
        }),
    reported: atLeast === undefined,
    measured: (tp) =>
      `${tp[`${part}Ratio`]}× (${load(tp, tp[part])}${done ? `; ${tp[part].done} ${done} of ${tp[part].total} answered` : ''}${measured(tp[part])})`,
  };
}

/**
 * `figure`: the row's name, or a function of the item and of what `select` found for it.
 * `each` + `select`: one row per item (a route, a page), `select(figure, item)` picking the item's
 * part of the figure; a row whose part is missing reads as not measured.
 * `value`, `measured` and `derive` get that part (or the whole figure) and the whole figure.
 * `derive`: values computed from the measured ones, added to that part, so results/latest.json
 * keeps them beside what was measured.
 * `when`: rows only in the runs it accepts (`context`: the store, the data-scale phase's size).
 */
export const BUDGETS = [
  {
    figure: 'Read overhead (BFF − direct), p50',
    from: 'readOverhead',
    budget: '≤ 3 ms added',
    limits: [{ value: (r) => r.addedP50, atMost: 3 }],
    measured: (r) =>
      `${signedMs(r.addedP50)} (${ms(r.dashboard.p50)} vs ${ms(r.direct.p50)}; p99 ${signedMs(r.addedP99)}: ${ms(r.dashboard.p99)} vs ${ms(r.direct.p99)}${sampled(r.dashboard, r.planned)})`,
  },
  ...createOverheadBudgets(),
  {
    figure: 'Detail page TTFB / static page TTFB, p50',
    from: 'detailTtfb',
    budget: '≤ 2×',
    limits: [{ value: (t) => t.ratioP50, atMost: 2 }],
    measured: (t) => `${round(t.ratioP50, 2)}× (${ms(t.detailTtfb.p50)} vs ${ms(t.staticTtfb.p50)}${sampled(t.detailTtfb, t.planned)})`,
  },
  {
    figure: (route) => `First-load JS ${route}`,
    from: 'firstLoadJs',
    each: JS_ROUTES,
    // The first entry is the baseline, the not-found page (figures/js-size.mjs).
    select: (entries, route) => entries[0] && entries.find((x) => x.route === route),
    // The ratio to the baseline, rounded as the report shows it; the budget compares the rounded value.
    derive: (entry, entries) => ({ ratio: round(entry.gzipKb / entries[0].gzipKb, 2) }),
    budget: '≤ 1.5× baseline, ≤ 150 KB',
    limits: [
      { value: (entry) => entry.ratio, atMost: 1.5 },
      { value: (entry) => entry.gzipKb, atMost: 150 },
    ],
    measured: (entry, entries) => `${round(entry.gzipKb, 1)} KB gzip, ${entry.ratio}× baseline (${round(entries[0].gzipKb, 1)} KB)`,
  },
  lighthouseBudget('desktop', 95),
  lighthouseBudget('mobile', 90),
  {
    figure: 'Click to result, median of 20',
    from: 'clickToResult',
    budget: '≤ 300 ms',
    limits: [{ value: (k) => k.p50, atMost: 300 }],
    measured: (k) => `${ms(k.p50)} (p90 ${ms(k.p90)}, max ${ms(k.max)}${sampled(k, k.planned)})`,
  },
  // The navigation staff make most (see figures/click-to-detail.mjs).
  {
    figure: 'Click to detail page, median of 20',
    from: 'clickToDetail',
    budget: '≤ 300 ms',
    limits: [{ value: (n) => n.p50, atMost: 300 }],
    measured: (n) => `${ms(n.p50)} (p90 ${ms(n.p90)}, max ${ms(n.max)}${sampled(n, n.planned)})`,
  },
  ...liveLatencyBudgets(),
  throughputBudget({
    figure: 'Create actions/s ÷ constant route/s (32 conn, 10 s)',
    part: 'createActions',
    atLeast: 0.3,
    done: 'created',
  }),
  throughputBudget({
    figure: 'Dashboard reads/s (GET /api/verifications/[id]) ÷ constant route/s (32 conn, 10 s)',
    part: 'reads',
    atLeast: 0.6,
  }),
  throughputBudget({
    figure: 'Webhook deliveries applied/s ÷ constant route/s (32 conn, 10 s)',
    part: 'webhooks',
    atLeast: 0.5,
    done: 'applied',
    // Every delivery answered as processed was stored: its event reached the live stream.
    limits: [{ value: (w) => w.announced >= w.done, equals: true }],
    measured: (w) => `; ${w.announced} announced on the live stream`,
  }),
  // The embedded sandbox's own rates: the service's figures, not the dashboard's (reported only).
  throughputBudget({ figure: 'Sandbox reads/s ÷ constant route/s (32 conn, 5 s)', part: 'sandboxReads' }),
  throughputBudget({ figure: 'Sandbox creates/s ÷ constant route/s (32 conn, 5 s)', part: 'sandboxCreates' }),
  {
    figure: 'Memory: RSS of next-server after load',
    from: 'memory',
    budget: '≤ 400 MB',
    limits: [{ value: (m) => m.afterLoadMb, atMost: 400 }],
    measured: (m) => `${m.afterLoadMb} MB (idle ${m.idleMb} MB)`,
  },
  // The data-scale phase (figures/data-scale.mjs): budgeted on PostgreSQL; PGlite's is reported only.
  {
    figure: (page, entry) => `Data scale: ${page.label}, p50 at ${entry?.rows ?? 'N'} rows ÷ at 1k`,
    from: 'dataScale',
    when: budgetedScale,
    each: SCALE_PAGES,
    select: (d, page) => atBothSizes(d, (size) => size.pages[page.name]),
    derive: (x) => ({ ratio: round(x.large.p50 / x.small.p50, 2) }),
    budget: '≤ 1.5×',
    limits: [{ value: (x) => x.ratio, atMost: 1.5 }],
    measured: (x) => `${x.ratio}× (${ms(x.large.p50)} vs ${ms(x.small.p50)}; p95 ${ms(x.large.p95)} vs ${ms(x.small.p95)})`,
  },
  {
    figure: (page, entry) => `Data scale: ${page.label}, p50 at ${entry?.rows ?? 'N'} rows`,
    from: 'dataScale',
    when: budgetedScale,
    each: SCALE_OVERVIEW_PAGES,
    select: (d, page) => atBothSizes(d, (size) => size.pages[page.name]),
    budget: '≤ 300 ms',
    limits: [{ value: (x) => x.large.p50, atMost: 300 }],
    measured: (x) => `${ms(x.large.p50)} (p95 ${ms(x.large.p95)}; at 1k ${ms(x.small.p50)}, p95 ${ms(x.small.p95)})`,
  },
  {
    figure: (item, entry) => `Data scale: ${item.label} at ${entry?.rows ?? 'N'} rows`,
    from: 'dataScale',
    when: budgetedScale,
    each: SCALE_EXPORTS,
    select: (d, item) => atBothSizes(d, (size) => size.exports[item.name]),
    budget: '≥ 50,000 rows/s, RSS growth ≤ 50 MB',
    limits: [
      { value: (x) => x.large.rowsPerSecond, atLeast: 50_000 },
      { value: (x) => x.large.rssGrowthMb, atMost: 50 },
    ],
    measured: ({ large: e }) => `${e.rowsPerSecond} rows/s (${e.rows} rows, ${e.megabytes} MB in ${e.seconds} s); RSS +${e.rssGrowthMb} MB`,
  },
  {
    figure: (_, d) =>
      `Data scale: register page during a purge of ${d?.purge.requestsDue ?? 'many'} requests, worst during − worst without it`,
    from: 'dataScale',
    when: budgetedScale,
    select: (d) => d.purge && d,
    budget: '≤ 100 ms',
    limits: [{ value: (d) => d.purge.blockedMs, atMost: 100 }],
    measured: ({ purge: p }) =>
      `${signedMs(p.blockedMs)} (worst ${p.worstMs === null ? 'none' : ms(p.worstMs)} of ${p.pagesDuring} GETs during the ${p.purgeSeconds} s purge, p50 ${orDash(p.p50DuringMs)}, p95 ${orDash(p.p95DuringMs)}; worst ${orDash(p.worstControlMs)} of ${p.pagesControl} GETs at the same pace without it, p50 ${orDash(p.p50ControlMs)}, p95 ${orDash(p.p95ControlMs)})`,
  },
];

const orDash = (x) => (x === null || x === undefined ? '—' : ms(x));

/** The data-scale phase is budgeted on PostgreSQL, when it runs (`--scale 0` leaves it out). */
function budgetedScale({ store, scale }) {
  return store === 'postgres' && scale > 0;
}

/** A figure's part at 1k rows (`small`) and at the large size (`large`), once both were measured. */
function atBothSizes(d, pick) {
  const [small, large] = d.sizes.map(pick);
  return small && large ? { small, large, rows: d.sizes[1].rows } : undefined;
}

/** Does `value` keep the limit? */
function keeps(limit, value) {
  if ('atMost' in limit) return value <= limit.atMost;
  if ('atLeast' in limit) return value >= limit.atLeast;
  return value === limit.equals;
}

/**
 * The report's rows: measured, budget and PASS/FAIL per budget. A figure that could not be
 * measured is never a PASS: ERROR when measuring it threw (`errors`), else N/A. Values `derive`
 * computes are added to the figures, so results/latest.json keeps them.
 */
/** Lighthouse on every page with one preset: performance at least `minPerformance`, accessibility 100, the rest at least 95. */
function lighthouseBudget(preset, minPerformance) {
  return {
    figure: (page, entry) => (entry ? `Lighthouse ${page} (${entry.path})` : `Lighthouse ${page}`),
    from: 'lighthouse',
    each: LIGHTHOUSE_PAGES.filter((page) => page.endsWith(preset)),
    select: (pages, page) => pages.find((x) => x.page === page),
    budget: `perf ≥ ${minPerformance}, a11y 100, best practices and SEO ≥ 95`,
    limits: [
      { value: (entry) => entry.scores.performance, atLeast: minPerformance },
      { value: (entry) => entry.scores.accessibility, equals: 100 },
      { value: (entry) => Math.min(entry.scores['best-practices'], entry.scores.seo), atLeast: 95 },
    ],
    measured: ({ scores: s }) => `perf ${s.performance} · a11y ${s.accessibility} · best ${s['best-practices']} · SEO ${s.seo}`,
  };
}

export function budgetRows(figures, errors, budgets = BUDGETS, context = {}) {
  const rows = [];
  for (const budget of budgets) {
    const figure = figures[budget.from];
    if (budget.when && !budget.when(context)) continue;
    for (const item of budget.each ?? [undefined]) {
      const subject = figure && (budget.select ? budget.select(figure, item) : figure);
      const name = typeof budget.figure === 'function' ? budget.figure(item, subject) : budget.figure;
      if (!subject) {
        const error = errors[budget.from];
        rows.push({
          figure: name,
          measured: error ? 'error (see notes)' : 'not measured in time',
          budget: budget.budget,
          result: budget.reported ? REPORTED : error ? 'ERROR' : 'N/A',
        });
        continue;
      }
      if (budget.derive) Object.assign(subject, budget.derive(subject, figure));
      const pass = budget.limits.every((limit) => keeps(limit, limit.value(subject, figure)));
      const result = budget.reported ? REPORTED : pass ? 'PASS' : 'FAIL';
      rows.push({ figure: name, measured: budget.measured(subject, figure), budget: budget.budget, result });
    }
  }
  return rows;
}

/**
 * Create overhead (figures/overhead.mjs): what our code adds to a create against a real service.
 * PGlite's budget is wider: its queries run on the server's own thread, between the requests'.
 */
function createOverheadBudgets() {
  return [
    { store: 'postgres', atMost: 3 },
    { store: 'pglite', atMost: 5 },
  ].map(({ store, atMost }) => ({
    figure: 'Create overhead: our code, p50',
    from: 'createOverhead',
    when: (context) => context.store === store,
    budget: `≤ ${atMost} ms`,
    limits: [{ value: (c) => c.ourCodeP50, atMost }],
    measured: (c) =>
      `${signedMs(c.ourCodeP50)} = (action ${ms(c.dashboard.p50)} − direct POST ${ms(c.direct.p50)}) − (no-op action ${ms(c.noOpAction.p50)} − constant route ${ms(c.constantRoute.p50)}) − the sandbox route's floor ${ms(c.routeFloorP50)} (constant route − bare Node HTTP ${ms(c.bareHttp.p50)})${sampled(c.dashboard, c.planned)}`,
  }));
}

/**
 * Live latency, p50 and p99 (figures/live-latency.mjs): on PostgreSQL the webhook goes to a second
 * instance and the stream is held on the first; PGlite runs one instance by design.
 */
function liveLatencyBudgets() {
  const where = (store) => (store === 'postgres' ? 'webhook on B → SSE on A' : 'webhook → SSE, one instance');
  const stats = [
    { name: 'p50', atMost: 50 },
    { name: 'p99', atMost: 150 },
  ];
  return ['postgres', 'pglite'].flatMap((store) =>
    stats.map(({ name, atMost }) => ({
      figure: `Live latency ${where(store)}, ${name}`,
      from: 'liveLatency',
      when: (context) => context.store === store,
      budget: `≤ ${atMost} ms`,
      limits: [{ value: (l) => l.latency[name], atMost }],
      measured: (l) =>
        `${ms(l.latency[name])} (p50 ${ms(l.latency.p50)}, p90 ${ms(l.latency.p90)}, p99 ${ms(l.latency.p99)}, max ${ms(l.latency.max)}${sampled(l.latency, l.planned)})`,
    })),
  );
}
