// Readiness against a real database (in-memory PGlite) and a real HTTP server as the service.
// The service's answer is shared for a window of time: the tests move a fake Date (only Date:
// timers, sockets and the database run on real time) past that window where they need a new check.

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordAudit } from '@/lib/audit/audit';
import { checkAuditChain } from '@/lib/audit/chain/chain-check.server';
import { getDb } from '@/lib/db';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { closedPortUrl, type FakeUpstream, json, startFakeUpstream } from '@/lib/verification-service/fake-upstream';
import { READINESS_CHECK_FRESH_MS } from '@/lib/verification-service/reachability';
import { resetAuditChain } from '@/test/support/audit-chain';
import { GET as health } from '../health/route';
import { GET as ready } from './route';

let upstream: FakeUpstream;

function pointAt(url: string) {
  process.env.VERIFICATION_API_URL = url;
  process.env.VERIFICATION_API_KEY = 'ready-check-key';
  resetEnv();
}

let clock = Date.now();
/** Moves the fake Date past the shared answer's window: the next caller gets a new check. */
function afterTheWindow() {
  clock += READINESS_CHECK_FRESH_MS;
  vi.setSystemTime(clock);
}

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: clock });
  upstream = await startFakeUpstream();
  process.env.DATA_DIR = 'memory://';
});

beforeEach(() => afterTheWindow());

afterAll(async () => {
  vi.useRealTimers();
  await upstream.close();
  await closeDatabases();
});

describe('/api/health', () => {
  it('answers ok with no details', async () => {
    const response = health();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});

describe('/api/ready', () => {
  it('is ready when the database answers and the service answers (a 400 for no id counts)', async () => {
    pointAt(upstream.baseUrl);
    upstream.program(json(400, { error: 'Verification id is missing' }));
    const response = await ready();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', service: 'ok' },
      details: { auditChain: { state: 'unchecked' } },
    });
    expect(upstream.requests.at(-1)?.headers.authorization).toBe('Bearer ready-check-key');
  });

  it('is not ready (503) when the service is down or failing, and says which check failed', async () => {
    pointAt(await closedPortUrl());
    let response = await ready();
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ status: 'not_ready', checks: { database: 'ok', service: 'failed' } });

    afterTheWindow();
    pointAt(upstream.baseUrl);
    upstream.program(json(502, { error: 'Bad gateway' }));
    response = await ready();
    expect(response.status).toBe(503);
    const body = JSON.stringify(await response.json());
    expect(body).not.toContain('127.0.0.1');
    expect(body).not.toContain('Bad gateway');
  });

  it('tells the audit chain’s last verdict as a detail, and stays ready when the chain is broken', async () => {
    pointAt(upstream.baseUrl);
    upstream.program(json(400, { error: 'Verification id is missing' }));
    const db = await getDb();
    await resetAuditChain(db);
    await recordAudit({ actorId: null, action: 'sign_out' });
    await recordAudit({ actorId: null, action: 'sign_out' });
    await checkAuditChain();
    let body = await (await ready()).json();
    expect(body.details.auditChain).toEqual({ state: 'intact', checkedAt: expect.any(String) });

    await db.execute(sql`update audit_entries set action = 'sign_in.succeeded' where seq = 1`);
    await checkAuditChain();
    afterTheWindow();
    upstream.program(json(400, { error: 'Verification id is missing' }));
    const response = await ready();
    body = await response.json();
    expect(response.status).toBe(200);
    expect(body).toMatchObject({ status: 'ready', details: { auditChain: { state: 'broken' } } });
    // Readiness says that it broke, not where or how: that is for the audit page.
    expect(JSON.stringify(body)).not.toMatch(/changed|seq/);
    await resetAuditChain(db);
  });

  it('costs the service one check per window, however many anonymous callers ask at once or in turn', async () => {
    pointAt(upstream.baseUrl);
    upstream.program(json(400, { error: 'Verification id is missing' }));
    const before = upstream.requests.length;

    const answers = await Promise.all(Array.from({ length: 11 }, () => ready()));
    for (let i = 0; i < 11; i += 1) answers.push(await ready());
    expect(answers.map((response) => response.status)).toEqual(Array(22).fill(200));
    expect(await answers[21]!.json()).toMatchObject({ status: 'ready', checks: { database: 'ok', service: 'ok' } });
    expect(upstream.requests.length - before).toBe(1);

    // The service goes down: within the window the shared answer stands, and nothing is asked.
    upstream.program(json(503, { error: 'Service unavailable' }));
    expect((await ready()).status).toBe(200);
    expect(upstream.requests.length - before).toBe(1);

    // After the window, the next caller's check sees it, and that answer is shared in turn.
    afterTheWindow();
    const down = await Promise.all(Array.from({ length: 5 }, () => ready()));
    expect(down.map((response) => response.status)).toEqual(Array(5).fill(503));
    expect(await down[0]!.json()).toMatchObject({ status: 'not_ready', checks: { database: 'ok', service: 'failed' } });
    expect(upstream.requests.length - before).toBe(2);
  });
});
