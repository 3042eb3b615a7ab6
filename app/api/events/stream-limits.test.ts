// The bounds on open live streams through the real route: real better-auth sessions on an
// in-memory PGlite database, real streams. The per-session bound is the real one; the process's
// bound is made small for this file by giving the process its slots before the route asks.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnv } from '@/lib/env';
import { getLiveBus } from '@/lib/live';
import { createStreamSlots, STREAMS_PER_SESSION } from '@/lib/live/stream-slots';
import { frameReader } from '@/lib/live/test-support';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff } from '@/lib/staff/staff-accounts';
import { sessionCookie } from '@/lib/testing/session-cookie';
import { GET } from './route';

const PASSWORD = 'correct horse battery staple';
const PROCESS_BOUND = STREAMS_PER_SESSION + 3;
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
  holder[SLOTS_KEY] = createStreamSlots({ perSession: STREAMS_PER_SESSION, perProcess: PROCESS_BOUND });
  process.env.DATA_DIR = 'memory://';
  process.env.APP_URL = 'http://localhost:3000';
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-stream-limits-0123456789';
  resetEnv();
  const adminId = await createStaff(null, { name: 'Ada Admin', email: 'ada@example.com', role: 'admin', password: PASSWORD });
  await createStaff(adminId, { name: 'Vic Viewer', email: 'vic@example.com', role: 'viewer', password: PASSWORD });
});

afterAll(async () => {
  for (const abort of open) abort.abort();
  delete holder[SLOTS_KEY];
  await closeDatabases();
});

describe('GET /api/events, bounded', () => {
  it(`answers the ${STREAMS_PER_SESSION + 1}th stream of one session 429, and leaves another session's streams alone`, async () => {
    const listeners = getLiveBus().listenerCount();
    const vic = await sessionCookie('vic@example.com', PASSWORD);
    const mine = [];
    for (let i = 0; i < STREAMS_PER_SESSION; i += 1) mine.push(await connect(vic));
    expect(mine.map(({ response }) => response.status)).toEqual(Array(STREAMS_PER_SESSION).fill(200));

    const refused = (await connect(vic)).response;
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/application\/json/);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await refused.json()).toEqual({
      error: `Live updates are already open in ${STREAMS_PER_SESSION} tabs of this session; close one and this tab will resume them.`,
    });
    expect(getLiveBus().listenerCount()).toBe(listeners + STREAMS_PER_SESSION);

    // Vic in another browser (a second session) is not held up.
    const vicElsewhere = await sessionCookie('vic@example.com', PASSWORD);
    expect((await connect(vicElsewhere)).response.status).toBe(200);

    // A closed tab frees its slot: the refused tab's next try gets a stream.
    mine[0]!.abort.abort();
    expect((await connect(vic)).response.status).toBe(200);
  });

  it('holds the per-process bound whoever asks', async () => {
    // Open now: 10 of Vic's first session, 1 of his second. Ada's session fills the rest.
    const ada = await sessionCookie('ada@example.com', PASSWORD);
    expect((await connect(ada)).response.status).toBe(200);
    expect((await connect(ada)).response.status).toBe(200);
    const refused = (await connect(ada)).response;
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: 'The server has as many live update streams open as it allows; this tab will try again shortly.',
    });
  });
});
