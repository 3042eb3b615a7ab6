// The SSE route end to end: real better-auth sessions on a real database (in-memory PGlite, or PostgreSQL), the real
// route handler called with a Request, its body read frame by frame.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCliAuth } from '@/lib/auth/auth';
import { staffFromHeaders } from '@/lib/auth/session';
import { getDb } from '@/lib/db';
import { staffSessions } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { currentEventId, getLiveBus, publishVerificationChange } from '@/lib/live';
import { streamSessionStillValid } from '@/lib/live/session-check';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff, disableStaff } from '@/lib/staff/staff-accounts';
import { frameReader } from '@/test/support/live';
import { sessionCookie } from '@/test/support/session-cookie';
import { GET } from './route';

const PASSWORD = 'correct horse battery staple';
const URL_BASE = 'http://localhost:3000/api/events';
const context = { params: Promise.resolve({}) };

let adminId: string;

function connect(headers: Record<string, string> = {}, url = URL_BASE) {
  const abort = new AbortController();
  const request = new Request(url, { headers, signal: abort.signal });
  return { abort, response: GET(request, context) };
}

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  process.env.APP_URL = 'http://localhost:3000';
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-live-events-0123456789';
  resetEnv();
  adminId = await createStaff(null, { name: 'Ada Admin', email: 'ada@example.com', role: 'admin', password: PASSWORD });
  await createStaff(adminId, { name: 'Vic Viewer', email: 'vic@example.com', role: 'viewer', password: PASSWORD });
});

afterAll(async () => {
  await closeDatabases();
});

describe('GET /api/events', () => {
  it('answers 401 JSON without a session, and opens no stream', async () => {
    const listeners = getLiveBus().listenerCount();
    const response = await connect().response;
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ error: 'Sign in to continue.' });
    expect(getLiveBus().listenerCount()).toBe(listeners);
  });

  it('answers 401 for a made-up or signed-out session cookie', async () => {
    const forged = await connect({ cookie: 'vdesk.session_token=forged.value' }).response;
    expect(forged.status).toBe(401);

    const cookie = await sessionCookie('ada@example.com', PASSWORD);
    const auth = await getCliAuth();
    await auth.api.signOut({ headers: new Headers({ cookie }) });
    expect((await connect({ cookie }).response).status).toBe(401);
  });

  it('streams status changes to a signed-in viewer: headers, retry, then id/event/data frames', async () => {
    const cookie = await sessionCookie('vic@example.com', PASSWORD);
    const { abort, response: pending } = connect({ cookie });
    const response = await pending;

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(response.headers.get('x-accel-buffering')).toBe('no');

    const frames = frameReader(response.body!);
    expect((await frames.next()).retry).toBe('2000');

    const event = await publishVerificationChange({ verificationId: 'v-live-1', status: 'completed' });
    const frame = await frames.next();
    expect(frame.id).toBe(String(event.id));
    expect(frame.event).toBe('verification');
    // Ids and statuses only: nothing else travels.
    expect(JSON.parse(frame.data!)).toEqual({ verificationId: 'v-live-1', status: 'completed' });
    expect(Object.keys(JSON.parse(frame.data!))).toEqual(['verificationId', 'status']);

    abort.abort();
  });

  it('replays the events after Last-Event-ID on a reconnect, then continues live', async () => {
    const cookie = await sessionCookie('ada@example.com', PASSWORD);
    const seen = await publishVerificationChange({ verificationId: 'v-r-0', status: 'pending' });
    const missed1 = await publishVerificationChange({ verificationId: 'v-r-1', status: 'completed' });
    const missed2 = await publishVerificationChange({ verificationId: 'v-r-2', status: 'failed' });

    const { abort, response } = connect({ cookie, 'Last-Event-ID': String(seen.id) });
    const frames = frameReader((await response).body!);
    await frames.next(); // retry
    const first = await frames.next();
    const second = await frames.next();
    expect([first.id, second.id]).toEqual([String(missed1.id), String(missed2.id)]);
    expect(JSON.parse(first.data!)).toEqual({ verificationId: 'v-r-1', status: 'completed' });

    const live = await publishVerificationChange({ verificationId: 'v-r-3', status: 'expired' });
    expect((await frames.next()).id).toBe(String(live.id));
    abort.abort();
  });

  it('replays from ?lastEventId= on a first connection (the id the page was rendered with)', async () => {
    const cookie = await sessionCookie('ada@example.com', PASSWORD);
    const renderedAt = await currentEventId();
    const between = await publishVerificationChange({ verificationId: 'v-q-1', status: 'completed' });
    const { abort, response } = connect({ cookie }, `${URL_BASE}?lastEventId=${renderedAt}`);
    const frames = frameReader((await response).body!);
    await frames.next();
    expect((await frames.next()).id).toBe(String(between.id));
    abort.abort();
  });

  it('releases its subscription when the client disconnects', async () => {
    const cookie = await sessionCookie('ada@example.com', PASSWORD);
    const listeners = getLiveBus().listenerCount();
    const { abort, response } = connect({ cookie });
    const frames = frameReader((await response).body!);
    await frames.next();
    expect(getLiveBus().listenerCount()).toBe(listeners + 1);

    abort.abort();
    expect(getLiveBus().listenerCount()).toBe(listeners);
    let ended = false;
    for (let i = 0; i < 10 && !ended; i += 1) ended = await frames.ended(200);
    expect(ended).toBe(true);
  });

  it('refuses a disabled account', async () => {
    const id = await createStaff(adminId, { name: 'Dan Disabled', email: 'dan@example.com', role: 'operator', password: PASSWORD });
    const cookie = await sessionCookie('dan@example.com', PASSWORD);
    await disableStaff(adminId, id);
    expect((await connect({ cookie }).response).status).toBe(401);
  });
});

describe('streamSessionStillValid (the periodic check of an open stream)', () => {
  async function sessionOf(cookie: string) {
    const staff = await staffFromHeaders(new Headers({ cookie }));
    if (!staff) throw new Error('no session');
    return staff.sessionId;
  }

  it('holds for a live session and fails once it is signed out', async () => {
    const cookie = await sessionCookie('ada@example.com', PASSWORD);
    const headers = new Headers({ cookie });
    const sessionId = await sessionOf(cookie);
    expect(await streamSessionStillValid(headers, sessionId)).toBe(true);
    expect(await streamSessionStillValid(headers, 'another-session')).toBe(false);
    await (await getCliAuth()).api.signOut({ headers });
    expect(await streamSessionStillValid(headers, sessionId)).toBe(false);
  });

  it('fails once the account is disabled', async () => {
    const id = await createStaff(adminId, { name: 'Olga Operator', email: 'olga@example.com', role: 'operator', password: PASSWORD });
    const cookie = await sessionCookie('olga@example.com', PASSWORD);
    const sessionId = await sessionOf(cookie);
    await disableStaff(adminId, id);
    expect(await streamSessionStillValid(new Headers({ cookie }), sessionId)).toBe(false);
  });

  it('does not extend an idle session (an open tab is not activity)', async () => {
    const cookie = await sessionCookie('vic@example.com', PASSWORD);
    const sessionId = await sessionOf(cookie);
    const db = await getDb();
    // Old enough that any ordinary read would refresh it (updateAge is 15 minutes).
    const expiresAt = new Date(Date.now() + 60 * 60 * 1000);
    await db.update(staffSessions).set({ expiresAt }).where(eq(staffSessions.id, sessionId));

    expect(await streamSessionStillValid(new Headers({ cookie }), sessionId)).toBe(true);

    const [after] = await db.select().from(staffSessions).where(eq(staffSessions.id, sessionId));
    expect(after!.expiresAt.getTime()).toBe(expiresAt.getTime());
  });
});
