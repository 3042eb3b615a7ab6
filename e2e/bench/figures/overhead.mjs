// What the dashboard adds on top of the service it proxies, measured side by side: the same
// operation through the dashboard and directly against the sandbox API, alternated one request
// at a time (A, B, A, B …) after a warm-up, so both see the same machine load at the same moment.
// Each side has its own keep-alive connection. Every response is checked, so an error page
// (fast, and wrong) is never counted as a measurement.
import { randomUUID } from 'node:crypto';
import { PERSON } from '../lib/browser.mjs';
import { expectStatus, keepAliveAgent, timedRequest } from '../lib/http.mjs';
import { summarize } from '../lib/stats.mjs';
import { more, warmingAllowed } from '../lib/time-box.mjs';

// Stops early when its time box says so (lib/time-box.mjs): on a loaded machine the run must
// still end in time, with fewer samples, reported as such, rather than be killed with none.
async function interleave({ count, warmup, a, b, box, deadline }) {
  for (let i = 0; i < warmup && warmingAllowed(box); i++) {
    await a();
    await b();
  }
  const timesA = [];
  const timesB = [];
  for (let i = 0; i < count && more(box, i); i++) {
    deadline.check();
    // Alternate which side goes first, so neither always follows the other's GC or cache effects.
    if (i % 2 === 0) {
      timesA.push(await a());
      timesB.push(await b());
    } else {
      timesB.push(await b());
      timesA.push(await a());
    }
  }
  if (timesA.length === 0) throw new Error('no sample within the time box');
  return { a: summarize(timesA), b: summarize(timesB), planned: count };
}

/** GET /api/verifications/[id] (signed in) vs GET /v1/verifications/[id] (Bearer key), same record. */
export async function measureReadOverhead({ base, cookieHeader, apiKey, id, count = 500, warmup = 20, box, deadline }) {
  const dashboardAgent = keepAliveAgent();
  const directAgent = keepAliveAgent();
  const dashboard = async () =>
    expectStatus(
      await timedRequest(`${base}/api/verifications/${id}`, { headers: { cookie: cookieHeader }, agent: dashboardAgent }),
      200,
      'dashboard read',
    ).total;
  const direct = async () =>
    expectStatus(
      await timedRequest(`${base}/v1/verifications/${id}`, { headers: { authorization: `Bearer ${apiKey}` }, agent: directAgent }),
      200,
      'direct read',
    ).total;
  const { a, b, planned } = await interleave({ count, warmup, a: dashboard, b: direct, box, deadline });
  dashboardAgent.destroy();
  directAgent.destroy();
  return { planned, dashboard: a, direct: b, addedP50: a.p50 - b.p50, addedP99: a.p99 - b.p99 };
}

// Headers of the captured request that belong to the browser's connection; a replay sets its own.
const DROPPED = new Set(['cookie', 'host', 'content-length', 'connection', 'origin', 'referer', 'accept-encoding']);

/**
 * Sends the captured create action again, as the signed-in operator, with a fresh submission key
 * each time (the server answers a repeated key with the first submission's result, which would
 * time a lookup instead of a create). Checks that a request was really created.
 */
export function actionReplayer({ base, cookieHeader, action, agent }) {
  const actionHeaders = Object.fromEntries(Object.entries(action.headers).filter(([name]) => !DROPPED.has(name.toLowerCase())));
  const template = action.body.toString('latin1');
  return async () => {
    // Same length (a UUID for a UUID), so the multipart body stays well-formed.
    const body = Buffer.from(template.replaceAll(action.submissionKey, randomUUID()), 'latin1');
    const response = await timedRequest(new URL(action.path, base).toString(), {
      method: 'POST',
      headers: { ...actionHeaders, cookie: cookieHeader, origin: base, 'content-length': String(body.length) },
      body,
      agent,
    });
    expectStatus(response, 200, 'create action');
    const text = response.body.toString('utf8');
    // The action answers 200 whatever happened; only a "created" state is a create.
    const verificationId = /"status":"created".*?"verificationId":"([^"]+)"/s.exec(text)?.[1];
    if (!verificationId) throw new Error(`create action did not create: ${text.slice(0, 300)}`);
    return { total: response.total, verificationId };
  };
}

/**
 * The create server action replayed over HTTP (each with a fresh submission key, else the server
 * would answer every replay with the first one's result) vs POST /v1/verifications/new with the
 * body the action sends upstream for the same form.
 */
export async function measureCreateOverhead({ base, cookieHeader, apiKey, action, count = 200, warmup = 10, box, deadline }) {
  const dashboardAgent = keepAliveAgent();
  const directAgent = keepAliveAgent();
  const directBody = JSON.stringify({
    name: PERSON.name,
    email: PERSON.email,
    chosenPurpose: PERSON.purpose,
    language: 'en',
    shareableLink: false,
    emailNotification: true,
    smsNotification: false,
  });
  const createdIds = [];

  const replay = actionReplayer({ base, cookieHeader, action, agent: dashboardAgent });
  const dashboard = async () => (await replay()).total;
  const direct = async () => {
    const response = await timedRequest(`${base}/v1/verifications/new`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: directBody,
      agent: directAgent,
    });
    expectStatus(response, 200, 'direct create');
    createdIds.push(JSON.parse(response.body.toString('utf8')).verificationId);
    return response.total;
  };
  const { a, b, planned } = await interleave({ count, warmup, a: dashboard, b: direct, box, deadline });
  dashboardAgent.destroy();
  directAgent.destroy();
  return { planned, dashboard: a, direct: b, addedP50: a.p50 - b.p50, addedP99: a.p99 - b.p99, createdIds };
}
