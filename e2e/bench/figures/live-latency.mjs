// Live latency: webhook received → SSE event in a connected browser. The bench plays the
// service: it signs a Standard Webhooks delivery with the servers' WEBHOOK_SECRET and POSTs it to
// /api/webhooks/verification-service, while a signed-in detail page holds its own
// EventSource('/api/events') and stamps each `verification` frame with Date.now() on arrival.
// Latency = arrival − send time, both from the same machine clock (milliseconds; the sender is on
// loopback, so "sent" is "received" to well under a millisecond).
//
// On PostgreSQL the deliveries go to one instance (B) and the stream is held on another (A), as
// in a deployment behind a load balancer: what is timed includes B's processing (its re-read of
// the record, the transaction that stores the change and its event), the notification through
// PostgreSQL's LISTEN/NOTIFY, A's read of the new event and its write to the stream. On PGlite,
// which one process owns by design, both are the same server.
//
// One delivery at a time, each with a new webhook-id and after a small random pause (so samples
// do not fall into step with the servers' timers): the receiver processes every new delivery
// (re-reads the record over HTTP, updates the register, publishes) whether or not the status
// changed, so the record need not change between events.
//
// The page is the detail page of another record (`pageId`), as for staff with the dashboard open
// while other requests change. Not the changing record's own page: 200 changes to one record in
// a few seconds is not what a watched record sees, and that page reacts to each (a refetch of the
// record, and a server re-render of the page per burst, every 400 ms here). Traced, that reaction
// was the whole tail: the re-render held instance A's event loop (the notification waited up to
// 70 ms) and then the browser's main thread (the frame waited up to 180 ms there while an
// EventSource in a worker of the same page had it within 20 ms). See e2e/bench/README.md.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { expectStatus, keepAliveAgent, timedRequest } from '../lib/http.mjs';
import { summarize } from '../lib/stats.mjs';
import { more, warmingAllowed } from '../lib/time-box.mjs';

export const LIVE_SAMPLES = 200;
/** The pause between two deliveries: at least this, plus up to as much again at random. */
const GAP_MS = 20;

/**
 * `streamBase`: the instance the page and its stream are on (A); `webhookBase`: the instance the
 * deliveries are posted to (B; the same as `streamBase` on one instance). `verificationId`: the
 * record the deliveries are about; `pageId`: the record whose detail page holds the stream.
 */
export async function measureLiveLatency({
  browser,
  streamBase,
  webhookBase = streamBase,
  cookies,
  webhookSecret,
  verificationId,
  pageId,
  count = LIVE_SAMPLES,
  warmup = 10,
  box,
  deadline,
}) {
  const context = await browser.newContext({ baseURL: streamBase });
  await context.addCookies(cookies);
  const page = await context.newPage();
  const agent = keepAliveAgent();
  const signer = new Webhook(webhookSecret);
  const latencies = [];
  const roundTrips = [];
  try {
    await page.goto(`/verifications/${pageId}`);
    await page.evaluate(
      (id) =>
        new Promise((resolve, reject) => {
          const arrivals = [];
          window.__benchArrivals = arrivals;
          window.__benchWaiter = undefined;
          const source = new EventSource('/api/events');
          source.addEventListener('verification', (event) => {
            const arrivedAt = Date.now();
            if (JSON.parse(event.data).verificationId !== id) return;
            arrivals.push(arrivedAt);
            window.__benchWaiter?.();
          });
          source.addEventListener('open', () => resolve());
          setTimeout(() => reject(new Error('the event stream did not open within 10 s')), 10_000);
        }),
      verificationId,
    );
    for (let i = 0; i < warmup + count && (i < warmup ? warmingAllowed(box) : more(box, i - warmup)); i++) {
      deadline.check();
      await sleep(GAP_MS + Math.random() * GAP_MS);
      // Waits for the i-th arrival in the page itself (no polling), started before the delivery is sent.
      const arrival = page.evaluate(
        (n) =>
          new Promise((resolve, reject) => {
            const check = () => {
              if (window.__benchArrivals.length <= n) return;
              window.__benchWaiter = undefined;
              resolve(window.__benchArrivals[n]);
            };
            window.__benchWaiter = check;
            check();
            setTimeout(() => reject(new Error(`event ${n} did not arrive within 5 s`)), 5_000);
          }),
        i,
      );
      arrival.catch(() => undefined); // awaited below; a failed delivery must not leave it unhandled
      const body = JSON.stringify({
        type: 'verification.created',
        timestamp: new Date().toISOString(),
        data: { verificationId, status: 'pending' },
      });
      const webhookId = `msg_bench_${randomUUID().replaceAll('-', '')}`;
      const sentAt = Date.now();
      const headers = {
        'content-type': 'application/json',
        'webhook-id': webhookId,
        'webhook-timestamp': String(Math.floor(sentAt / 1000)),
        'webhook-signature': signer.sign(webhookId, new Date(sentAt), body),
      };
      const response = await timedRequest(`${webhookBase}/api/webhooks/verification-service`, { method: 'POST', headers, body, agent });
      expectStatus(response, 200, 'webhook delivery');
      const answer = JSON.parse(response.body.toString('utf8'));
      if (answer.status !== 'processed') throw new Error(`webhook delivery was not processed: ${JSON.stringify(answer)}`);
      const arrivedAt = await arrival;
      if (i >= warmup) {
        latencies.push(arrivedAt - sentAt);
        roundTrips.push(response.total);
      }
    }
  } finally {
    agent.destroy();
    await context.close();
  }
  if (latencies.length === 0) throw new Error('no sample within the time box');
  return {
    planned: count,
    instances: webhookBase === streamBase ? 1 : 2,
    latency: summarize(latencies),
    webhookResponse: summarize(roundTrips),
  };
}
