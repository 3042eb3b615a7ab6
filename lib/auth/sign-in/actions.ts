'use server';
// The sign-in page's forms (password, single sign-on, a break-glass sign-in link) and first-run
// setup, with or without JavaScript. These are the only entry points without a session, so they
// validate everything, throttle failures and answer alike for unknown accounts and wrong
// passwords. What goes back to the form is the name and e-mail address, never a password.
import { isAPIError } from 'better-auth/api';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { recordAudit } from '@/lib/audit/audit';
import { getSingleSignOnConfig, isPasswordSignInEnabled } from '@/lib/env';
import { textField } from '@/lib/forms/action-input';
import type { FormState, NoValues } from '@/lib/forms/form-state';
import { getAuth } from '../auth';
import { formAction } from '../form-action';
import { passwordProblem } from '../password-policy';
import { clientAddress, safeReturnPath } from '../request-info';
import { setupSchema, signInSchema } from '../schemas';
import { endSessionOnThisBrowser } from '../session';
import { completeSetup, SetupClosedError } from '../setup';
import { looksLikeToken } from '../sign-in-link';
import { SSO_PROVIDER_ID } from '../single-sign-on';
import { SINGLE_SIGN_ON_REFUSED_PATH } from '../single-sign-on-callback';
import { findStaffIdByEmail, StaffError } from '../staff-records';
import { attemptSignIn, type ThrottleScope } from '../throttle';
import { awaitsSecondFactor, SECOND_FACTOR_PENDING, secondFactorPromptPath } from '../two-factor/password-step';

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
    await endSessionOnThisBrowser(requestHeaders);

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

// Starting single sign-on, and using a break-glass sign-in link: both public, like the sign-in form itself.

export type SingleSignOnState = FormState<NoValues, never, 'next'>;

// Whatever `next` holds, safeReturnPath makes a path of this site of it (or "/").
const startSchema = z.object({ next: z.string() });

export const startSingleSignOnAction = formAction({
  permission: 'public',
  schema: startSchema,
  read: (form) => ({ next: textField(form, 'next') }),
  values: () => ({}),
  run: async ({ data, refuse }): Promise<SingleSignOnState> => {
    if (!getSingleSignOnConfig()) return refuse({ message: 'Single sign-on is not set up for this dashboard. Ask an administrator.' });
    const requestHeaders = await headers();
    const auth = await getAuth();
    // A new session at every sign-in: end the one this browser may still hold.
    await endSessionOnThisBrowser(requestHeaders);
    let url: string | undefined;
    try {
      const started = await auth.api.signInSocial({
        body: {
          provider: SSO_PROVIDER_ID,
          callbackURL: safeReturnPath(data.next),
          errorCallbackURL: SINGLE_SIGN_ON_REFUSED_PATH,
          disableRedirect: true,
        },
        headers: requestHeaders,
      });
      url = started.url;
    } catch (error) {
      // The provider is not registered when its discovery document could not be read (down,
      // unreachable, or without the keys to verify its ID tokens); better-auth tries again next time.
      if (!isAPIError(error)) throw error;
    }
    if (!url) {
      return refuse({
        title: 'Sign-in provider unavailable',
        message:
          'The company’s sign-in provider cannot be reached right now. Try again in a moment; if it stays down, an administrator can use the break-glass sign-in link.',
      });
    }
    redirect(url);
  },
});

export type SignInLinkFormState = FormState<NoValues, never, 'token'>;

const LINK_REFUSALS: Record<string, string> = {
  used: 'This sign-in link has been used already. Each link signs in once: issue a new one with `npm run users -- sign-in-link <email>`.',
  expired: 'This sign-in link has expired (links are valid for 15 minutes). Issue a new one with `npm run users -- sign-in-link <email>`.',
  invalid: 'This is not a valid sign-in link. Check that the whole link was copied, or issue a new one.',
  refused: 'This account cannot sign in: it is disabled or no longer exists.',
};

export const signInWithLinkAction = formAction({
  permission: 'public',
  schema: z.object({ token: z.string() }),
  read: (form) => ({ token: textField(form, 'token') }),
  values: () => ({}),
  run: async ({ data, refuse }): Promise<SignInLinkFormState> => {
    // Whatever is not shaped like a token is answered at once, like one nobody issued.
    if (!looksLikeToken(data.token)) return refuse({ title: 'Not signed in', message: LINK_REFUSALS.invalid });
    const requestHeaders = await headers();
    const auth = await getAuth();
    await endSessionOnThisBrowser(requestHeaders);
    try {
      await auth.api.signInWithLink({ body: { token: data.token }, headers: requestHeaders });
    } catch (error) {
      if (!isAPIError(error)) throw error;
      const code = typeof error.body?.code === 'string' ? error.body.code : 'invalid';
      return refuse({ title: 'Not signed in', message: LINK_REFUSALS[code] ?? LINK_REFUSALS.invalid });
    }
    redirect('/');
  },
});
