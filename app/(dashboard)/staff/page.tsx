// Staff management (administrators): who has access, with which role; create, disable and
// re-enable accounts.
import type { Metadata } from 'next';
import { CreateStaffForm } from '@/components/staff/create-staff-form';
import { EnableStaffButton } from '@/components/staff/enable-staff-button';
import { InvitationState } from '@/components/staff/invitation-state';
import { NewInvitationButton } from '@/components/staff/new-invitation-button';
import { StaffRowActions } from '@/components/staff/staff-row-actions';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { DataTable } from '@/components/ui/data-table';
import { TimeText } from '@/components/ui/time-text';
import { ROLE_LABELS } from '@/lib/auth/roles';
import { requireStaff } from '@/lib/auth/session';
import { isPasswordSignInEnabled } from '@/lib/env';
import { accountsWithPassword, accountsWithSingleSignOn, pendingInvitations } from '@/lib/staff/invitations/invitations.server';
import { listStaff } from '@/lib/staff/staff-accounts';
import { displayTimeZone } from '@/lib/time/display-zone';

export const metadata: Metadata = { title: 'Staff' };

export default async function StaffPage() {
  const me = await requireStaff('staff:manage', '/staff');
  const [staff, timeZone] = await Promise.all([listStaff(), displayTimeZone()]);
  const ids = staff.map((member) => member.id);
  const [invitations, withPassword, withSingleSignOn] = await Promise.all([
    pendingInvitations(ids),
    accountsWithPassword(ids),
    accountsWithSingleSignOn(ids),
  ]);
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Staff</h1>
        <p className="mt-1 text-sm text-slate-600">Who can use Verification Desk, and what each person may do.</p>
      </div>
      <Card>
        <CardHeader>
          <h2 className="text-base font-semibold text-slate-900">Add a staff member</h2>
        </CardHeader>
        <CardBody>
          <CreateStaffForm />
        </CardBody>
      </Card>
      <DataTable caption="Staff accounts" columns={['Name', 'Role', 'Since', 'Manage']}>
        {staff.map((member) => (
          <tr key={member.id} className={member.disabled ? 'bg-slate-50 text-slate-500' : undefined}>
            <td data-label="Name" className="px-4 py-3">
              <div className="font-medium text-slate-900">
                {member.name}
                {member.id === me.id ? <span className="ml-1 font-normal text-slate-500">(you)</span> : null}
              </div>
              <div className="text-slate-600">{member.email}</div>
              {member.disabled ? null : withSingleSignOn.has(member.id) ? (
                <div className="mt-1 text-sm text-slate-600" data-testid="sign-in-method">
                  Signs in with single sign-on
                </div>
              ) : (
                <InvitationState invitation={invitations.get(member.id)} timeZone={timeZone} />
              )}
            </td>
            <td data-label="Role" className="px-4 py-3">
              {member.disabled ? 'Disabled' : ROLE_LABELS[member.role]}
            </td>
            <td data-label="Since" className="px-4 py-3 whitespace-nowrap">
              <TimeText iso={member.createdAt.toISOString()} timeZone={timeZone} dateOnly />
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
  );
}
