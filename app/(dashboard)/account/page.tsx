// The signed-in person's own account: who they are here, their password, the browsers signed in
// to it, and their second factor. Every staff member has one; nobody sees anyone else's here.

import type { Metadata } from 'next';
import { ChangePasswordForm } from '@/components/account/change-password-form';
import { EndOtherSessionsForm } from '@/components/account/end-other-sessions-form';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { DataTable } from '@/components/ui/data-table';
import { KeyRound, MonitorSmartphone, ShieldCheck } from '@/components/ui/icons';
import { Link } from '@/components/ui/link';
import { TimeText } from '@/components/ui/time-text';
import { listOwnSessions } from '@/lib/account/own-sessions';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '@/lib/auth/roles';
import { requireStaff } from '@/lib/auth/session';
import { displayTimeZone } from '@/lib/time/display-zone';

export const metadata: Metadata = { title: 'Your account' };

function SectionTitle({ id, icon: Icon, children }: { id: string; icon: typeof KeyRound; children: string }) {
  return (
    <h2 id={id} className="flex items-center gap-2 text-base font-semibold text-slate-900">
      <Icon aria-hidden="true" className="size-5 text-slate-500" />
      {children}
    </h2>
  );
}

export default async function AccountPage() {
  const me = await requireStaff('account:own', '/account');
  const [sessions, timeZone] = await Promise.all([listOwnSessions(me.id, me.sessionId), displayTimeZone()]);
  const others = sessions.filter((session) => !session.current).length;
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Your account</h1>
        <dl className="mt-4 grid gap-x-8 gap-y-3 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="font-medium text-slate-600">Name</dt>
          <dd className="text-slate-900">{me.name}</dd>
          <dt className="font-medium text-slate-600">E-mail address</dt>
          <dd className="text-slate-900">{me.email}</dd>
          <dt className="font-medium text-slate-600">Role</dt>
          <dd className="text-slate-900">
            {ROLE_LABELS[me.role]}{' '}
            <span className="text-slate-600">— {ROLE_DESCRIPTIONS[me.role]} Only an administrator can change it.</span>
          </dd>
        </dl>
      </div>

      <Card aria-labelledby="change-password">
        <CardHeader>
          <SectionTitle id="change-password" icon={KeyRound}>
            Change password
          </SectionTitle>
        </CardHeader>
        <CardBody>
          <ChangePasswordForm />
        </CardBody>
      </Card>

      <Card aria-labelledby="active-sessions">
        <CardHeader>
          <SectionTitle id="active-sessions" icon={MonitorSmartphone}>
            Active sessions
          </SectionTitle>
          <p className="mt-1 text-sm text-slate-600">
            The browsers signed in to your account. If you do not recognise one, sign out the others and change your password.
          </p>
        </CardHeader>
        <CardBody className="space-y-4">
          <DataTable caption="Your active sessions" columns={['Browser', 'Signed in', 'Last active']} bodyTestId="active-sessions">
            {sessions.map((session) => (
              <tr key={session.id}>
                <td className="px-4 py-3">
                  <span className="font-medium text-slate-900">{session.device}</span>
                  {session.current ? (
                    <span className="ml-2 rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700 ring-1 ring-indigo-200 ring-inset">
                      This device
                    </span>
                  ) : null}
                </td>
                <td className="px-4 py-3 whitespace-nowrap">
                  <TimeText iso={session.signedInAt.toISOString()} timeZone={timeZone} />
                </td>
                <td className="px-4 py-3 whitespace-nowrap">
                  {session.current ? 'Now' : <TimeText iso={session.lastActiveAt.toISOString()} timeZone={timeZone} />}
                </td>
              </tr>
            ))}
          </DataTable>
          <EndOtherSessionsForm others={others} />
        </CardBody>
      </Card>

      <Card aria-labelledby="two-factor">
        <CardHeader>
          <SectionTitle id="two-factor" icon={ShieldCheck}>
            Two-factor authentication
          </SectionTitle>
        </CardHeader>
        <CardBody className="text-sm text-slate-700">
          <p>
            A code from an app on your phone after your password, so a stolen password alone does not get anyone in.{' '}
            <Link href="/account/two-factor" className="font-medium text-indigo-700 underline underline-offset-2 hover:no-underline">
              Set up or manage two-factor authentication
            </Link>
          </p>
        </CardBody>
      </Card>
    </div>
  );
}
