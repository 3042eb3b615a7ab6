'use server';
// Sign-in and first-run setup. These are the only entry points without a session, so they
// validate everything, throttle failures and answer alike for unknown accounts and wrong
// passwords.
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { recordAudit } from '@/lib/audit/audit';
import { formDataArg, textField } from '@/lib/forms/action-input';
import { findStaffIdByEmail, StaffError } from '@/lib/staff/staff-accounts';
import { getAuth } from './auth';
import { clientAddress, safeReturnPath } from './request-info';
import { setupSchema, signInSchema } from './schemas';
import { getCurrentStaff } from './session';
import { forgetValidatedSessions } from './session-cache';
import { completeSetup, SetupClosedError } from './setup';
import { attemptSignIn } from './throttle';

export type SignInState = {
  status: 'idle' | 'failed';
  email: string;
  message?: string;
  fieldErrors?: Record<string, string[] | undefined>;
};

const WRONG_CREDENTIALS = 'Incorrect e-mail address or password.';

export async function signInAction(_previous: SignInState, formDataArgument: FormData): Promise<SignInState> {
  const formData = formDataArg(formDataArgument);
  const typedEmail = textField(formData, 'email').slice(0, 254);
  const parsed = signInSchema.safeParse({ email: textField(formData, 'email'), password: textField(formData, 'password') });
  if (!parsed.success) {
    return { status: 'failed', email: typedEmail, fieldErrors: z.flattenError(parsed.error).fieldErrors };
  }
  const { email, password } = parsed.data;
  const requestHeaders = await headers();
  const ip = clientAddress(requestHeaders);

  const auth = await getAuth();
  // A new session at every sign-in: end the one this browser may still hold.
  if (await getCurrentStaff()) {
    await auth.api.signOut({ headers: requestHeaders }).catch(() => undefined);
    forgetValidatedSessions();
  }

  const attempt = await attemptSignIn(email, ip, async () => {
    try {
      const result = await auth.api.signInEmail({ body: { email, password, rememberMe: true }, headers: requestHeaders });
      return result.user.id;
    } catch {
      return null; // unknown account, wrong password or disabled account: one answer for all three
    }
  });
  if (attempt.outcome === 'throttled') {
    await recordAudit({ actorId: await findStaffIdByEmail(email), action: 'sign_in.throttled' });
    const minutes = Math.ceil(attempt.retryAfterSeconds / 60);
    return {
      status: 'failed',
      email: typedEmail,
      message: `Too many failed sign-ins. Wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
    };
  }
  if (attempt.outcome === 'failed') {
    await recordAudit({ actorId: await findStaffIdByEmail(email), action: 'sign_in.failed' });
    return { status: 'failed', email: typedEmail, message: WRONG_CREDENTIALS };
  }
  await recordAudit({ actorId: attempt.value, action: 'sign_in.succeeded' });
  redirect(safeReturnPath(formData.get('next')));
}

export type SetupState = {
  status: 'idle' | 'failed';
  values: { name: string; email: string };
  message?: string;
  fieldErrors?: Record<string, string[] | undefined>;
};

export async function setupAction(_previous: SetupState, formDataArgument: FormData): Promise<SetupState> {
  const formData = formDataArg(formDataArgument);
  const values = { name: textField(formData, 'name').slice(0, 200), email: textField(formData, 'email').slice(0, 254) };
  const token = textField(formData, 'token');
  const parsed = setupSchema.safeParse({
    name: textField(formData, 'name'),
    email: textField(formData, 'email'),
    password: textField(formData, 'password'),
    confirmPassword: textField(formData, 'confirmPassword'),
  });
  if (!parsed.success) return { status: 'failed', values, fieldErrors: z.flattenError(parsed.error).fieldErrors };

  try {
    await completeSetup(token, { name: parsed.data.name, email: parsed.data.email, password: parsed.data.password });
  } catch (error) {
    if (error instanceof SetupClosedError) {
      return { status: 'failed', values, message: 'This setup link is no longer valid. Sign in, or restart the server for a new link.' };
    }
    if (error instanceof StaffError) return { status: 'failed', values, message: error.message };
    throw error;
  }

  // Sign the new administrator in straight away.
  const auth = await getAuth();
  const result = await auth.api.signInEmail({
    body: { email: parsed.data.email, password: parsed.data.password, rememberMe: true },
    headers: await headers(),
  });
  await recordAudit({ actorId: result.user.id, action: 'sign_in.succeeded' });
  redirect('/');
}
