// Wrong second-factor codes at sign-in, through real better-auth on a real database (in-memory
// PGlite, and PostgreSQL in the `postgres` project), with codes computed as an authenticator app
// would: each one is audited and logged under the account's id without the code or the e-mail
// address, the lock after 10 in a row is audited once, and no burst of simultaneous guesses
// across many pending sign-ins gets more codes judged than that lock allows.
import { randomInt } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEntries, staffTwoFactors } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff } from '@/lib/staff/staff-accounts';
import { captureLogs, stopCapturingLogs } from '@/test/support/logs';
import { enrolledAccount, passwordStep, wrongCode } from '@/test/support/two-factor-sign-in';
import { type Auth, getCliAuth } from '../auth';
import { LOCKOUT_FAILURES, LOCKOUT_MINUTES } from './plugin';
import { answerChallenge, type ChallengeOutcome } from './sign-in-challenge';

const PASSWORD = 'correct horse battery staple';
let auth: Auth;
let adminId: string;

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  process.env.APP_URL = 'http://localhost:3000';
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-wrong-code-tests-0123456789';
  resetEnv();
  auth = await getCliAuth();
  adminId = await createStaff(null, { name: 'Ada Admin', email: 'ada@example.com', role: 'admin', password: PASSWORD });
});

afterEach(() => {
  stopCapturingLogs();
});

afterAll(async () => {
  await closeDatabases();
});

const auditOf = async (action: string, userId: string) =>
  (await getDb())
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.action, action), eq(auditEntries.targetId, userId)))
    .orderBy(asc(auditEntries.at));

const failuresInARow = async (userId: string) =>
  (await (await getDb()).select().from(staffTwoFactors).where(eq(staffTwoFactors.userId, userId)))[0]!.failedVerificationCount;

describe('wrong codes at sign-in', { timeout: 120_000 }, () => {
  it('are audited and logged under the account, as is the lock after 10 in a row (the password again after 5, even for the right code); no code, cookie or e-mail in the log', async () => {
    const { id, email, totp, backupCodes } = await enrolledAccount(auth, adminId, PASSWORD);
    const logs = captureLogs();
    const tried: string[] = [];
    const guess = async (headers: Headers) => {
      const code = wrongCode(totp, randomInt(100_000, 990_000));
      tried.push(code);
      return answerChallenge(auth, headers, 'totp', code);
    };

    const first = await passwordStep(auth, email, PASSWORD);
    for (let attempt = 1; attempt <= 4; attempt += 1)
      expect(await guess(first.headers), `attempt ${attempt}`).toEqual({ outcome: 'wrong-code' });
    const wrongBackup = `${backupCodes[0]!.slice(6)}-${backupCodes[0]!.slice(0, 5)}`;
    expect(await answerChallenge(auth, first.headers, 'backup', wrongBackup)).toEqual({ outcome: 'wrong-code' });
    // The sixth try of one pending sign-in is not judged, even with the right code: the password comes first again.
    const rightTooLate = totp.generate();
    expect(await answerChallenge(auth, first.headers, 'totp', rightTooLate)).toEqual({ outcome: 'start-again', reason: 'too-many' });
    const second = await passwordStep(auth, email, PASSWORD);
    for (let attempt = 6; attempt <= 10; attempt += 1)
      expect(await guess(second.headers), `attempt ${attempt}`).toEqual({ outcome: 'wrong-code' });
    const third = await passwordStep(auth, email, PASSWORD);
    const right = totp.generate();
    expect(await answerChallenge(auth, third.headers, 'totp', right)).toEqual({ outcome: 'locked' });

    const failed = await auditOf('two_factor.failed', id);
    expect(failed.map((entry) => [entry.actorId, entry.targetType, entry.targetId])).toEqual(Array(10).fill([id, 'staff', id]));
    expect(failed.map((entry) => entry.details)).toEqual([
      ...[1, 2, 3, 4].map((inARow) => ({ method: 'totp', inARow })),
      { method: 'backup', inARow: 5 },
      ...[6, 7, 8, 9, 10].map((inARow) => ({ method: 'totp', inARow })),
    ]);
    const locked = await auditOf('two_factor.locked', id);
    expect(locked).toEqual([
      expect.objectContaining({ actorId: id, targetType: 'staff', targetId: id, details: { minutes: LOCKOUT_MINUTES } }),
    ]);

    const mine = logs.records().filter((record) => record.userId === id);
    expect(mine.filter((record) => /wrong second-factor code was entered/.test(record.msg))).toHaveLength(10);
    expect(mine.filter((record) => /is locked after too many wrong codes/.test(record.msg))).toHaveLength(1);
    expect(mine.filter((record) => /sent back to the password/.test(record.msg))).toHaveLength(1);
    const text = logs.text();
    for (const code of [...tried, rightTooLate, right]) expect(text).not.toMatch(new RegExp(`(?<!\\d)${code}(?!\\d)`));
    const cookie = /vdesk\.two_factor=([^;]+)/.exec(first.headers.get('cookie')!)![1]!;
    const pendingId = decodeURIComponent(cookie).split('.')[0]!;
    for (const secret of [email, wrongBackup, wrongBackup.replace('-', ''), 'two_factor=', cookie, pendingId]) {
      expect(text).not.toContain(secret);
    }
  });

  it('judge no more of them than the lock allows when many pending sign-ins guess at once', async () => {
    const { id, email, totp } = await enrolledAccount(auth, adminId, PASSWORD);
    // More pending sign-ins than the lock allows codes: one wave alone would go past it unguarded.
    // Each is a real password check (scrypt), so no more than that.
    const pending = await Promise.all(Array.from({ length: LOCKOUT_FAILURES + 5 }, () => passwordStep(auth, email, PASSWORD)));

    // Waves of simultaneous wrong guesses, one per pending sign-in, until the account is locked.
    const answers: ChallengeOutcome[] = [];
    for (let wave = 0; wave < 40 && !answers.some((answer) => answer.outcome === 'locked'); wave += 1) {
      answers.push(...(await Promise.all(pending.map(({ headers }) => answerChallenge(auth, headers, 'totp', wrongCode(totp))))));
    }
    const judged = answers.filter((answer) => answer.outcome === 'wrong-code');
    expect(answers.some((answer) => answer.outcome === 'locked')).toBe(true);
    expect(judged).toHaveLength(LOCKOUT_FAILURES);
    expect(await failuresInARow(id)).toBe(LOCKOUT_FAILURES);
    expect(await auditOf('two_factor.failed', id)).toHaveLength(LOCKOUT_FAILURES);
    expect(await auditOf('two_factor.locked', id)).toHaveLength(1);
    // Whatever was not judged says so: the lock, another check of the same account under way, or
    // a pending sign-in that has had its 5 tries.
    expect(answers.filter((answer) => !['wrong-code', 'busy', 'locked', 'start-again'].includes(answer.outcome))).toEqual([]);
  });
});
