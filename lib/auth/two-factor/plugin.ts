// How better-auth's two-factor plugin is set up for staff: TOTP codes of 6 digits every 30
// seconds under the product's name, 10 one-time backup codes stored encrypted, and its own
// limits on wrong codes (5 per sign-in, after which the password is asked again; 10 in a row
// for one account lock its second factor for 15 minutes). Those counters live in the database
// (the pending sign-in in a signed cookie and a verification row), so every instance shares them.
import 'server-only';
import { twoFactor } from 'better-auth/plugins';

export const TOTP_ISSUER = 'Verification Desk';
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const BACKUP_CODE_COUNT = 10;
/** How long the code prompt waits after a correct password before the password is asked again. */
export const PENDING_SIGN_IN_SECONDS = 10 * 60;
export const LOCKOUT_FAILURES = 10;
export const LOCKOUT_MINUTES = 15;

export function twoFactorPlugin() {
  return twoFactor({
    issuer: TOTP_ISSUER,
    totpOptions: { digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS },
    backupCodeOptions: { amount: BACKUP_CODE_COUNT, storeBackupCodes: 'encrypted' },
    twoFactorCookieMaxAge: PENDING_SIGN_IN_SECONDS,
    accountLockout: { enabled: true, maxFailedAttempts: LOCKOUT_FAILURES, durationSeconds: LOCKOUT_MINUTES * 60 },
  });
}
