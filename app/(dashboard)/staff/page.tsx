// Staff management (administrators): who has access, with which role; create, disable and
// re-enable accounts.
import type { Metadata } from 'next';
import { getLocale, getTranslations } from 'next-intl/server';
import { ClientMessagesFor } from '@/components/i18n/client-messages-for';
import { CreateStaffForm } from '@/components/staff/create-staff-form';
import { EnableStaffButton } from '@/components/staff/enable-staff-button';
import { InvitationState } from '@/components/staff/invitation-state';
import { NewInvitationButton } from '@/components/staff/new-invitation-button';
import { StaffRowActions } from '@/components/staff/staff-row-actions';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { DataTable } from '@/components/ui/data-table';
import { TimeText } from '@/components/ui/time-text';
import { requireStaff } from '@/lib/auth/session';
import { isPasswordSignInEnabled } from '@/lib/env';
import { isLanguage } from '@/lib/i18n/languages';
import { accountsWithPassword, accountsWithSingleSignOn, pendingInvitations } from '@/lib/staff/invitations/invitations.server';
import { listStaff } from '@/lib/staff/staff-accounts';
import { displayTimeZone } from '@/lib/time/display-zone';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('staff.page');
  return { title: t('title') };
}

/** What the page's client components say: each gets only these, resolved on the server. */
const CLIENT_NAMESPACES = ['staff.create', 'staff.invitationLink', 'staff.row', 'staff.disable', 'common.roles', 'common.roleDescriptions'];

export default async function StaffPage() {
  const me = await requireStaff('staff:manage', '/staff');
  const [staff, timeZone, t, tCommon, locale] = await Promise.all([
    listStaff(),
    displayTimeZone(),
    getTranslations('staff.page'),
    getTranslations('common'),
    getLocale(),
  ]);
  const language = isLanguage(locale) ? locale : undefined;
  const ids = staff.map((member) => member.id);
  const [invitations, withPassword, withSingleSignOn] = await Promise.all([
    pendingInvitations(ids),
    accountsWithPassword(ids),
    accountsWithSingleSignOn(ids),
  ]);
  return (
    <ClientMessagesFor namespaces={CLIENT_NAMESPACES}>
      <div className="space-y-8">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">{t('title')}</h1>
          <p className="mt-1 text-sm text-slate-600">{t('intro')}</p>
        </div>
        <Card>
          <CardHeader>
            <h2 className="text-base font-semibold text-slate-900">{t('addTitle')}</h2>
          </CardHeader>
          <CardBody>
            <CreateStaffForm />
          </CardBody>
        </Card>
        <DataTable caption={t('caption')} columns={[t('name'), t('role'), t('since'), t('manage')]}>
          {staff.map((member) => (
            <tr key={member.id} className={member.disabled ? 'bg-slate-50 text-slate-500' : undefined}>
              <td data-label={t('name')} className="px-4 py-3">
                <div className="font-medium text-slate-900">
                  <span translate="no">{member.name}</span>
                  {member.id === me.id ? <span className="ml-1 font-normal text-slate-500">{t('you')}</span> : null}
                </div>
                <div className="text-slate-600" translate="no">
                  {member.email}
                </div>
                {member.disabled ? null : withSingleSignOn.has(member.id) ? (
                  <div className="mt-1 text-sm text-slate-600" data-testid="sign-in-method">
                    {t('singleSignOn')}
                  </div>
                ) : (
                  <InvitationState invitation={invitations.get(member.id)} timeZone={timeZone} />
                )}
              </td>
              <td data-label={t('role')} className="px-4 py-3">
                {member.disabled ? t('disabled') : tCommon(`roles.${member.role}`)}
              </td>
              <td data-label={t('since')} className="px-4 py-3 whitespace-nowrap">
                <TimeText iso={member.createdAt.toISOString()} timeZone={timeZone} language={language} dateOnly />
              </td>
              <td className="px-4 py-3">
                {member.disabled ? (
                  <EnableStaffButton userId={member.id} name={member.name} />
                ) : (
                  <StaffRowActions
                    userId={member.id}
                    name={member.name}
                    role={member.role}
                    isSelf={member.id === me.id}
                    twoFactorEnabled={member.twoFactorEnabled}
                  />
                )}
                {/* With PASSWORD_SIGN_IN=off, or once linked to the provider, single sign-on is the way in: no invitation to offer. */}
                {member.disabled || withPassword.has(member.id) || withSingleSignOn.has(member.id) || !isPasswordSignInEnabled() ? null : (
                  <div className="mt-2">
                    <NewInvitationButton userId={member.id} name={member.name} email={member.email} />
                  </div>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      </div>
    </ClientMessagesFor>
  );
}
