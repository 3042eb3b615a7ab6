// The two wrappers every entry point goes through, so none can forget to authenticate and
// authorize: one for server actions, one for route handlers.
import 'server-only';
import { can, type Permission } from './roles';
import { getCurrentStaff, type Staff, staffFromHeaders } from './session';
import { ENROLMENT_PERMISSION } from './two-factor/requirement';

export type Denial = 'unauthenticated' | 'forbidden' | 'two_factor_required';

/**
 * Wraps a server action. The action runs only for a signed-in staff member whose role has
 * `permission`; otherwise `denied` builds the answer, and nothing else happens — no service
 * call, no database write. Form actions get it through formAction (form-action.ts),
 * which also validates the form and answers every refusal with the form's values.
 */
export function authorizedAction<Args extends unknown[], Result>(
  permission: Permission,
  action: (staff: Staff, ...args: Args) => Promise<Result>,
  denied: (denial: Denial, ...args: Args) => Result | Promise<Result>,
): (...args: Args) => Promise<Result> {
  return async (...args: Args) => {
    const staff = await getCurrentStaff();
    if (!staff) return denied('unauthenticated', ...args);
    if (mustEnrolFirst(staff, permission)) return denied('two_factor_required', ...args);
    if (!can(staff.role, permission)) return denied('forbidden', ...args);
    return action(staff, ...args);
  };
}

type RouteContext<Params> = { params: Promise<Params> };

/** Wraps a route handler: 401 JSON without a session, 403 JSON without the permission. */
export function authorizedRoute<Params>(
  permission: Permission,
  handler: (request: Request, staff: Staff, context: RouteContext<Params>) => Promise<Response>,
): (request: Request, context: RouteContext<Params>) => Promise<Response> {
  return async (request, context) => {
    // The request's own headers — in a route handler the same ones next/headers would give, and
    // readable outside Next's request scope too (tests call handlers with a plain Request).
    const staff = await staffFromHeaders(request.headers);
    const noStore = { 'Cache-Control': 'no-store' };
    if (!staff) return Response.json({ error: 'Sign in to continue.' }, { status: 401, headers: noStore });
    if (mustEnrolFirst(staff, permission)) {
      return Response.json({ error: DENIAL_MESSAGES.two_factor_required.message }, { status: 403, headers: noStore });
    }
    if (!can(staff.role, permission)) {
      return Response.json({ error: 'Your role does not allow this.' }, { status: 403, headers: noStore });
    }
    return handler(request, staff, context);
  };
}

/**
 * The refusals in English, for the route handlers' JSON and the code not yet in the reader's
 * language; forms built with formAction say auth.formAction's words in the reader's language.
 */
export const DENIAL_MESSAGES: Record<Denial, { title: string; message: string }> = {
  unauthenticated: {
    title: 'Your session has ended',
    message: 'Nothing was done. Sign in again (in another tab, to keep what you typed here), then submit again.',
  },
  forbidden: {
    title: 'Not allowed for your role',
    message: 'Nothing was done. Ask an administrator if you need this permission.',
  },
  two_factor_required: {
    title: 'Set up two-factor authentication first',
    message: 'Nothing was done. Your organisation requires a second factor: set it up on the two-factor page, then try again.',
  },
};

/** REQUIRE_2FA: an account that still has to enrol may do nothing but enrol. */
function mustEnrolFirst(staff: Staff, permission: Permission): boolean {
  return staff.mustEnrolTwoFactor === true && permission !== ENROLMENT_PERMISSION;
}
