// The report's notes: how this run measured each figure, on what machine and under what load.
// Some read the run's own figures (e.g. how many script files each route loaded).
import os from 'node:os';
import { STATIC_BASELINE_PATH } from './figures/ttfb.mjs';
import { ms } from './lib/format.mjs';
import { round } from './lib/stats.mjs';

/** The load average over 1, 5 and 15 minutes, as the report shows it. */
export const loadAverage = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/**
 * @param {{ store: { store: string, postgresMajorVersion?: number }, figures: Record<string, any>, errors: Record<string, string>, deadlineMs: number, loadAverageBefore: string }} run
 * @returns {string[]}
 */
export function reportNotes({ store, figures, errors, deadlineMs, loadAverageBefore }) {
  const { detailTtfb: t, liveLatency: l, memory: m, throughput: tp } = figures;
  return [
    store.store === 'postgres'
      ? `Store: a throwaway PostgreSQL ${store.postgresMajorVersion} server on loopback (the test harness's, test/support/postgres-server.ts: fsync off, as a database thrown away after the run needs no durability against power loss), reached through DATABASE_URL with the default pool (DATABASE_POOL_MAX 10) and its listening connection; BETTER_AUTH_SECRET set, as DATABASE_URL requires.`
      : 'Store: the embedded PGlite data directory (no DATABASE_URL), what `npm start` uses by default.',
    `Machine: ${os.cpus().length} cores, shared with other work; load average before the run ${loadAverageBefore}, after ${loadAverage()}. Absolute figures are noisy; the ratios and differences are measured side by side in this run.`,
    `Time boxes: each phase gets a share of the time left before the store's ${deadlineMs / 1000} s deadline; a phase that runs out reports fewer samples ("n=… of …").`,
    'Overheads: sequential requests, one in flight, alternating dashboard/direct (order swapped every pair) after a warm-up; each side on its own keep-alive connection; time to the whole response body. Every response is checked (200 and, for the action, a created record).',
    `Create overhead: four sides, each once per round in a fresh random order, one request in flight, after each request a pause as long as it took (at least ${figures.createOverhead?.pauseMs ?? 10} ms), so what a request leaves for after its answer (the create's register refresh and log line) is done before the next request and not charged to it: the create form's server action, captured from a real Chromium submission and replayed over HTTP with a fresh submission key each time; POST /v1/verifications/new with the same request body, directly; the same page's authorized no-op action (checkCreateAccessAction) sent the create's very request with its own action id; GET /api/health, a route handler returning a constant; a bare Node HTTP server in the bench's process. Our code = (action − direct) − (no-op action − constant route) − (constant route − bare HTTP), p50s: what the create adds beyond the service's own work, what any authorized action on that page costs and the embedded sandbox's route floor (Next.js routing the service request, which a real service's server does instead). CREATE_RATE_LIMIT_PER_MINUTE and SANDBOX_RATE_LIMIT_PER_MINUTE are lifted for the bench.`,
    `TTFB baseline: the page with static content, the not-found page (root layout, a heading, a link; rendered per request like every page, for its CSP nonce; no session lookup, no data). A signed-in GET of ${STATIC_BASELINE_PATH} passes the same proxy. TTFB = request sent → status line and headers received${t ? `; whole-response p50: detail ${ms(t.detailTotal.p50)}, static ${ms(t.staticTotal.p50)}` : ''}.`,
    'First-load JS: per route, a fresh Chromium context (empty cache) loads the page; every Script response is counted by its gzip body as the server sends it. The baseline is the not-found page (root layout only), loaded like every route with the CSP enforced. Inline RSC payload is not counted, nor are scripts fetched after the load event (<Link> prefetches of other routes, lazy chunks)' +
      (figures.firstLoadJs
        ? `: ${figures.firstLoadJs.map((x) => `${x.route} ${x.afterLoad.files} file(s), ${round(x.afterLoad.wireKb, 1)} KB`).join('; ')}.`
        : '.'),
    'Lighthouse 12 Node API, in a Node process of its own (what it leaves behind ends with it), desktop and mobile presets, signed in as an administrator, after the load phases once the 1-minute load average is under 1 (waiting at most 2 minutes)' +
      (figures.lighthouseSettle
        ? ` (load average right before it: ${figures.lighthouseSettle.loadAverage}${figures.lighthouseSettle.quiet ? '' : ', not quiet yet when the wait ended'})`
        : '') +
      ', Debian Chromium (--headless=new --no-sandbox --disable-gpu), signed-in pages with the session cookie set in that browser (Lighthouse’s storage reset off; the runner empties the HTTP cache and the origin’s other storage before each page, so each is a cold load).' +
      (figures.lighthouse
        ? ` Audits that cost points: ${figures.lighthouse.map((p) => `${p.page}: ${p.lost.join(', ') || 'none'}`).join('; ')}.`
        : ''),
    'Click to result: in-page timing, from the submit button’s click event to the first animation frame after [data-testid=creation-result] is visible; a fresh form per submission; 2 warm-up submissions not counted.',
    `Live latency: ${
      store.store === 'postgres'
        ? "two instances of the build on the one PostgreSQL database: the bench POSTs the deliveries to a second next start instance (B, same DATABASE_URL and secrets) and holds the stream on the first (A), so each event goes through B's transaction, PostgreSQL's NOTIFY and A's listening connection"
        : "one instance: PGlite is one process's data directory by design, so the deliveries and the stream are on the same server"
    }. The bench signs Standard Webhooks deliveries with the servers' WEBHOOK_SECRET and POSTs them to /api/webhooks/verification-service one at a time, each after a random 20–40 ms pause; an EventSource('/api/events') the bench opens in a signed-in detail page of another record stamps each arrival with Date.now(); latency = arrival − send (same clock, ms). The receiver publishes on every processed delivery, so the status need not change. The page is not the changing record's own: there, 200 changes in seconds make the page refetch the record and re-render on the server once per 400 ms, which held A's event loop and the browser's main thread and made the whole tail (e2e/bench/README.md).${l ? ` Webhook response time p50 ${ms(l.webhookResponse.p50)}, p99 ${ms(l.webhookResponse.p99)}.` : ''}`,
    `Throughput: autocannon in a Node process of its own (same 2 cores as the server), 32 connections, each run after 2 s of the same load not counted (the steady state, not the first seconds of compiling hot code). First 5 s on GET /api/health, a route handler that returns a constant, routed like every API call (API calls skip the proxy): the most requests/s any API route can serve on this machine. Then 10 s each of our routes, budgeted as ratios to it: the create form's server action replayed with a fresh submission key per request (only answers with a created record count), GET /api/verifications/[id] signed in, rotating over the ${tp?.records ?? 'N'} records the creates made, and signed webhook deliveries, each with its own webhook-id, over the same records (only "processed" answers count; an event stream open during the run received ${tp?.webhooks?.announced ?? 'N'} events for ${tp?.webhooks?.done ?? 'N'} counted, the rest being deliveries still in flight when the load stopped). Last, 5 s each of the sandbox's own reads and creates with the Bearer key, reported only. The sandbox, PostgreSQL and the load generator share the server's cores: each of our operations includes one or two sandbox requests (e2e/bench/README.md).`,
    `Memory: VmRSS of the process serving requests (pid ${m.pid}, "${m.process}": next start runs the server in the process it starts), after warm-up and after all load phases.`,
    ...(figures.dataScale
      ? [
          `Data scale: the tables filled in SQL (generate_series) on the real schema, at ${figures.dataScale.sizes.map((x) => x.rows).join(' then ')} requests with 3 audit entries each and one request with 5,000 more; ${figures.dataScale.budgeted ? 'budgeted' : 'reported, not budgeted (PGlite: the server is stopped for each fill and started again)'}. Pages: 30 signed-in GETs each (as an administrator: the audit trail is theirs) after 5 warm-up rounds, one page after the other per round. Exports: the serving process's VmRSS every 100 ms. Purge: the retention job made due, the register home every 50 ms while it ran (e2e/bench/README.md).`,
        ]
      : []),
    'Server: production build, fresh data directory, sandbox on, the dashboard pointed at it over loopback with a CLI-created key (not zero-config, so the bench knows the key and the webhook secret).',
    ...Object.entries(errors).map(([name, message]) => `ERROR in ${name}: ${errorSummary(message)}`),
  ];
}

/**
 * An error on one line for the notes: its first line and, for a runner's error whose first line
 * ends with ':' (what the runner printed follows), the last line printed, where the cause is.
 */
function errorSummary(message) {
  const lines = message
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length < 2 || !lines[0].endsWith(':')) return lines[0] ?? '';
  return `${lines[0]} … ${lines.at(-1)}`;
}
