// One's own second factor. Under REQUIRE_2FA, a password account without one is sent here from
// every other page (lib/auth/session.ts) and may do nothing else until it has enrolled; it then
// goes on to where it was going.
import { eq } from 'drizzle-orm';
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { TwoFactorSettings } from '@/components/account/two-factor-settings';
import { ClientMessagesFor } from '@/components/i18n/client-messages-for';
import { Alert } from '@/components/ui/alert';
import { Card, CardBody } from '@/components/ui/card';
import { safeReturnPath } from '@/lib/auth/request-info';
import { requireStaff } from '@/lib/auth/session';
import { ENROLMENT_PERMISSION, enrolmentPath } from '@/lib/auth/two-factor/requirement';
import { getDb } from '@/lib/db';
import { staffUsers } from '@/lib/db/schema';
import { getEnv } from '@/lib/env';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('account.twoFactorPage');
  return { title: t('title') };
}

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
  const t = await getTranslations('account.twoFactorPage');
  return (
    <div className="max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">{t('title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('intro')}</p>
      </div>
      {staff.mustEnrolTwoFactor ? (
        <Alert tone="warning" title={t('requiredTitle')} role="status">
          <p>{t('requiredText')}</p>
        </Alert>
      ) : null}
      <Card>
        <CardBody>
          <ClientMessagesFor namespaces={['account.twoFactor']}>
            <TwoFactorSettings email={staff.email} enabled={user?.twoFactorEnabled === true} mayTurnOff={!required} next={returnTo} />
          </ClientMessagesFor>
        </CardBody>
      </Card>
    </div>
  );
}
