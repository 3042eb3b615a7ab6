// What the dashboard adds on top of the service it proxies, measured side by side: the same
// operation through the dashboard and directly against the sandbox API, alternated one request
// at a time (A, B, A, B …) after a warm-up, so both see the same machine load at the same moment.
// Each side has its own keep-alive connection. Every response is checked, so an error page
// (fast, and wrong) is never counted as a measurement.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ROOT } from '../../kit/server.mjs';
import { DIRECT_CREATE_BODY } from '../lib/browser.mjs';
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
 * Several sides measured round by round, one request in flight: every round runs each side once,
 * in a fresh random order (so no side always follows the same other one). After every request
 * the bench waits as long as that request took (at least `pauseMs`), so work a request leaves for
 * after its answer (the create's register refresh, smaller than the create itself) is done
 * before the next one and is not charged to whichever request comes next, however slow the
 * machine is at that moment. Stops early when its time box says so.
 */
async function interleaveRounds({ sides, count, warmup, pauseMs, box, deadline }) {
  const names = Object.keys(sides);
  const settle = (tookMs) => new Promise((resolve) => setTimeout(resolve, Math.max(pauseMs, tookMs)));
  for (let i = 0; i < warmup && warmingAllowed(box); i++) {
    for (const name of names) await settle(await sides[name]());
  }
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < count && more(box, i); i++) {
    deadline.check();
    for (const name of shuffled(names)) {
      const took = await sides[name]();
      times[name].push(took);
      await settle(took);
    }
  }
  if (times[names[0]].length === 0) throw new Error('no sample within the time box');
  return Object.fromEntries(names.map((name) => [name, summarize(times[name])]));
}

function shuffled(values) {
  const copy = [...values];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/** The create page's no-op action (lib/verifications/create/actions.ts), from the build's own manifest. */
export const NO_OP_ACTION = 'checkCreateAccessAction';
const CREATE_PAGE_WORKER = 'app/(dashboard)/verifications/new/page';

function noOpActionId() {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, '.next/server/server-reference-manifest.json'), 'utf8'));
  const found = Object.entries(manifest.node).find(
    ([, entry]) => entry.exportedName === NO_OP_ACTION && Object.hasOwn(entry.workers, CREATE_PAGE_WORKER),
  );
  if (!found)
    throw new Error(`no ${NO_OP_ACTION} on /verifications/new in .next/server/server-reference-manifest.json: is the build current?`);
  return found[0];
}

/**
 * The create figure: four sides, interleaved round by round.
 * - `action`: the create server action replayed over HTTP (each with a fresh submission key, else
 *   the server would answer every replay with the first one's result);
 * - `direct`: POST /v1/verifications/new with the body the action sends upstream for the same form;
 * - `noOpAction`: the same page's authorized no-op action, sent the create's very request (same
 *   page, headers and multipart body, another action id): the framework's floor for an action
 *   on that page (routing, the proxy, decoding the body, the session check, answering);
 * - `constantRoute`: GET /api/health, a route handler returning a constant: the floor of any
 *   request. The direct POST stands on it as the action stands on the no-op action;
 * - `bareHttp`: a constant answer from a bare Node HTTP server in the bench's own process, on
 *   `barePort`: the round trip itself, without Next.js.
 * What our own code adds to a create: (action − direct) − (noOpAction − constantRoute), at p50.
 * That figure also holds one route's framework floor (constantRoute − bareHttp): the action's own
 * request to the service, which the embedded sandbox serves through Next.js like any route, while
 * the direct POST's floor is subtracted once only. It is reported beside the figure, not taken off.
 */
export async function measureCreateOverhead({
  base,
  cookieHeader,
  apiKey,
  action,
  barePort,
  count = 200,
  warmup = 10,
  pauseMs = 10,
  box,
  deadline,
}) {
  const agents = {
    action: keepAliveAgent(),
    direct: keepAliveAgent(),
    noOpAction: keepAliveAgent(),
    constantRoute: keepAliveAgent(),
    bareHttp: keepAliveAgent(),
  };
  const bare = await startBareServer(barePort);
  const createdIds = [];

  const replay = actionReplayer({ base, cookieHeader, action, agent: agents.action });
  const noOpId = noOpActionId();
  const noOpHeaders = {
    ...Object.fromEntries(
      Object.entries(action.headers).filter(([name]) => !DROPPED.has(name.toLowerCase()) && name.toLowerCase() !== 'next-action'),
    ),
    'next-action': noOpId,
    cookie: cookieHeader,
    origin: base,
    'content-length': String(action.body.length),
  };
  const sides = {
    action: async () => (await replay()).total,
    direct: async () => {
      const response = await timedRequest(`${base}/v1/verifications/new`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: DIRECT_CREATE_BODY,
        agent: agents.direct,
      });
      expectStatus(response, 200, 'direct create');
      createdIds.push(JSON.parse(response.body.toString('utf8')).verificationId);
      return response.total;
    },
    noOpAction: async () => {
      const response = await timedRequest(new URL(action.path, base).toString(), {
        method: 'POST',
        headers: noOpHeaders,
        body: action.body,
        agent: agents.noOpAction,
      });
      expectStatus(response, 200, 'no-op action');
      const text = response.body.toString('utf8');
      if (!text.includes('{"allowed":true}'))
        throw new Error(`the no-op action did not answer as for an allowed session: ${text.slice(0, 300)}`);
      return response.total;
    },
    constantRoute: async () =>
      expectStatus(await timedRequest(`${base}/api/health`, { agent: agents.constantRoute }), 200, 'constant route').total,
    bareHttp: async () =>
      expectStatus(await timedRequest(`http://127.0.0.1:${barePort}/`, { agent: agents.bareHttp }), 200, 'bare HTTP').total,
  };
  let measured;
  try {
    measured = await interleaveRounds({ sides, count, warmup, pauseMs, box, deadline });
  } finally {
    for (const agent of Object.values(agents)) agent.destroy();
    await bare.close();
  }
  // (action − direct) − (no-op action − constant route) still holds one route's routing by Next.js
  // (constant route − bare HTTP): the embedded sandbox's, which the action's request to the service
  // goes through here and a real service's own server would do instead. Taken off, what is left is
  // what our code adds to a create against a real service.
  const routeFloor = (p) => measured.constantRoute[p] - measured.bareHttp[p];
  const ourCode = (p) => measured.action[p] - measured.direct[p] - (measured.noOpAction[p] - measured.constantRoute[p]) - routeFloor(p);
  return {
    planned: count,
    pauseMs,
    dashboard: measured.action,
    direct: measured.direct,
    noOpAction: measured.noOpAction,
    constantRoute: measured.constantRoute,
    bareHttp: measured.bareHttp,
    routeFloorP50: routeFloor('p50'),
    addedP50: measured.action.p50 - measured.direct.p50,
    addedP99: measured.action.p99 - measured.direct.p99,
    floorP50: measured.noOpAction.p50 - measured.constantRoute.p50,
    ourCodeP50: ourCode('p50'),
    createdIds,
  };
}

/** A Node HTTP server answering every request with the same small JSON, on loopback. */
async function startBareServer(port) {
  const body = Buffer.from('{"status":"ok"}');
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    response.end(body);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
