// PASSWORD_SIGN_IN=off holds inside better-auth itself, on a real (in-memory) database: whatever
// code asks for a password session gets none, while the same password works with the switch on.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { staffSessions } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff } from '@/lib/staff/staff-accounts';
import { getCliAuth } from './auth';

const PASSWORD = 'a long enough password here';
const SINGLE_SIGN_ON = {
  OIDC_ISSUER: 'http://127.0.0.1:9/',
  OIDC_CLIENT_ID: 'verification-desk',
  OIDC_CLIENT_SECRET: 'a-client-secret-for-the-tests',
};
let userId: string;

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  Object.assign(process.env, SINGLE_SIGN_ON);
  resetEnv();
  userId = await createStaff(null, { name: 'Pat Password', email: 'pat@example.com', role: 'viewer', password: PASSWORD });
  // A fresh database, better-auth with single sign-on and a password hash: 15 s on a loaded
  // two-core machine, so the default hook budget is too tight.
}, 120_000);

afterAll(async () => {
  for (const name of [...Object.keys(SINGLE_SIGN_ON), 'PASSWORD_SIGN_IN']) delete process.env[name];
  resetEnv();
  await closeDatabases();
});

const sessionsOf = async () => (await getDb()).select().from(staffSessions).where(eq(staffSessions.userId, userId));

describe('PASSWORD_SIGN_IN=off', () => {
  it('refuses a password session to any caller of better-auth, and the switch alone decides', async () => {
    const auth = await getCliAuth();
    process.env.PASSWORD_SIGN_IN = 'off';
    resetEnv();
    await expect(auth.api.signInEmail({ body: { email: 'pat@example.com', password: PASSWORD } })).rejects.toThrow(
      'Password sign-in is turned off',
    );
    expect(await sessionsOf()).toEqual([]);

    process.env.PASSWORD_SIGN_IN = 'on';
    resetEnv();
    const signedIn = await auth.api.signInEmail({ body: { email: 'pat@example.com', password: PASSWORD } });
    expect('user' in signedIn && signedIn.user.id).toBe(userId);
    expect(await sessionsOf()).toHaveLength(1);
  });
});
