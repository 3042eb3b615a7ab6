'use server';
// Sign-in and first-run setup. These are the only entry points without a session, so they
// validate everything, throttle failures and answer alike for unknown accounts and wrong
// passwords. What goes back to the form is the name and e-mail address, never a password.
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { recordAudit } from '@/lib/audit/audit';
import { getDb } from '@/lib/db';
import { isPasswordSignInEnabled } from '@/lib/env';
import { textField } from '@/lib/forms/action-input';
import { formAction } from '@/lib/forms/form-action';
import type { FormState } from '@/lib/forms/form-state';
import { findStaffIdByEmail, StaffError } from '@/lib/staff/staff-accounts';
import { getAuth } from './auth';
import { passwordProblem } from './password-policy';
import { clientAddress, safeReturnPath } from './request-info';
import { setupSchema, signInSchema } from './schemas';
import { getCurrentStaff } from './session';
import { forgetValidatedSessions } from './session-cache';
import { completeSetup, SetupClosedError } from './setup';
import { attemptSignIn, type ThrottleScope } from './throttle';
import { awaitsSecondFactor, SECOND_FACTOR_PENDING, secondFactorPromptPath } from './two-factor/password-step';

export type SignInState = FormState<{ email: string }, never, 'email' | 'password'>;

const WRONG_CREDENTIALS = 'Incorrect e-mail address or password.';
const PASSWORD_SIGN_IN_OFF = 'Sign-in with a password is turned off here: use single sign-on.';

/** What was throttled and for how long, so the person knows whether trying elsewhere helps. */
function throttledMessage(scope: ThrottleScope, retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait = `Wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
  switch (scope) {
    case 'pair':
      return `Too many failed sign-ins for this e-mail address from this network. ${wait}`;
    case 'network':
      return `Too many failed sign-ins from this network. ${wait}`;
    case 'account':
      return `Too many failed sign-ins for this e-mail address from several networks. ${wait}`;
  }
}

export const signInAction = formAction({
  permission: 'public',
  schema: signInSchema,
  read: (form) => ({ email: textField(form, 'email'), password: textField(form, 'password') }),
  values: (typed) => ({ email: typed.email.slice(0, 254) }),
  run: async ({ data: { email, password }, formData, refuse }): Promise<SignInState> => {
    // PASSWORD_SIGN_IN=off: the page shows no password form, and a post made anyway is refused.
    if (!isPasswordSignInEnabled()) return refuse({ message: PASSWORD_SIGN_IN_OFF });
    const requestHeaders = await headers();
    const ip = clientAddress(requestHeaders);

    const auth = await getAuth();
    // A new session at every sign-in: end the one this browser may still hold.
    if (await getCurrentStaff()) {
      await auth.api.signOut({ headers: requestHeaders }).catch(() => undefined);
      await forgetValidatedSessions(await getDb());
    }

    const attempt = await attemptSignIn(email, ip, async () => {
      try {
        const result = await auth.api.signInEmail({ body: { email, password, rememberMe: true }, headers: requestHeaders });
        if (awaitsSecondFactor(result)) return SECOND_FACTOR_PENDING; // the password was right; the code comes next
        return result.user.id;
      } catch {
        return null; // unknown account, wrong password or disabled account: one answer for all three
      }
    });
    if (attempt.outcome === 'throttled') {
      await recordAudit({ actorId: await findStaffIdByEmail(email), action: 'sign_in.throttled' });
      return refuse({ message: throttledMessage(attempt.scope, attempt.retryAfterSeconds) });
    }
    if (attempt.outcome === 'failed') {
      await recordAudit({ actorId: await findStaffIdByEmail(email), action: 'sign_in.failed' });
      return refuse({ message: WRONG_CREDENTIALS });
    }
    if (attempt.value === SECOND_FACTOR_PENDING) redirect(secondFactorPromptPath(safeReturnPath(formData.get('next'))));
    await recordAudit({ actorId: attempt.value, action: 'sign_in.succeeded' });
    redirect(safeReturnPath(formData.get('next')));
  },
});

export type SetupState = FormState<{ name: string; email: string }, never, 'name' | 'email' | 'password' | 'confirmPassword'>;

export const setupAction = formAction({
  permission: 'public',
  schema: setupSchema,
  read: (form) => ({
    name: textField(form, 'name'),
    email: textField(form, 'email'),
    password: textField(form, 'password'),
    confirmPassword: textField(form, 'confirmPassword'),
  }),
  values: (typed) => ({ name: typed.name.slice(0, 200), email: typed.email.slice(0, 254) }),
  run: async ({ data, formData, refuse }): Promise<SetupState> => {
    const weak = passwordProblem(data.password);
    if (weak) return refuse({ fieldErrors: { password: [weak] } });
    try {
      await completeSetup(textField(formData, 'token'), { name: data.name, email: data.email, password: data.password });
    } catch (error) {
      if (error instanceof SetupClosedError) {
        return refuse({ message: 'This setup link is no longer valid. Sign in, or restart the server for a new link.' });
      }
      if (error instanceof StaffError) {
        return error.field === 'email' || error.field === 'password'
          ? refuse({ fieldErrors: { [error.field]: [error.message] } })
          : refuse({ message: error.message });
      }
      throw error;
    }

    // Sign the new administrator in straight away.
    const auth = await getAuth();
    const result = await auth.api.signInEmail({
      body: { email: data.email, password: data.password, rememberMe: true },
      headers: await headers(),
    });
    await recordAudit({ actorId: result.user.id, action: 'sign_in.succeeded' });
    redirect('/');
  },
});
