// Live latency: webhook received → SSE event in a connected browser. The bench plays the
// service: it signs a Standard Webhooks delivery with the server's WEBHOOK_SECRET and POSTs it to
// /api/webhooks/verification-service, while a signed-in detail page holds its own
// EventSource('/api/events') and stamps each `verification` frame with Date.now() on arrival.
// Latency = arrival − send time, both from the same machine clock (milliseconds; the sender is on
// loopback, so "sent" is "received" to well under a millisecond). One delivery at a time, each
// with a new webhook-id: the receiver processes (re-reads the record over HTTP, updates the
// register, publishes) every new delivery, whether or not the status changed, so the record
// need not change between events. The page's own live query refetches on each event too, as it
// would for staff watching the record.
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { expectStatus, keepAliveAgent, timedRequest } from '../lib/http.mjs';
import { summarize } from '../lib/stats.mjs';
import { more, warmingAllowed } from '../lib/time-box.mjs';

export async function measureLiveLatency({ browser, base, cookies, webhookSecret, verificationId, count = 50, warmup = 3, box, deadline }) {
  const context = await browser.newContext({ baseURL: base });
  await context.addCookies(cookies);
  const page = await context.newPage();
  const agent = keepAliveAgent();
  const signer = new Webhook(webhookSecret);
  const latencies = [];
  const roundTrips = [];
  try {
    await page.goto(`/verifications/${verificationId}`);
    await page.evaluate(
      (id) =>
        new Promise((resolve, reject) => {
          const arrivals = [];
          window.__benchArrivals = arrivals;
          const source = new EventSource('/api/events');
          source.addEventListener('verification', (event) => {
            const arrivedAt = Date.now();
            if (JSON.parse(event.data).verificationId === id) arrivals.push(arrivedAt);
          });
          source.addEventListener('open', () => resolve());
          setTimeout(() => reject(new Error('the event stream did not open within 10 s')), 10_000);
        }),
      verificationId,
    );
    for (let i = 0; i < warmup + count && (i < warmup ? warmingAllowed(box) : more(box, i - warmup)); i++) {
      deadline.check();
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
      const response = await timedRequest(`${base}/api/webhooks/verification-service`, { method: 'POST', headers, body, agent });
      expectStatus(response, 200, 'webhook delivery');
      const answer = JSON.parse(response.body.toString('utf8'));
      if (answer.status !== 'processed') throw new Error(`webhook delivery was not processed: ${JSON.stringify(answer)}`);
      await page.waitForFunction((n) => window.__benchArrivals.length > n, i, { timeout: 5_000, polling: 5 });
      const arrivedAt = await page.evaluate((n) => window.__benchArrivals[n], i);
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
  return { planned: count, latency: summarize(latencies), webhookResponse: summarize(roundTrips) };
}
