// Setting up one's own second factor, in two steps that each need something only the person
// has: the current password (to see a new secret), then a code from their authenticator app
// (to switch the second factor on). Between the steps, the secret's otpauth:// address goes to
// the browser and back with the code form, so the page can be shown again after a mistyped
// code, with or without JavaScript; it carries a keyed hash (`proof`) bound to the account,
// so the server only ever shows back an address it issued to that same person.
import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { recordAudit } from '@/lib/audit/audit';
import { type Auth, getAuthSecret } from '../auth';
import { apiErrorCode } from './api-errors';

export type EnrolmentSecret = {
  /** The otpauth:// address the QR code encodes. */
  totpURI: string;
  /** The same secret for typing in by hand: base32, in groups of four. */
  manualKey: string;
  proof: string;
};

/** The base32 secret of an otpauth:// address, grouped in fours for reading aloud or typing. */
export function manualKeyOf(totpURI: string): string {
  const secret = new URL(totpURI).searchParams.get('secret') ?? '';
  return (secret.match(/.{1,4}/g) ?? []).join(' ');
}

async function proofOf(userId: string, totpURI: string): Promise<string> {
  return createHmac('sha256', await getAuthSecret())
    .update(`two-factor-enrolment\n${userId}\n${totpURI}`)
    .digest('base64url');
}

/** The enrolment secret again, if `proof` shows the server issued `totpURI` to this account; null otherwise. */
export async function provenSecret(userId: string, totpURI: string, proof: string): Promise<EnrolmentSecret | null> {
  if (!totpURI.startsWith('otpauth://') || totpURI.length > 1000) return null;
  const expected = Buffer.from(await proofOf(userId, totpURI));
  const given = Buffer.from(proof);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { totpURI, manualKey: manualKeyOf(totpURI), proof };
}

export type StartOutcome = { outcome: 'secret'; secret: EnrolmentSecret } | { outcome: 'wrong-password' } | { outcome: 'already-on' };

/**
 * Step 1: with the current password, a new (not yet active) secret and backup codes are made.
 * Starting again replaces a secret that was never confirmed.
 */
export async function startEnrolment(auth: Auth, requestHeaders: Headers, userId: string, password: string): Promise<StartOutcome> {
  try {
    const result = await auth.api.enableTwoFactor({ body: { password, method: 'totp' }, headers: requestHeaders });
    if (result.method !== 'totp') throw new Error('better-auth returned no TOTP address');
    // The query is form-encoded ("Verification+Desk"); authenticator apps read the key-URI
    // format, where a space is %20, and would otherwise show the plus signs. A literal plus
    // elsewhere (an e-mail address in the label) is already %2B.
    const totpURI = result.totpURI.replaceAll('+', '%20');
    return { outcome: 'secret', secret: { totpURI, manualKey: manualKeyOf(totpURI), proof: await proofOf(userId, totpURI) } };
  } catch (error) {
    const code = apiErrorCode(error);
    if (code === 'INVALID_PASSWORD') return { outcome: 'wrong-password' };
    if (code === 'TOTP_ALREADY_ENABLED') return { outcome: 'already-on' };
    throw error;
  }
}

export type FinishOutcome = { outcome: 'enrolled'; backupCodes: string[] } | { outcome: 'wrong-code' } | { outcome: 'not-started' };

/**
 * Step 2: a correct code from the app switches the second factor on (better-auth then replaces
 * the session, its cookie included) and hands back the backup codes, to be shown this once.
 */
export async function finishEnrolment(auth: Auth, requestHeaders: Headers, userId: string, code: string): Promise<FinishOutcome> {
  try {
    await auth.api.verifyTOTP({ body: { code }, headers: requestHeaders });
  } catch (error) {
    const errorCode = apiErrorCode(error);
    if (errorCode === 'INVALID_CODE') return { outcome: 'wrong-code' };
    if (errorCode === 'TOTP_NOT_ENABLED') return { outcome: 'not-started' };
    throw error;
  }
  const { backupCodes } = await auth.api.viewBackupCodes({ body: { userId } });
  await recordAudit({ actorId: userId, action: 'two_factor.enrolled', target: { type: 'staff', id: userId } });
  return { outcome: 'enrolled', backupCodes };
}

/** Turning the second factor off again (only where REQUIRE_2FA is off): the password is asked once more. */
export async function turnOffTwoFactor(
  auth: Auth,
  requestHeaders: Headers,
  userId: string,
  password: string,
): Promise<'off' | 'wrong-password'> {
  try {
    await auth.api.disableTwoFactor({ body: { password }, headers: requestHeaders });
  } catch (error) {
    if (apiErrorCode(error) === 'INVALID_PASSWORD') return 'wrong-password';
    throw error;
  }
  await recordAudit({ actorId: userId, action: 'two_factor.disabled', target: { type: 'staff', id: userId } });
  return 'off';
}
