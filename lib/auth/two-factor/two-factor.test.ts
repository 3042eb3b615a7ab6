// Two-factor authentication through real better-auth on a real database (in-memory PGlite, and
// PostgreSQL in the `postgres` project): enrolment with the password and a first code, the code
// prompt after a correct password with its limits on wrong codes, backup codes that work once,
// an administrator's reset, and who REQUIRE_2FA sends to enrolment. Codes are computed from the
// enrolment secret with otpauth, as an authenticator app would.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEntries, staffAccounts, staffSessions, staffTwoFactors, staffUsers } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff, StaffError } from '@/lib/staff/staff-accounts';
import {
  cookiesOf,
  enrolledAccount as enrolledAccountOf,
  passwordStep as passwordStepOf,
  totpOf,
  wrongCode,
} from '@/test/support/two-factor-sign-in';
import { type Auth, getCliAuth } from '../auth';
import { staffFromHeaders } from '../session';
import { finishEnrolment, provenSecret, startEnrolment, turnOffTwoFactor } from './enrolment';
import { mustEnrolTwoFactor } from './requirement';
import { resetTwoFactor } from './reset';
import { answerChallenge } from './sign-in-challenge';

const PASSWORD = 'correct horse battery staple';
let auth: Auth;
let adminId: string;

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  process.env.APP_URL = 'http://localhost:3000';
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-two-factor-tests-0123456789';
  delete process.env.REQUIRE_2FA;
  resetEnv();
  auth = await getCliAuth();
  adminId = await createStaff(null, { name: 'Ada Admin', email: 'ada@example.com', role: 'admin', password: PASSWORD });
});

afterAll(async () => {
  delete process.env.REQUIRE_2FA;
  resetEnv();
  await closeDatabases();
});

const passwordStep = (email: string, password = PASSWORD) => passwordStepOf(auth, email, password);
const enrolledAccount = () => enrolledAccountOf(auth, adminId, PASSWORD);

const auditOf = async (action: string, userId: string) =>
  (await getDb())
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.action, action), eq(auditEntries.targetId, userId)));

describe('enrolment', () => {
  it('needs the current password, then a correct code; only then is the second factor on, with 10 backup codes and an audit entry', async () => {
    const email = `staff-${randomUUID()}@example.com`;
    const id = await createStaff(adminId, { name: 'Eno Rol', email, role: 'viewer', password: PASSWORD });
    const { headers } = await passwordStep(email);

    expect(await startEnrolment(auth, headers, id, 'not the password at all')).toEqual({ outcome: 'wrong-password' });
    const started = await startEnrolment(auth, headers, id, PASSWORD);
    if (started.outcome !== 'secret') throw new Error(started.outcome);
    const { totpURI, manualKey } = started.secret;
    const totp = totpOf(totpURI);
    expect(totp.issuer).toBe('Verification Desk');
    expect(totp.digits).toBe(6);
    expect(totp.period).toBe(30);
    expect(manualKey.replaceAll(' ', '')).toBe(totp.secret.base32);
    expect(manualKey).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);

    const user = async () => (await (await getDb()).select().from(staffUsers).where(eq(staffUsers.id, id)))[0]!;
    expect(await finishEnrolment(auth, headers, id, wrongCode(totp))).toEqual({ outcome: 'wrong-code' });
    expect((await user()).twoFactorEnabled).toBe(false);

    const finished = await finishEnrolment(auth, headers, id, totp.generate());
    if (finished.outcome !== 'enrolled') throw new Error(finished.outcome);
    expect(finished.backupCodes).toHaveLength(10);
    expect(new Set(finished.backupCodes).size).toBe(10);
    expect((await user()).twoFactorEnabled).toBe(true);
    expect(await auditOf('two_factor.enrolled', id)).toHaveLength(1);
    // Stored encrypted: neither the secret nor a backup code is readable in the table.
    const [row] = await (await getDb()).select().from(staffTwoFactors).where(eq(staffTwoFactors.userId, id));
    expect(row!.secret).not.toContain(totp.secret.base32);
    expect(row!.backupCodes).not.toContain(finished.backupCodes[0]);
  });

  it('shows back only an enrolment address the server issued to that same account', async () => {
    const email = `staff-${randomUUID()}@example.com`;
    const id = await createStaff(adminId, { name: 'Pro Of', email, role: 'viewer', password: PASSWORD });
    const { headers } = await passwordStep(email);
    const started = await startEnrolment(auth, headers, id, PASSWORD);
    if (started.outcome !== 'secret') throw new Error(started.outcome);
    const { totpURI, proof } = started.secret;
    expect(await provenSecret(id, totpURI, proof)).toEqual(started.secret);
    expect(await provenSecret(adminId, totpURI, proof)).toBeNull();
    expect(await provenSecret(id, totpURI.replace('secret=', 'secret=A'), proof)).toBeNull();
    expect(await provenSecret(id, totpURI, `${proof.slice(0, -1)}x`)).toBeNull();
    expect(await provenSecret(id, 'javascript:alert(1)', proof)).toBeNull();
  });

  it('turns off again only with the password, and is audited', async () => {
    const { id, email, totp } = await enrolledAccount();
    const { headers: pending } = await passwordStep(email);
    const signedIn = await answerChallenge(auth, pending, 'totp', totp.generate());
    expect(signedIn.outcome).toBe('signed-in');
    // A fresh session for this account (answerChallenge set its cookie on a response we do not see here).
    const [session] = await (await getDb()).select().from(staffSessions).where(eq(staffSessions.userId, id));
    const headers = new Headers({ cookie: await signedCookie(session!.token) });
    expect(await turnOffTwoFactor(auth, headers, id, 'wrong password, surely')).toBe('wrong-password');
    expect(await turnOffTwoFactor(auth, headers, id, PASSWORD)).toBe('off');
    const [user] = await (await getDb()).select().from(staffUsers).where(eq(staffUsers.id, id));
    expect(user!.twoFactorEnabled).toBe(false);
    expect(await auditOf('two_factor.disabled', id)).toHaveLength(1);
  });
});

/** better-auth's session cookie for a token, signed as it signs it. */
async function signedCookie(token: string): Promise<string> {
  const { makeSignature } = await import('better-auth/crypto');
  const signature = await makeSignature(token, process.env.BETTER_AUTH_SECRET!);
  return `vdesk.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
}

describe('the code prompt after the password', () => {
  it('gives no session for the password alone; a correct code signs in, a wrong one is refused', async () => {
    const { id, email, totp } = await enrolledAccount();
    await (await getDb()).delete(staffSessions).where(eq(staffSessions.userId, id));
    const { body, headers } = await passwordStep(email);
    expect(body.twoFactorRedirect).toBe(true);
    expect(headers.get('cookie')).not.toMatch(/session_token=/);
    expect(headers.get('cookie')).toMatch(/vdesk\.two_factor=/);
    expect(await (await getDb()).select().from(staffSessions).where(eq(staffSessions.userId, id))).toHaveLength(0);

    expect(await answerChallenge(auth, headers, 'totp', wrongCode(totp))).toEqual({ outcome: 'wrong-code' });
    expect(await answerChallenge(auth, headers, 'totp', totp.generate())).toEqual({ outcome: 'signed-in', userId: id });
    expect(await (await getDb()).select().from(staffSessions).where(eq(staffSessions.userId, id))).toHaveLength(1);
    // The pending sign-in is used up.
    expect(await answerChallenge(auth, headers, 'totp', totp.generate())).toEqual({ outcome: 'start-again', reason: 'expired' });
  });

  it('without a pending sign-in (no cookie, or a forged one) a code leads nowhere', async () => {
    const { totp } = await enrolledAccount();
    expect(await answerChallenge(auth, new Headers(), 'totp', totp.generate())).toEqual({ outcome: 'start-again', reason: 'expired' });
    const forged = new Headers({ cookie: 'vdesk.two_factor=2fa-abc.forgedsignature' });
    expect(await answerChallenge(auth, forged, 'totp', totp.generate())).toEqual({ outcome: 'start-again', reason: 'expired' });
  });

  it('a backup code works once; its second use is refused; each use is audited', async () => {
    const { id, email, backupCodes } = await enrolledAccount();
    const first = await passwordStep(email);
    expect(await answerChallenge(auth, first.headers, 'backup', backupCodes[3]!)).toEqual({ outcome: 'signed-in', userId: id });
    expect(await auditOf('two_factor.backup_code_used', id)).toHaveLength(1);

    const second = await passwordStep(email);
    expect(await answerChallenge(auth, second.headers, 'backup', backupCodes[3]!)).toEqual({ outcome: 'wrong-code' });
    expect(await answerChallenge(auth, second.headers, 'backup', backupCodes[4]!)).toEqual({ outcome: 'signed-in', userId: id });
    expect(await auditOf('two_factor.backup_code_used', id)).toHaveLength(2);
  });
  // Wrong codes, the password again after 5 and the lock after 10: wrong-codes.test.ts.
});

describe('resetTwoFactor', () => {
  it("removes a colleague's second factor, ends their sessions and is audited with ids", async () => {
    const { id, email } = await enrolledAccount();
    await passwordStep(email); // a pending sign-in
    expect((await (await getDb()).select().from(staffSessions).where(eq(staffSessions.userId, id))).length).toBeGreaterThan(0);

    await resetTwoFactor(adminId, id);
    const db = await getDb();
    expect((await db.select().from(staffUsers).where(eq(staffUsers.id, id)))[0]!.twoFactorEnabled).toBe(false);
    expect(await db.select().from(staffTwoFactors).where(eq(staffTwoFactors.userId, id))).toHaveLength(0);
    expect(await db.select().from(staffSessions).where(eq(staffSessions.userId, id))).toHaveLength(0);
    const [entry] = await auditOf('two_factor.reset', id);
    expect(entry).toMatchObject({ actorId: adminId, targetType: 'staff', targetId: id });

    // The password alone signs in again.
    const { body } = await passwordStep(email);
    expect(body.twoFactorRedirect).toBeUndefined();
    expect(body.token).toEqual(expect.any(String));
  });

  it('refuses one’s own, an account without a second factor and an unknown account', async () => {
    const { id } = await enrolledAccount();
    await expect(resetTwoFactor(id, id)).rejects.toThrow(StaffError);
    const plainId = await createStaff(adminId, {
      name: 'No Tfa',
      email: `staff-${randomUUID()}@example.com`,
      role: 'viewer',
      password: PASSWORD,
    });
    await expect(resetTwoFactor(adminId, plainId)).rejects.toThrow('They have no second factor to reset.');
    await expect(resetTwoFactor(adminId, 'no-such-account')).rejects.toThrow('That account does not exist.');
    expect(await auditOf('two_factor.reset', plainId)).toHaveLength(0);
  });
});

describe('REQUIRE_2FA', () => {
  const withRequirement = (value: string | undefined) => {
    if (value === undefined) delete process.env.REQUIRE_2FA;
    else process.env.REQUIRE_2FA = value;
    resetEnv();
  };

  it('sends a password account without a second factor to enrolment; not one with it, nor an SSO-only account, nor anyone when off', async () => {
    const db = await getDb();
    const plainId = await createStaff(adminId, {
      name: 'Pat Plain',
      email: `staff-${randomUUID()}@example.com`,
      role: 'viewer',
      password: PASSWORD,
    });
    const { id: enrolledId } = await enrolledAccount();
    const ssoId = randomUUID();
    await db.insert(staffUsers).values({ id: ssoId, name: 'Sam Sso', email: `sso-${ssoId}@example.com`, role: 'viewer' });
    await db.insert(staffAccounts).values({ id: randomUUID(), accountId: 'sub-1', providerId: 'company-sso', userId: ssoId });
    try {
      withRequirement('on');
      expect(await mustEnrolTwoFactor(db, { id: plainId, twoFactorEnabled: false })).toBe(true);
      expect(await mustEnrolTwoFactor(db, { id: enrolledId, twoFactorEnabled: true })).toBe(false);
      expect(await mustEnrolTwoFactor(db, { id: ssoId, twoFactorEnabled: false })).toBe(false);
      withRequirement(undefined);
      expect(await mustEnrolTwoFactor(db, { id: plainId, twoFactorEnabled: false })).toBe(false);
    } finally {
      withRequirement(undefined);
    }
  });

  it('marks the signed-in session of such an account, and the mark goes once it has enrolled', async () => {
    const email = `staff-${randomUUID()}@example.com`;
    const id = await createStaff(adminId, { name: 'Mia Must', email, role: 'operator', password: PASSWORD });
    try {
      withRequirement('on');
      const signIn = await auth.api.signInEmail({ body: { email, password: PASSWORD }, asResponse: true });
      const headers = cookiesOf(signIn);
      expect(await staffFromHeaders(headers)).toMatchObject({ id, mustEnrolTwoFactor: true });

      const started = await startEnrolment(auth, headers, id, PASSWORD);
      if (started.outcome !== 'secret') throw new Error(started.outcome);
      await finishEnrolment(auth, headers, id, totpOf(started.secret.totpURI).generate());
      const [session] = await (await getDb()).select().from(staffSessions).where(eq(staffSessions.userId, id));
      const fresh = new Headers({ cookie: await signedCookie(session!.token) });
      const staff = await staffFromHeaders(fresh);
      expect(staff?.id).toBe(id);
      expect(staff?.mustEnrolTwoFactor).toBeUndefined();
    } finally {
      withRequirement(undefined);
    }
  });
});
