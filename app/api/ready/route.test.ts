// Readiness against a real database (in-memory PGlite) and a real HTTP server as the service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/embedded-database';
import { closedPortUrl, type FakeUpstream, json, startFakeUpstream } from '@/lib/verification-service/fake-upstream';
import { GET as health } from '../health/route';
import { GET as ready } from './route';

let upstream: FakeUpstream;

function pointAt(url: string) {
  process.env.VERIFICATION_API_URL = url;
  process.env.VERIFICATION_API_KEY = 'ready-check-key';
  resetEnv();
}

beforeAll(async () => {
  upstream = await startFakeUpstream();
  process.env.DATA_DIR = 'memory://';
});

afterAll(async () => {
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
    expect(await response.json()).toEqual({ status: 'ready', checks: { database: 'ok', service: 'ok' } });
    expect(upstream.requests.at(-1)?.headers.authorization).toBe('Bearer ready-check-key');
  });

  it('is not ready (503) when the service is down or failing, and says which check failed', async () => {
    pointAt(await closedPortUrl());
    let response = await ready();
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'not_ready', checks: { database: 'ok', service: 'failed' } });

    pointAt(upstream.baseUrl);
    upstream.program(json(502, { error: 'Bad gateway' }));
    response = await ready();
    expect(response.status).toBe(503);
    const body = JSON.stringify(await response.json());
    expect(body).not.toContain('127.0.0.1');
    expect(body).not.toContain('Bad gateway');
  });
});
