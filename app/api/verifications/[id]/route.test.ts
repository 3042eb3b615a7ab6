// The browser's read route end to end: real better-auth sessions on an in-memory PGlite
// database, the real route handler called with a Request, a real HTTP server as the service.

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/lib/db';
import { verificationRequests } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff } from '@/lib/staff/staff-accounts';
import { type FakeUpstream, json, startFakeUpstream } from '@/lib/verification-service/fake-upstream';
import { sessionCookie } from '@/test/support/session-cookie';
import { GET } from './route';

const PASSWORD = 'correct horse battery staple';
// READ_RATE_LIMIT_PER_MINUTE's default (lib/env.ts); the test runs without the variable set.
const READ_RATE_LIMIT_PER_MINUTE = 120;
const ID = 'read-me-often';
const DAY = 24 * 60 * 60 * 1000;
let upstream: FakeUpstream;

const record = () => ({
  inputted_name: 'Person',
  status: 'pending',
  purpose: 'legal_obligations',
  access_expires_at: new Date(Date.now() + 7 * DAY).toISOString(),
  identified_name: null,
  identified_date: null,
  verification_method: null,
  failed_reason: null,
  kept_until: new Date(Date.now() + 30 * DAY).toISOString(),
});

function read(cookie: string, id = ID) {
  const request = new Request(`http://localhost:3000/api/verifications/${encodeURIComponent(id)}`, { headers: { cookie } });
  return GET(request, { params: Promise.resolve({ id }) });
}

beforeAll(async () => {
  upstream = await startFakeUpstream();
  upstream.program(json(200, record()));
  process.env.DATA_DIR = 'memory://';
  process.env.APP_URL = 'http://localhost:3000';
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-read-route-0123456789';
  process.env.VERIFICATION_API_URL = upstream.baseUrl;
  process.env.VERIFICATION_API_KEY = 'read-route-key';
  resetEnv();
  const adminId = await createStaff(null, { name: 'Ada Admin', email: 'ada@example.com', role: 'admin', password: PASSWORD });
  await createStaff(adminId, { name: 'Vic Viewer', email: 'vic@example.com', role: 'viewer', password: PASSWORD });
});

afterAll(async () => {
  await upstream.close();
  await closeDatabases();
});

describe('GET /api/verifications/[id]', () => {
  it(`allows ${READ_RATE_LIMIT_PER_MINUTE} reads a minute per staff member; the next is 429 and never reaches the service`, async () => {
    const [vic, ada] = [await sessionCookie('vic@example.com', PASSWORD), await sessionCookie('ada@example.com', PASSWORD)];
    const before = upstream.requests.length;
    for (let i = 0; i < READ_RATE_LIMIT_PER_MINUTE; i += 1) {
      const response = await read(vic);
      expect(response.status, `read ${i + 1}`).toBe(200);
      await response.body?.cancel();
    }
    expect(upstream.requests.length - before).toBe(READ_RATE_LIMIT_PER_MINUTE);

    const refused = await read(vic);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/application\/json/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    const body = (await refused.json()) as { error: string; kind: string };
    expect(body.kind).toBe('rate_limited');
    expect(body.error).toMatch(
      /^Too many refreshes: you have loaded verifications 120 times in the last minute\. Wait \d+ seconds?, then refresh again\.$/,
    );
    expect(upstream.requests.length - before).toBe(READ_RATE_LIMIT_PER_MINUTE);

    // Another staff member is not held up by Vic's reads.
    const other = await read(ada);
    expect(other.status).toBe(200);
    expect(await other.json()).toMatchObject({ inputted_name: 'Person', status: 'pending' });
  });

  it('reads an uppercased UUID as the one request it names: asked in lowercase, registered under the lowercase id', async () => {
    const id = '3f1c0a52-9b7e-4c1d-8a2f-0123456789ab';
    const db = await getDb();
    await db.insert(verificationRequests).values({
      verificationId: id,
      name: 'Élodie Martin',
      purpose: 'legal_obligations',
      language: 'fr',
      shareableLink: true,
      emailNotification: false,
      smsNotification: false,
    });
    upstream.program(
      json(200, { ...record(), status: 'completed', identified_name: 'Élodie Martin', identified_date: new Date().toISOString() }),
    );
    const ada = await sessionCookie('ada@example.com', PASSWORD);

    const response = await read(ada, ` ${id.toUpperCase()} `);
    expect(response.status).toBe(200);
    expect(upstream.requests.at(-1)?.url).toBe(`/v1/verifications/${id}`);
    // The register learns from the answer under the one id it knows (after the response).
    await vi.waitFor(async () => {
      const [row] = await db.select().from(verificationRequests).where(eq(verificationRequests.verificationId, id));
      expect(row?.status).toBe('completed');
    });
    expect(await db.select().from(verificationRequests)).toHaveLength(1);
    upstream.program(json(200, record()));
  });
});
