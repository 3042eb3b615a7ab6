// The detail page's tab title: the requested name from the register, or the id for a request the
// register does not hold. Only the register is read (never the service, which may be slow: the
// title must not hold the page up), and only for a staff member who may read verifications: the
// title is sent before the page's own check has answered.
import 'server-only';
import { getTranslations } from 'next-intl/server';
import { can } from '@/lib/auth/roles';
import { getCurrentStaff } from '@/lib/auth/session';
import { getRegisterEntry } from '@/lib/verifications/register/queries.server';

export async function verificationPageTitle(id: string): Promise<string> {
  const [staff, t] = await Promise.all([getCurrentStaff().catch(() => null), getTranslations('detail.page')]);
  if (!staff || !can(staff.role, 'verification:read') || staff.mustEnrolTwoFactor) return t('title');
  const entry = await getRegisterEntry(id).catch(() => undefined);
  return entry ? t('titleNamed', { name: entry.name }) : t('titleId', { id });
}
