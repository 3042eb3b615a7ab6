'use server';
// "May I still create requests?", asked by the create page when staff come back to its tab: a
// session that ended meanwhile (signed out elsewhere, expired, account disabled, role changed)
// is said at once, before more is typed into a form the server would refuse. It authorizes
// exactly as the create action does (the same guard, the same permission) and does nothing
// else, which also makes it the bench's measure of what any authorized action on that page
// costs before its own work (e2e/bench/figures/overhead.mjs). Its answers are constants: a
// caller learns nothing but whether its own session may create.
import { authorizedAction, DENIAL_MESSAGES, type Denial } from '@/lib/auth/guards';

export type CreateAccess = { allowed: true } | { allowed: false; title: string; message: string };

const ALLOWED: CreateAccess = { allowed: true };

const REFUSED: Record<Denial, CreateAccess> = {
  unauthenticated: {
    allowed: false,
    title: 'Your session has ended',
    message: 'This form cannot be sent as it is. Sign in again in another tab to keep what you typed here, then submit it.',
  },
  forbidden: {
    allowed: false,
    title: 'Not allowed for your role',
    message: 'Your role no longer allows creating requests. Ask an administrator if you need this permission.',
  },
  two_factor_required: { allowed: false, ...DENIAL_MESSAGES.two_factor_required },
};

export const checkCreateAccessAction = authorizedAction(
  'verification:create',
  async (): Promise<CreateAccess> => ALLOWED,
  (denial): CreateAccess => REFUSED[denial],
);
