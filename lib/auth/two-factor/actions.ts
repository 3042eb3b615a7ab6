'use server';
// The two-factor forms: one's own enrolment (password, then a first code), turning it off where
// REQUIRE_2FA allows, and the code prompt of a sign-in. The prompt is public (no session exists
// yet): what it acts on is better-auth's signed pending-sign-in cookie, and its limits on wrong
// codes are better-auth's (sign-in-challenge.ts).
import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { formAction } from '@/lib/auth/form-action';
import { getEnv } from '@/lib/env';
import { textField } from '@/lib/forms/action-input';
import type { FormState, NoValues } from '@/lib/forms/form-state';
import { getAuth } from '../auth';
import { landingAfterSignIn } from '../landing.server';
import { clientAddress, safeReturnPath } from '../request-info';
import { attemptSignIn } from '../throttle';
import { type EnrolmentSecret, finishEnrolment, provenSecret, startEnrolment, turnOffTwoFactor } from './enrolment';
import { LOCKOUT_MINUTES } from './plugin';
import { ENROLMENT_PAGE } from './requirement';
import { backupCodeSchemaIn, confirmPasswordSchema, enrolmentStepSchema, totpCodeSchema, totpCodeSchemaIn } from './schemas';
import { answerChallenge, type ChallengeMethod } from './sign-in-challenge';

const WRONG_PASSWORD = 'That is not your current password.';
const THROTTLED = 'Too many wrong passwords. Wait a few minutes and try again.';

export type EnrolmentState = FormState<
  NoValues,
  | { status: 'scan'; secret: EnrolmentSecret; codeError?: string }
  | { status: 'enrolled'; backupCodes: string[] }
  | { status: 'already-on' },
  'password'
>;

/**
 * The current password, checked as a sign-in is: counted by the sign-in throttle, so a session
 * left open on a shared computer cannot be used to guess the password here.
 */
async function withCheckedPassword<T>(email: string, check: () => Promise<T | null>) {
  return attemptSignIn(email, clientAddress(await headers()), check);
}

export const enrolTwoFactorAction = formAction({
  permission: 'two-factor:own',
  schema: enrolmentStepSchema,
  read: (form) => ({
    step: textField(form, 'step'),
    password: textField(form, 'password'),
    code: textField(form, 'code'),
    totpURI: textField(form, 'totpURI'),
    proof: textField(form, 'proof'),
  }),
  values: (): NoValues => ({}),
  invalid: { message: 'The form arrived incomplete. Reload the page and start again.' },
  run: async ({ data, staff, refuse }): Promise<EnrolmentState> => {
    const auth = await getAuth();
    const requestHeaders = await headers();
    if (data.step === 'password') {
      const password = confirmPasswordSchema.safeParse({ password: data.password });
      if (!password.success) return refuse({ status: 'invalid', fieldErrors: { password: password.error.issues.map((i) => i.message) } });
      const attempt = await withCheckedPassword(staff.email, async () => {
        const started = await startEnrolment(auth, requestHeaders, staff.id, password.data.password);
        return started.outcome === 'wrong-password' ? null : started;
      });
      if (attempt.outcome === 'throttled') return refuse({ fieldErrors: { password: [THROTTLED] } });
      if (attempt.outcome === 'failed') return refuse({ fieldErrors: { password: [WRONG_PASSWORD] } });
      const started = attempt.value;
      return started.outcome === 'secret' ? { status: 'scan', secret: started.secret } : { status: 'already-on' };
    }

    // The code step shows its secret again on a mistake, so it must be the one issued to this account.
    const secret = await provenSecret(staff.id, data.totpURI, data.proof);
    if (!secret) return refuse({ message: 'This set-up could not be confirmed. Start again with your password.' });
    const code = totpCodeSchema.safeParse({ code: data.code });
    if (!code.success) return { status: 'scan', secret, codeError: code.error.issues[0]?.message };
    const finished = await finishEnrolment(auth, requestHeaders, staff.id, code.data.code);
    if (finished.outcome === 'wrong-code') {
      return {
        status: 'scan',
        secret,
        codeError: 'That code is not right. Check that the app shows "Verification Desk" and enter the code it shows now.',
      };
    }
    if (finished.outcome === 'not-started')
      return refuse({ message: 'This set-up has been replaced or removed. Start again with your password.' });
    revalidatePath(ENROLMENT_PAGE);
    return { status: 'enrolled', backupCodes: finished.backupCodes };
  },
});

export type TurnOffState = FormState<NoValues, { status: 'off' }, 'password'>;

export const turnOffTwoFactorAction = formAction({
  permission: 'two-factor:own',
  schema: confirmPasswordSchema,
  read: (form) => ({ password: textField(form, 'password') }),
  values: (): NoValues => ({}),
  run: async ({ data, staff, refuse }): Promise<TurnOffState> => {
    if (getEnv().REQUIRE_2FA === 'on') {
      return refuse({ message: 'Your organisation requires two-factor authentication: it cannot be turned off.' });
    }
    const auth = await getAuth();
    const requestHeaders = await headers();
    const attempt = await withCheckedPassword(staff.email, async () =>
      (await turnOffTwoFactor(auth, requestHeaders, staff.id, data.password)) === 'off' ? true : null,
    );
    if (attempt.outcome === 'throttled') return refuse({ fieldErrors: { password: [THROTTLED] } });
    if (attempt.outcome === 'failed') return refuse({ fieldErrors: { password: [WRONG_PASSWORD] } });
    revalidatePath(ENROLMENT_PAGE);
    return { status: 'off' };
  },
});

/** `restart`: the pending sign-in is gone; the form offers the way back to the password. */
export type SignInCodeState = FormState<{ code: string }, never> & { restart?: boolean };

// Built per request, so that its refusals are in the language of the person signing in.
async function signInCodeAction(method: ChallengeMethod, previous: SignInCodeState, formData: FormData): Promise<SignInCodeState> {
  const [t, tValidation] = await Promise.all([getTranslations('auth.twoFactorActions'), getTranslations('auth.validation')]);
  return formAction({
    permission: 'public',
    schema: method === 'totp' ? totpCodeSchemaIn(tValidation) : backupCodeSchemaIn(tValidation),
    read: (form) => ({ code: textField(form, 'code') }),
    values: (typed) => ({ code: typed.code.slice(0, 40) }),
    run: async ({ data, formData, refuse }): Promise<SignInCodeState> => {
      const answer = await answerChallenge(await getAuth(), await headers(), method, data.code);
      switch (answer.outcome) {
        case 'signed-in':
          redirect(await landingAfterSignIn(answer.userId, safeReturnPath(formData.get('next'))));
          break;
        case 'wrong-code':
          return refuse({ fieldErrors: { code: [t(`wrongCode.${method}`)] } });
        case 'busy':
          return refuse({ fieldErrors: { code: [t('busy')] } });
        case 'start-again':
          return { ...refuse({ title: t('signInAgain'), message: t(`startAgain.${answer.reason}`) }), restart: true };
        case 'locked':
          return {
            ...refuse({
              title: t('locked.title'),
              message: t('locked.message', { minutes: LOCKOUT_MINUTES }),
            }),
            restart: true,
          };
      }
      throw new Error('unreachable');
    },
  })(previous, formData);
}

export async function verifySignInCodeAction(previous: SignInCodeState, formData: FormData): Promise<SignInCodeState> {
  return signInCodeAction('totp', previous, formData);
}

export async function verifySignInBackupCodeAction(previous: SignInCodeState, formData: FormData): Promise<SignInCodeState> {
  return signInCodeAction('backup', previous, formData);
}
