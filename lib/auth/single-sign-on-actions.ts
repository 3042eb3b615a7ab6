'use server';
// Starting single sign-on, and using a break-glass sign-in link: the sign-in page's forms post
// here (with or without JavaScript). Both are public, like the sign-in form itself.
import { isAPIError } from 'better-auth/api';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDb } from '@/lib/db';
import { getSingleSignOnConfig } from '@/lib/env';
import { textField } from '@/lib/forms/action-input';
import { formAction } from '@/lib/forms/form-action';
import type { FormState, NoValues } from '@/lib/forms/form-state';
import { getAuth } from './auth';
import { safeReturnPath } from './request-info';
import { getCurrentStaff } from './session';
import { forgetValidatedSessions } from './session-cache';
import { looksLikeToken } from './sign-in-link';
import { SSO_PROVIDER_ID } from './single-sign-on';
import { SINGLE_SIGN_ON_REFUSED_PATH } from './single-sign-on-callback';

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
    if (await getCurrentStaff()) {
      await auth.api.signOut({ headers: requestHeaders }).catch(() => undefined);
      await forgetValidatedSessions(await getDb());
    }
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
    if (await getCurrentStaff()) {
      await auth.api.signOut({ headers: requestHeaders }).catch(() => undefined);
      await forgetValidatedSessions(await getDb());
    }
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
