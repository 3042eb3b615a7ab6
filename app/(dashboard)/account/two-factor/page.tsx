// One's own second factor. Under REQUIRE_2FA, a password account without one is sent here from
// every other page (lib/auth/session.ts) and may do nothing else until it has enrolled; it then
// goes on to where it was going.
import { eq } from 'drizzle-orm';
import type { Metadata } from 'next';
import { TwoFactorSettings } from '@/components/account/two-factor-settings';
import { Alert } from '@/components/ui/alert';
import { Card, CardBody } from '@/components/ui/card';
import { safeReturnPath } from '@/lib/auth/request-info';
import { requireStaff } from '@/lib/auth/session';
import { ENROLMENT_PERMISSION, enrolmentPath } from '@/lib/auth/two-factor/requirement';
import { getDb } from '@/lib/db';
import { staffUsers } from '@/lib/db/schema';
import { getEnv } from '@/lib/env';

export const metadata: Metadata = { title: 'Two-factor authentication' };

type Props = { searchParams: Promise<{ next?: string }> };

export default async function TwoFactorPage({ searchParams }: Props) {
  const { next } = await searchParams;
  const returnTo = safeReturnPath(next);
  const staff = await requireStaff(ENROLMENT_PERMISSION, enrolmentPath(returnTo));
  const [user] = await (await getDb())
    .select({ twoFactorEnabled: staffUsers.twoFactorEnabled })
    .from(staffUsers)
    .where(eq(staffUsers.id, staff.id));
  const required = getEnv().REQUIRE_2FA === 'on';
  return (
    <div className="max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Two-factor authentication</h1>
        <p className="mt-1 text-sm text-slate-600">
          A code from an app on your phone, asked after your password, so a stolen password alone does not get anyone in.
        </p>
      </div>
      {staff.mustEnrolTwoFactor ? (
        <Alert tone="warning" title="Set up two-factor authentication to continue" role="status">
          <p>
            Your organisation requires a second factor for password sign-ins. It takes a minute; then you go on to where you were going.
          </p>
        </Alert>
      ) : null}
      <Card>
        <CardBody>
          <TwoFactorSettings email={staff.email} enabled={user?.twoFactorEnabled === true} mayTurnOff={!required} next={returnTo} />
        </CardBody>
      </Card>
    </div>
  );
}
