// A better-auth endpoint that turns a break-glass sign-in link (sign-in-link.ts) into a session,
// so the session and its cookie are made exactly as better-auth makes every other one (its
// hooks, among them the refusal of a disabled account, included). Server-only: no HTTP route
// reaches it; the sign-in-link page's server action calls it through `auth.api`.
import 'server-only';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthEndpoint } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import { z } from 'zod';
import { recordAudit } from '@/lib/audit/audit';
import type { Db } from '@/lib/db';
import { useSignInLink } from './sign-in-link';

/** What the endpoint's refusal carries in `body.code`. */
export const SIGN_IN_LINK_REFUSALS = ['used', 'expired', 'invalid', 'refused'] as const;
export type SignInLinkRefusal = (typeof SIGN_IN_LINK_REFUSALS)[number];

export function signInLinkPlugin(db: Db) {
  return {
    id: 'verification-desk-sign-in-link',
    endpoints: {
      signInWithLink: createAuthEndpoint(
        '/sign-in-link/use',
        { method: 'POST', body: z.object({ token: z.string().max(200) }), metadata: { SERVER_ONLY: true } },
        async (ctx) => {
          const result = await useSignInLink(db, ctx.body.token);
          if ('refused' in result) throw new APIError('FORBIDDEN', { code: result.refused, message: `sign-in link ${result.refused}` });
          const user = await ctx.context.internalAdapter.findUserById(result.userId);
          // A disabled account (or one removed since) gets no session: databaseHooks.session.create.before.
          const session = user ? await ctx.context.internalAdapter.createSession(user.id).catch(() => null) : null;
          if (!user || !session) throw new APIError('FORBIDDEN', { code: 'refused', message: 'sign-in link refused' });
          await setSessionCookie(ctx, { session, user });
          await recordAudit({ actorId: user.id, action: 'sign_in_link.used', target: { type: 'staff', id: user.id } }, db);
          return ctx.json({ userId: user.id });
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}
