// The bounds on open live streams through the real route: real better-auth sessions on an
// in-memory PGlite database, real streams. The per-member bound is the real one and counts a
// staff member's streams over all their sessions; the process's bound is made small for this
// file by giving the process its slots before the route asks.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnv } from '@/lib/env';
import { getLiveBus } from '@/lib/live';
import { createStreamSlots, STREAMS_PER_STAFF_MEMBER } from '@/lib/live/stream-slots';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff } from '@/lib/staff/staff-accounts';
import { frameReader } from '@/test/support/live';
import { sessionCookie } from '@/test/support/session-cookie';
import { GET } from './route';

const PASSWORD = 'correct horse battery staple';
const PROCESS_BOUND = STREAMS_PER_STAFF_MEMBER + 3;
const SLOTS_KEY = Symbol.for('verification-desk.live-stream-slots');
const holder = globalThis as unknown as Record<symbol, unknown>;

const open: AbortController[] = [];

/** Opens /api/events with `cookie`; a 200 stream is kept open (and read to its first frame) until the test ends. */
async function connect(cookie: string) {
  const abort = new AbortController();
  const response = await GET(new Request('http://localhost:3000/api/events', { headers: { cookie }, signal: abort.signal }), {
    params: Promise.resolve({}),
  });
  if (response.status === 200) {
    open.push(abort);
    expect((await frameReader(response.body!).next()).retry).toBe('2000');
  }
  return { response, abort };
}

beforeAll(async () => {
  holder[SLOTS_KEY] = createStreamSlots({ perMember: STREAMS_PER_STAFF_MEMBER, perProcess: PROCESS_BOUND });
  process.env.DATA_DIR = 'memory://';
  process.env.APP_URL = 'http://localhost:3000';
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-stream-limits-0123456789';
  resetEnv();
  const adminId = await createStaff(null, { name: 'Ada Admin', email: 'ada@example.com', role: 'admin', password: PASSWORD });
  await createStaff(adminId, { name: 'Vic Viewer', email: 'vic@example.com', role: 'viewer', password: PASSWORD });
  await createStaff(adminId, { name: 'Olga Operator', email: 'olga@example.com', role: 'operator', password: PASSWORD });
});

afterAll(async () => {
  for (const abort of open) abort.abort();
  delete holder[SLOTS_KEY];
  await closeDatabases();
});

describe('GET /api/events, bounded', () => {
  const MEMBER_REFUSAL = `Live updates are already open in ${STREAMS_PER_STAFF_MEMBER} tabs of your account, across your browsers; close one and this tab will resume them.`;

  it(`holds one staff member to ${STREAMS_PER_STAFF_MEMBER} streams over all their sessions: with six sessions, the next stream over any of them is 429`, async () => {
    const listeners = getLiveBus().listenerCount();
    // Six sign-ins of one person (six browsers, or one person signing in again and again).
    const sessions: string[] = [];
    for (let i = 0; i < 6; i += 1) sessions.push(await sessionCookie('vic@example.com', PASSWORD));
    const mine = [];
    for (let i = 0; i < STREAMS_PER_STAFF_MEMBER; i += 1) mine.push(await connect(sessions[i % sessions.length]!));
    expect(mine.map(({ response }) => response.status)).toEqual(Array(STREAMS_PER_STAFF_MEMBER).fill(200));

    for (const cookie of sessions) {
      const refused = (await connect(cookie)).response;
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toMatch(/application\/json/);
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(await refused.json()).toEqual({ error: MEMBER_REFUSAL });
    }
    // A fresh sign-in is no way round it either.
    expect((await connect(await sessionCookie('vic@example.com', PASSWORD))).response.status).toBe(429);
    expect(getLiveBus().listenerCount()).toBe(listeners + STREAMS_PER_STAFF_MEMBER);

    // Another staff member is not held up.
    const ada = await sessionCookie('ada@example.com', PASSWORD);
    expect((await connect(ada)).response.status).toBe(200);

    // A closed tab frees its place for the person, whichever session asks next.
    mine[0]!.abort.abort();
    expect((await connect(sessions[5]!)).response.status).toBe(200);
  });

  it('holds the per-process bound whoever asks', async () => {
    // Open now: 10 of Vic's, 1 of Ada's. Olga's fill the rest.
    const olga = await sessionCookie('olga@example.com', PASSWORD);
    expect((await connect(olga)).response.status).toBe(200);
    expect((await connect(olga)).response.status).toBe(200);
    const refused = (await connect(olga)).response;
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: 'The server has as many live update streams open as it allows; this tab will try again shortly.',
    });
  });
});
