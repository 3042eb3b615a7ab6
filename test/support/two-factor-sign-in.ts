// Test support only: accounts with a second factor set up through real better-auth, the password
// step of their sign-in, and codes computed from the enrolment secret with otpauth, as an
// authenticator app would.
import { randomUUID } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { expect } from 'vitest';
import type { Auth } from '@/lib/auth/auth';
import { finishEnrolment, startEnrolment } from '@/lib/auth/two-factor/enrolment';
import { createStaff } from '@/lib/staff/staff-accounts';

/** The cookies a response sets, as the browser would send them back (expired ones dropped). */
export function cookiesOf(response: Response): Headers {
  const pairs = response.headers
    .getSetCookie()
    .filter((line) => !/max-age=0/i.test(line))
    .map((line) => line.split(';')[0]!);
  return new Headers({ cookie: pairs.join('; ') });
}

/** A correct password: for an account with a second factor, a pending sign-in in its cookie. */
export async function passwordStep(auth: Auth, email: string, password: string) {
  const response = await auth.api.signInEmail({ body: { email, password }, asResponse: true });
  expect(response.status).toBe(200);
  return { body: (await response.json()) as Record<string, unknown>, headers: cookiesOf(response) };
}

export function totpOf(uri: string) {
  return OTPAuth.URI.parse(uri) as OTPAuth.TOTP;
}

/** A six-digit code that is wrong now, and in the steps either side that the server also accepts. */
export function wrongCode(totp: OTPAuth.TOTP, from = 0): string {
  const accepted = new Set([-1, 0, 1].map((step) => totp.generate({ timestamp: Date.now() + step * 30_000 })));
  let code = from;
  while (accepted.has(String(code).padStart(6, '0'))) code += 1;
  return String(code).padStart(6, '0');
}

/** A new password account with a second factor set up, and its authenticator. */
export async function enrolledAccount(auth: Auth, adminId: string, password: string) {
  const email = `staff-${randomUUID()}@example.com`;
  const id = await createStaff(adminId, { name: 'Tess Two', email, role: 'operator', password });
  const { headers } = await passwordStep(auth, email, password);
  const started = await startEnrolment(auth, headers, id, password);
  if (started.outcome !== 'secret') throw new Error(started.outcome);
  const totp = totpOf(started.secret.totpURI);
  const finished = await finishEnrolment(auth, headers, id, totp.generate());
  if (finished.outcome !== 'enrolled') throw new Error(finished.outcome);
  return { id, email, totp, backupCodes: finished.backupCodes };
}
