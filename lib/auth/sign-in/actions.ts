'use server';
// The sign-in page's forms (password, single sign-on, a break-glass sign-in link) and first-run
// setup, with or without JavaScript. These are the only entry points without a session, so they
// validate everything, throttle failures and answer alike for unknown accounts and wrong
// passwords. What goes back to the form is the name and e-mail address, never a password.
import { isAPIError } from 'better-auth/api';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { z } from 'zod';
import { recordAudit } from '@/lib/audit/audit';
import { getSingleSignOnConfig, isPasswordSignInEnabled } from '@/lib/env';
import { textField } from '@/lib/forms/action-input';
import type { FormState, NoValues } from '@/lib/forms/form-state';
import { getAuth } from '../auth';
import { formAction } from '../form-action';
import { landingPathFor } from '../landing';
import { landingAfterSignIn } from '../landing.server';
import { PASSWORD_MIN } from '../password-length';
import { passwordProblemCode } from '../password-policy';
import { clientAddress, safeReturnPath } from '../request-info';
import { setupSchemaIn, signInSchemaIn } from '../schemas';
import { endSessionOnThisBrowser } from '../session';
import { completeSetup, SetupClosedError } from '../setup';
import { looksLikeToken } from '../sign-in-link';
import { SSO_PROVIDER_ID } from '../single-sign-on';
import { SINGLE_SIGN_ON_REFUSED_PATH } from '../single-sign-on-callback';
import { findStaffIdByEmail, StaffError } from '../staff-records';
import { attemptSignIn } from '../throttle';
import { awaitsSecondFactor, SECOND_FACTOR_PENDING, secondFactorPromptPath } from '../two-factor/password-step';

export type SignInState = FormState<{ email: string }, never, 'email' | 'password'>;

/** The break-glass link's command, shown as it is typed. */
const SIGN_IN_LINK_COMMAND = 'npm run users -- sign-in-link <email>';

// Each action is built per request, so that its schema's and refusals' messages are in the
// language of the person who posted the form.
export async function signInAction(previous: SignInState, formData: FormData): Promise<SignInState> {
  const [t, tValidation] = await Promise.all([getTranslations('auth.actions'), getTranslations('auth.validation')]);
  return formAction({
    permission: 'public',
    schema: signInSchemaIn(tValidation),
    read: (form) => ({ email: textField(form, 'email'), password: textField(form, 'password') }),
    values: (typed) => ({ email: typed.email.slice(0, 254) }),
    run: async ({ data: { email, password }, formData, refuse }): Promise<SignInState> => {
      // PASSWORD_SIGN_IN=off: the page shows no password form, and a post made anyway is refused.
      if (!isPasswordSignInEnabled()) return refuse({ message: t('passwordSignInOff') });
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
        return refuse({ message: t(`throttled.${attempt.scope}`, { minutes: Math.ceil(attempt.retryAfterSeconds / 60) }) });
      }
      if (attempt.outcome === 'failed') {
        await recordAudit({ actorId: await findStaffIdByEmail(email), action: 'sign_in.failed' });
        return refuse({ message: t('wrongCredentials') });
      }
      if (attempt.value === SECOND_FACTOR_PENDING) redirect(secondFactorPromptPath(safeReturnPath(formData.get('next'))));
      await recordAudit({ actorId: attempt.value, action: 'sign_in.succeeded' });
      redirect(await landingAfterSignIn(attempt.value, safeReturnPath(formData.get('next'))));
    },
  })(previous, formData);
}

export type SetupState = FormState<{ name: string; email: string }, never, 'name' | 'email' | 'password' | 'confirmPassword'>;

export async function setupAction(previous: SetupState, formData: FormData): Promise<SetupState> {
  const [t, tValidation] = await Promise.all([getTranslations('auth.actions'), getTranslations('auth.validation')]);
  return formAction({
    permission: 'public',
    schema: setupSchemaIn(tValidation),
    read: (form) => ({
      name: textField(form, 'name'),
      email: textField(form, 'email'),
      password: textField(form, 'password'),
      confirmPassword: textField(form, 'confirmPassword'),
    }),
    values: (typed) => ({ name: typed.name.slice(0, 200), email: typed.email.slice(0, 254) }),
    run: async ({ data, formData, refuse }): Promise<SetupState> => {
      const weak = passwordProblemCode(data.password);
      if (weak) return refuse({ fieldErrors: { password: [tValidation(weak, { min: PASSWORD_MIN })] } });
      try {
        await completeSetup(textField(formData, 'token'), { name: data.name, email: data.email, password: data.password });
      } catch (error) {
        if (error instanceof SetupClosedError) {
          return refuse({ message: t('setupClosed') });
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
      redirect(landingPathFor('admin'));
    },
  })(previous, formData);
}

// Starting single sign-on, and using a break-glass sign-in link: both public, like the sign-in form itself.

export type SingleSignOnState = FormState<NoValues, never, 'next'>;

// Whatever `next` holds, safeReturnPath makes a path of this site of it (or "/").
const startSchema = z.object({ next: z.string() });

export async function startSingleSignOnAction(previous: SingleSignOnState, formData: FormData): Promise<SingleSignOnState> {
  const t = await getTranslations('auth.actions');
  return formAction({
    permission: 'public',
    schema: startSchema,
    read: (form) => ({ next: textField(form, 'next') }),
    values: () => ({}),
    run: async ({ data, refuse }): Promise<SingleSignOnState> => {
      if (!getSingleSignOnConfig()) return refuse({ message: t('singleSignOnNotSetUp') });
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
        return refuse({ title: t('providerUnavailable.title'), message: t('providerUnavailable.message') });
      }
      redirect(url);
    },
  })(previous, formData);
}

export type SignInLinkFormState = FormState<NoValues, never, 'token'>;

const LINK_REFUSALS = ['used', 'expired', 'invalid', 'refused'] as const;
type LinkRefusal = (typeof LINK_REFUSALS)[number];
const isLinkRefusal = (code: unknown): code is LinkRefusal => LINK_REFUSALS.includes(code as LinkRefusal);

export async function signInWithLinkAction(previous: SignInLinkFormState, formData: FormData): Promise<SignInLinkFormState> {
  const [t, tAuth] = await Promise.all([getTranslations('auth.actions'), getTranslations('auth')]);
  const linkRefusal = (code: LinkRefusal) => t(`link.${code}`, { command: SIGN_IN_LINK_COMMAND });
  return formAction({
    permission: 'public',
    schema: z.object({ token: z.string() }),
    read: (form) => ({ token: textField(form, 'token') }),
    values: () => ({}),
    run: async ({ data, refuse }): Promise<SignInLinkFormState> => {
      // Whatever is not shaped like a token is answered at once, like one nobody issued.
      if (!looksLikeToken(data.token)) return refuse({ title: tAuth('notSignedIn'), message: linkRefusal('invalid') });
      const requestHeaders = await headers();
      const auth = await getAuth();
      await endSessionOnThisBrowser(requestHeaders);
      try {
        await auth.api.signInWithLink({ body: { token: data.token }, headers: requestHeaders });
      } catch (error) {
        if (!isAPIError(error)) throw error;
        const code = error.body?.code;
        return refuse({ title: tAuth('notSignedIn'), message: linkRefusal(isLinkRefusal(code) ? code : 'invalid') });
      }
      // Links are issued to administrators only (lib/auth/sign-in-link.ts).
      redirect(landingPathFor('admin'));
    },
  })(previous, formData);
}
