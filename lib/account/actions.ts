'use server';
import { revalidatePath } from 'next/cache';
// The account page's actions: change one's own password, sign out one's other sessions. Every
// staff member may use them, on their own account only: the account is the session's, never a
// field of the form.
import { headers } from 'next/headers';
import { getTranslations } from 'next-intl/server';
import { z } from 'zod';
import { getAuth } from '@/lib/auth/auth';
import { formAction } from '@/lib/auth/form-action';
import { clientAddress } from '@/lib/auth/request-info';
import { textField } from '@/lib/forms/action-input';
import type { FormState, NoValues } from '@/lib/forms/form-state';
import { isLanguage } from '@/lib/i18n/languages';
import { changePasswordSchema } from './account-schemas';
import { changeOwnPassword } from './change-password';
import { chooseLanguage } from './language';
import { endOtherSessions } from './own-sessions';

type PasswordField = 'currentPassword' | 'newPassword' | 'confirmPassword' | 'endOtherSessions';

export type ChangePasswordState = FormState<
  { endOtherSessions: boolean },
  { status: 'changed'; values: { endOtherSessions: boolean }; message: string },
  PasswordField
>;

export async function changePasswordAction(previous: ChangePasswordState, formData: FormData) {
  const [t, tErrors] = await Promise.all([getTranslations('account.actions'), getTranslations('account.passwordErrors')]);
  return formAction({
    permission: 'account:own',
    schema: changePasswordSchema(tErrors),
    read: (form) => ({
      currentPassword: textField(form, 'currentPassword'),
      newPassword: textField(form, 'newPassword'),
      confirmPassword: textField(form, 'confirmPassword'),
      // A checkbox that is not ticked is not posted at all.
      endOtherSessions: form.get('endOtherSessions') === 'on',
    }),
    // Never a password back: the form asks for them again.
    values: (typed) => ({ endOtherSessions: typed.endOtherSessions }),
    run: async ({ data, staff, refuse }): Promise<ChangePasswordState> => {
      const requestHeaders = await headers();
      const result = await changeOwnPassword(await getAuth(), {
        staff,
        currentPassword: data.currentPassword,
        newPassword: data.newPassword,
        endOthers: data.endOtherSessions,
        headers: requestHeaders,
        ip: clientAddress(requestHeaders),
      });
      switch (result.outcome) {
        case 'weak-password':
          return refuse({ fieldErrors: { newPassword: [result.message] } });
        case 'wrong-current':
          return refuse({ fieldErrors: { currentPassword: [t('wrongCurrent')] } });
        case 'throttled':
          return refuse({
            title: t('throttledTitle'),
            message: t('throttled', { minutes: Math.ceil(result.retryAfterSeconds / 60) }),
          });
        case 'no-password':
          return refuse({ message: t('noPassword') });
        case 'changed':
          revalidatePath('/account');
          return {
            status: 'changed',
            values: { endOtherSessions: data.endOtherSessions },
            message: data.endOtherSessions ? t('changedEndedOthers', { count: result.otherSessionsEnded }) : t('changed'),
          };
      }
    },
  })(previous, formData);
}

export type EndOtherSessionsState = FormState<NoValues, { status: 'done'; message: string }>;

export async function endOtherSessionsAction(previous: EndOtherSessionsState, formData: FormData) {
  const t = await getTranslations('account.actions');
  return formAction({
    permission: 'account:own',
    schema: z.object({}),
    read: () => ({}),
    values: (): NoValues => ({}),
    run: async ({ staff }): Promise<EndOtherSessionsState> => {
      const ended = await endOtherSessions(staff.id, staff.sessionId);
      revalidatePath('/account');
      return {
        status: 'done',
        message: t('othersEnded', { count: ended }),
      };
    },
  })(previous, formData);
}

/**
 * The language switcher on every page. Anyone may choose, signed in or not (sign-in and
 * invitation pages have the switcher too): a signed-in staff member changes only their own
 * setting, which comes from the session, never from the form. A code we do not have changes
 * nothing. Setting the cookie makes Next render the page again, in the new language, keeping
 * what the forms on it hold.
 */
export async function chooseLanguageAction(form: unknown): Promise<void> {
  // Anyone can post anything here: only a form with a language we have changes something.
  const language = form instanceof FormData ? form.get('language') : undefined;
  if (!isLanguage(language)) return;
  await chooseLanguage(language);
}
