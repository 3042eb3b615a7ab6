// Server render of the detail page against a static page of the same app, interleaved.
//
// The baseline: every page is rendered per request, because each carries the nonce of its own
// Content-Security-Policy (a page prerendered at build time has scripts without a nonce, which
// the policy blocks). The page with static content is the not-found page: root layout, a heading
// and a link; no session lookup, no data. A signed-in GET of a path that does not exist passes
// the same proxy and gets it, so: same server, same proxy, no data. No page was added for this.
import { expectStatus, keepAliveAgent, timedRequest } from '../lib/http.mjs';
import { summarize } from '../lib/stats.mjs';
import { more, warmingAllowed } from '../lib/time-box.mjs';

export const STATIC_BASELINE_PATH = '/bench-static-baseline-does-not-exist';

export async function measureDetailTtfb({ base, cookieHeader, id, count = 60, warmup = 5, box, deadline }) {
  const detailAgent = keepAliveAgent();
  const staticAgent = keepAliveAgent();
  const headers = { cookie: cookieHeader, accept: 'text/html', 'accept-encoding': 'gzip' };
  let staticCache;
  const detail = async () => {
    const response = expectStatus(await timedRequest(`${base}/verifications/${id}`, { headers, agent: detailAgent }), 200, 'detail page');
    return { ttfb: response.ttfb, total: response.total };
  };
  const baseline = async () => {
    const response = expectStatus(
      await timedRequest(`${base}${STATIC_BASELINE_PATH}`, { headers, agent: staticAgent }),
      404,
      'static page',
    );
    staticCache = response.headers['x-nextjs-cache'];
    return { ttfb: response.ttfb, total: response.total };
  };
  for (let i = 0; i < warmup && warmingAllowed(box); i++) {
    await detail();
    await baseline();
  }
  const d = [];
  const s = [];
  for (let i = 0; i < count && more(box, i); i++) {
    deadline.check();
    if (i % 2 === 0) {
      d.push(await detail());
      s.push(await baseline());
    } else {
      s.push(await baseline());
      d.push(await detail());
    }
  }
  detailAgent.destroy();
  staticAgent.destroy();
  if (d.length === 0) throw new Error('no sample within the time box');
  const detailTtfb = summarize(d.map((x) => x.ttfb));
  const staticTtfb = summarize(s.map((x) => x.ttfb));
  return {
    planned: count,
    detailTtfb,
    staticTtfb,
    detailTotal: summarize(d.map((x) => x.total)),
    staticTotal: summarize(s.map((x) => x.total)),
    ratioP50: detailTtfb.p50 / staticTtfb.p50,
    staticServedFromPrerender: staticCache === 'HIT',
  };
}
