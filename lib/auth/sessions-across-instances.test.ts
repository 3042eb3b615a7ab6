// Disabling a staff member on one instance ends their sessions and their open live streams on
// every other instance at once. This process plays instance B: it validates (and caches) the
// member's session and holds their live stream open through the real route handler. Instance A
// is another process on the same PostgreSQL server: the users CLI, run for real
// (`tsx --conditions=react-server lib/staff/cli.ts disable`), which disables the account
// through the same code as the staff page.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as openEvents } from '@/app/api/events/route';
import { getDb } from '@/lib/db';
import { staffUsers } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff } from '@/lib/staff/staff-accounts';
import { type FrameReader, frameReader } from '@/test/support/live';
import { sessionCookie } from '@/test/support/session-cookie';
import { staffFromHeaders } from './session';

const TSX = path.join(process.cwd(), 'node_modules/tsx/dist/cli.mjs');
const USERS_CLI = path.join(process.cwd(), 'lib/staff/cli.ts');
const PASSWORD = 'correct horse battery staple';
/** Far shorter than a stream's periodic session check (SESSION_CHECK_MS) and than a minute. */
const GENEROUS_WAIT_MS = 15_000;

type Run = { code: number; stdout: string; stderr: string };

/** Runs the users CLI as another instance on the same server. */
function usersOnOtherInstance(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [TSX, '--conditions=react-server', USERS_CLI, ...args],
      { cwd: process.cwd(), env: { ...process.env }, timeout: 90_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** True once the stream ends within `ms`, reading (and dropping) any frame before that, heartbeats included. */
async function endsWithin(frames: FrameReader, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      await frames.next(deadline - Date.now());
    } catch (error) {
      return String(error).includes('stream ended');
    }
  }
  return false;
}

beforeAll(async () => {
  process.env.APP_URL = 'http://localhost:3000';
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-sessions-across-instances-0123456789';
  resetEnv();
  if (!process.env.DATABASE_URL) return;
  const adminId = await createStaff(null, { name: 'Ada Admin', email: 'ada@example.com', role: 'admin', password: PASSWORD });
  await createStaff(adminId, { name: 'Vera Viewer', email: 'vera@example.com', role: 'viewer', password: PASSWORD });
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  await closeDatabases();
});

// Two instances need a server: an embedded data directory belongs to one process.
describe.skipIf(!process.env.DATABASE_URL)('disabling an account on another instance', { timeout: 120_000 }, () => {
  it("ends the account's cached session and its open live stream on this instance at once", async () => {
    const cookie = await sessionCookie('vera@example.com', PASSWORD);
    const headers = new Headers({ cookie });

    // The live stream, open on this instance.
    const abort = new AbortController();
    const response = await openEvents(new Request('http://localhost:3000/api/events', { headers, signal: abort.signal }), {
      params: Promise.resolve({}),
    });
    expect(response.status).toBe(200);
    const frames = frameReader(response.body!);
    expect((await frames.next()).retry).toBeDefined();

    // Every look on this instance happens at the same moment, so the cache's TTL can never end
    // the entry: only the other instance's notice can.
    const validatedAt = Date.now();
    const staffHere = async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: validatedAt });
      try {
        return await staffFromHeaders(headers);
      } finally {
        vi.useRealTimers();
      }
    };
    expect((await staffHere())?.name).toBe('Vera Viewer');

    // Control: a change no one announces (raw SQL, as if behind the product's back) is not seen
    // here, because the validation is cached.
    const db = await getDb();
    await db.update(staffUsers).set({ name: 'Vera Unannounced' }).where(eq(staffUsers.email, 'vera@example.com'));
    expect((await staffHere())?.name).toBe('Vera Viewer');

    const disabled = await usersOnOtherInstance('disable', '--email', 'vera@example.com');
    expect(disabled.stderr).toBe('');
    expect(disabled.code).toBe(0);

    // The notice takes a moment to travel; without it the entry would stay, and the stream would
    // wait for its periodic check (a minute).
    await vi.waitFor(async () => expect(await staffHere()).toBeNull(), { timeout: GENEROUS_WAIT_MS, interval: 20 });
    expect(await endsWithin(frames, GENEROUS_WAIT_MS)).toBe(true);
    abort.abort();
  });
});
