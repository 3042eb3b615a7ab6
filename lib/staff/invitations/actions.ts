'use server';
import { revalidatePath } from 'next/cache';
// The two ends of an invitation: an administrator issues a new link for a colleague who has not
// set a password yet, and the colleague, with no session, sets their password through the link
// and is signed in. Nothing secret goes back to a form: the link only in the administrator's
// answer, never a password.
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { recordAudit } from '@/lib/audit/audit';
import { getAuth } from '@/lib/auth/auth';
import { formAction } from '@/lib/auth/form-action';
import { HOME_PATH } from '@/lib/auth/landing';
import { landingAfterSignIn } from '@/lib/auth/landing.server';
import { passwordProblem } from '@/lib/auth/password-policy';
import { acceptInvitationSchema, userIdSchema } from '@/lib/auth/schemas';
import { endSessionOnThisBrowser } from '@/lib/auth/session';
import { isPasswordSignInEnabled } from '@/lib/env';
import { textField } from '@/lib/forms/action-input';
import type { FormState, NoValues } from '@/lib/forms/form-state';
import { staffRefusal } from '../refusals.server';
import { StaffError } from '../staff-accounts';
import { acceptInvitation, InvitationError, issueInvitation } from './invitations.server';
import { invitationLink } from './link.server';

export type IssueInvitationState = FormState<NoValues, { status: 'issued'; values: NoValues; link: string; expiresAt: string }, 'userId'>;

// With PASSWORD_SIGN_IN=off an invitation could only set a password nobody may sign in with:
// both ends refuse with staff.actions.passwordSignInOff.

export async function issueInvitationAction(previous: IssueInvitationState, formData: FormData) {
  const t = await getTranslations('staff');
  return formAction({
    permission: 'staff:manage',
    schema: userIdSchema,
    read: (form) => ({ userId: textField(form, 'userId') }),
    values: (): NoValues => ({}),
    invalid: { fieldErrors: {}, message: t('refusals.unknownAccount') },
    run: async ({ data, staff, refuse }): Promise<IssueInvitationState> => {
      if (!isPasswordSignInEnabled()) return refuse({ message: t('actions.passwordSignInOff') });
      try {
        const { token, expiresAt } = await issueInvitation(staff.id, data.userId);
        revalidatePath('/staff');
        return { status: 'issued', values: {}, link: invitationLink(token), expiresAt: expiresAt.toISOString() };
      } catch (error) {
        if (error instanceof StaffError) return refuse({ message: await staffRefusal(error) });
        throw error;
      }
    },
  })(previous, formData);
}

export type AcceptInvitationState = FormState<NoValues, never, 'password' | 'confirmPassword'>;

export async function acceptInvitationAction(previous: AcceptInvitationState, formData: FormData) {
  const t = await getTranslations('staff');
  return formAction({
    permission: 'public',
    schema: acceptInvitationSchema,
    read: (form) => ({ password: textField(form, 'password'), confirmPassword: textField(form, 'confirmPassword') }),
    // Nothing goes back: the only fields are the password and its repetition.
    values: (): NoValues => ({}),
    run: async ({ data, formData, refuse }): Promise<AcceptInvitationState> => {
      // Checked before anything is written: no password is set that nobody may sign in with.
      if (!isPasswordSignInEnabled()) return refuse({ message: t('actions.passwordSignInOff') });
      const problem = passwordProblem(data.password);
      if (problem) return refuse({ fieldErrors: { password: [problem] } });

      let accepted: { userId: string; email: string };
      try {
        accepted = await acceptInvitation(textField(formData, 'token'), data.password);
      } catch (error) {
        // Why a link no longer works, for a form that was open while it stopped working.
        if (error instanceof InvitationError) return refuse({ message: t(`invitationRefusals.${error.lookup.state}`) });
        throw error;
      }

      const requestHeaders = await headers();
      const auth = await getAuth();
      // Whoever was signed in on this browser before is not the new colleague.
      await endSessionOnThisBrowser(requestHeaders);
      try {
        await auth.api.signInEmail({ body: { email: accepted.email, password: data.password, rememberMe: true }, headers: requestHeaders });
      } catch {
        // The password is set; should the session not be given (the account disabled at this very
        // moment), the sign-in page says what there is to say.
        redirect('/sign-in');
      }
      await recordAudit({ actorId: accepted.userId, action: 'sign_in.succeeded' });
      redirect(await landingAfterSignIn(accepted.userId, HOME_PATH));
    },
  })(previous, formData);
}
