// Staff management (administrators): who has access, with which role; create and disable accounts.
import type { Metadata } from 'next';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { CreateStaffForm } from '@/components/staff/create-staff-form';
import { StaffRowActions } from '@/components/staff/staff-row-actions';
import { LocalTime } from '@/components/ui/local-time';
import { ROLE_LABELS } from '@/lib/auth/roles';
import { requireStaff } from '@/lib/auth/session';
import { listStaff } from '@/lib/auth/staff';

export const metadata: Metadata = { title: 'Staff' };

export default async function StaffPage() {
  const me = await requireStaff('staff:manage', '/staff');
  const staff = await listStaff();
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
      <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">Staff accounts</caption>
          <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-4 py-3">Name</th>
              <th scope="col" className="px-4 py-3">Role</th>
              <th scope="col" className="px-4 py-3">Since</th>
              <th scope="col" className="px-4 py-3">Manage</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {staff.map((member) => (
              <tr key={member.id} className={member.disabled ? 'bg-slate-50 text-slate-500' : undefined}>
                <td className="px-4 py-3">
                  <div className="font-medium text-slate-900">
                    {member.name}
                    {member.id === me.id ? <span className="ml-1 font-normal text-slate-500">(you)</span> : null}
                  </div>
                  <div className="text-slate-600">{member.email}</div>
                </td>
                <td className="px-4 py-3">{member.disabled ? 'Disabled' : ROLE_LABELS[member.role]}</td>
                <td className="px-4 py-3 whitespace-nowrap">
                  <LocalTime iso={member.createdAt.toISOString()} dateOnly />
                </td>
                <td className="px-4 py-3">
                  {member.disabled ? null : (
                    <StaffRowActions userId={member.id} name={member.name} role={member.role} isSelf={member.id === me.id} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
