// REQUIRE_2FA on the server side: an account that still has to enrol is refused by the guards
// of every server action and route handler except its enrolment, whatever its role. The session
// is stood in for (outside a Next.js request there is no cookie to read); the guards are real.
import { describe, expect, it, vi } from 'vitest';
import { authorizedAction, authorizedRoute } from '@/lib/auth/guards';
import type { Staff } from '@/lib/auth/session';

const session = vi.hoisted(() => ({ staff: null as Staff | null }));
vi.mock('@/lib/auth/session', () => ({
  getCurrentStaff: async () => session.staff,
  staffFromHeaders: async () => session.staff,
}));

const ADMIN: Staff = { id: 'u-admin', name: 'Ada Admin', email: 'ada@example.com', role: 'admin', sessionId: 's-1' };
const MUST_ENROL: Staff = { ...ADMIN, mustEnrolTwoFactor: true };

describe('guards while a second factor is required but not set up', () => {
  const ran = vi.fn(async () => 'ran');
  const action = (permission: Parameters<typeof authorizedAction>[0]) => authorizedAction(permission, ran, async (denial) => denial);

  it('refuses every action but enrolment, even for an administrator, and runs nothing', async () => {
    session.staff = MUST_ENROL;
    ran.mockClear();
    for (const permission of ['verification:read', 'verification:create', 'link:copy', 'staff:manage', 'audit:read'] as const) {
      expect(await action(permission)(), permission).toBe('two_factor_required');
    }
    expect(ran).not.toHaveBeenCalled();
    expect(await action('two-factor:own')()).toBe('ran');
  });

  it('lets the same account do everything once enrolled', async () => {
    session.staff = ADMIN;
    expect(await action('staff:manage')()).toBe('ran');
  });

  it('answers route handlers 403 with a message that says what to do', async () => {
    session.staff = MUST_ENROL;
    const handler = vi.fn(async () => new Response('data'));
    const response = await authorizedRoute('verification:read', handler)(new Request('http://localhost/api/x'), {
      params: Promise.resolve({}),
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: string }).error).toContain('second factor');
    expect(handler).not.toHaveBeenCalled();
  });
});
