// One network shared by a stranger and the staff (an office behind one NAT, an IPv6 /64, every
// client at once when TRUST_PROXY is wrong), with real better-auth password checks on a real
// database: a stranger spraying wrong guesses from that network closes it to the accounts that
// have never signed in from it, never to one that has, and each account's own wrong guesses
// from there stay throttled. The address is the client's as the server decided it
// (request-info.ts); 127.0.0.8 is the shared network, as in the browser tests' loopback clients.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changeOwnPassword } from '@/lib/account/change-password';
import { getDb } from '@/lib/db';
import { signInThrottle } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff } from '@/lib/staff/staff-accounts';
import { type Auth, getCliAuth } from './auth';
import { attemptSignIn, MAX_FAILURES_PER_NETWORK, PAIR_FREE_FAILURES } from './throttle';

const PASSWORD = 'correct horse battery staple';
const SHARED_NETWORK = '127.0.0.8';
const COOKIE = 'vdesk.session_token';

let auth: Auth;

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  process.env.APP_URL = 'http://localhost:3000';
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-shared-network-tests-0123456789';
  resetEnv();
  auth = await getCliAuth();
});

beforeEach(async () => {
  await (await getDb()).delete(signInThrottle);
});

afterAll(async () => {
  await closeDatabases();
});

/** A password sign-in from `ip` as the sign-in form makes it: throttled, then better-auth's check. */
function signIn(email: string, password: string, ip = SHARED_NETWORK) {
  return attemptSignIn(email, ip, async () => {
    const response = await auth.api.signInEmail({ body: { email, password }, asResponse: true });
    if (response.status !== 200) return null;
    const cookie = response.headers
      .getSetCookie()
      .find((line) => line.startsWith(`${COOKIE}=`))
      ?.split(';')[0];
    if (!cookie) throw new Error('signed in without a session cookie');
    return new Headers({ cookie });
  });
}

const newStaff = async (role: 'admin' | 'operator') => {
  const email = `${role}-${randomUUID()}@example.com`;
  return { email, id: await createStaff(null, { name: 'Sam Shared', email, role, password: PASSWORD }) };
};

/**
 * The stranger: wrong guesses at made-up addresses until the network's ceiling answers. They are
 * counted as the sign-in form counts them; their password checks (no account, so always wrong)
 * are not what is under test, and would only cost a hash each.
 */
async function strangerSpraysUntilRefused() {
  const outcomes: string[] = [];
  for (let i = 0; i < MAX_FAILURES_PER_NETWORK + 5; i++) {
    outcomes.push((await attemptSignIn(`stranger-${randomUUID()}@example.com`, SHARED_NETWORK, async () => null)).outcome);
  }
  expect(outcomes.slice(0, MAX_FAILURES_PER_NETWORK)).toEqual(Array(MAX_FAILURES_PER_NETWORK).fill('failed'));
  expect(outcomes.slice(MAX_FAILURES_PER_NETWORK)).toEqual(Array(5).fill('throttled'));
}

// Every password check is a real hash: on a loaded two-core machine a test takes a while.
describe("a stranger's failures on a shared network", { timeout: 60_000 }, () => {
  it('leave an account that signed in from that network open, while the network stays closed to others', async () => {
    const admin = await newStaff('admin');
    const colleague = await newStaff('operator');
    expect(await signIn(admin.email, PASSWORD)).toMatchObject({ outcome: 'signed-in' });

    await strangerSpraysUntilRefused();

    // The account that has signed in from here still gets a real password check, and in.
    expect(await signIn(admin.email, PASSWORD)).toMatchObject({ outcome: 'signed-in' });
    // An unknown address, and an account that never signed in from here, meet the ceiling.
    expect(await signIn(`stranger-${randomUUID()}@example.com`, PASSWORD)).toMatchObject({ outcome: 'throttled', scope: 'network' });
    expect(await signIn(colleague.email, PASSWORD)).toMatchObject({ outcome: 'throttled', scope: 'network' });
    // Elsewhere, the colleague is not affected.
    expect(await signIn(colleague.email, PASSWORD, '127.0.0.9')).toMatchObject({ outcome: 'signed-in' });
  });

  it("still throttles the known account's own wrong guesses from there after its free ones", async () => {
    const admin = await newStaff('admin');
    expect(await signIn(admin.email, PASSWORD)).toMatchObject({ outcome: 'signed-in' });
    await strangerSpraysUntilRefused();

    for (let i = 0; i < PAIR_FREE_FAILURES; i++) {
      expect(await signIn(admin.email, `not the password ${i}`), `guess ${i + 1}`).toEqual({ outcome: 'failed' });
    }
    expect(await signIn(admin.email, 'not the password either')).toMatchObject({ outcome: 'throttled', scope: 'pair' });
    expect(await signIn(admin.email, PASSWORD)).toMatchObject({ outcome: 'throttled', scope: 'pair' });
  });

  it('leave a password change from that network possible for the account that signed in there', async () => {
    const admin = await newStaff('admin');
    const signedIn = await signIn(admin.email, PASSWORD);
    if (signedIn.outcome !== 'signed-in') throw new Error(signedIn.outcome);
    const session = await auth.api.getSession({ headers: signedIn.value });
    if (!session) throw new Error('no session');

    await strangerSpraysUntilRefused();

    const changed = await changeOwnPassword(auth, {
      staff: { id: admin.id, email: admin.email, sessionId: session.session.id },
      currentPassword: PASSWORD,
      newPassword: 'a brand new password for the admin',
      endOthers: false,
      headers: signedIn.value,
      ip: SHARED_NETWORK,
    });
    expect(changed).toEqual({ outcome: 'changed', otherSessionsEnded: 0 });
  });
});
