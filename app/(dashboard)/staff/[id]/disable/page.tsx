// The confirmation step for disabling a colleague when the staff page's dialog cannot open (no
// JavaScript): the Disable button links here, so disabling always takes a second, deliberate
// click. With JavaScript the same confirmation opens in a dialog on the staff page instead.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { ClientMessagesFor } from '@/components/i18n/client-messages-for';
import { DisableStaffPageForm } from '@/components/staff/disable-staff-page-form';
import { Card, CardBody } from '@/components/ui/card';
import { requireStaff } from '@/lib/auth/session';
import { listStaff } from '@/lib/staff/staff-accounts';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('staff.disablePage');
  return { title: t('title') };
}

type Props = { params: Promise<{ id: string }> };

export default async function DisableStaffPage({ params }: Props) {
  const { id } = await params;
  const me = await requireStaff('staff:manage', `/staff/${encodeURIComponent(id)}/disable`);
  const member = (await listStaff()).find((staff) => staff.id === id);
  // Nobody to disable here: an unknown id, oneself, or an account disabled already.
  if (!member || member.id === me.id) notFound();
  const t = await getTranslations('staff.disablePage');
  return (
    <div className="mx-auto max-w-xl space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">{t('title')}</h1>
      <Card>
        <CardBody>
          <ClientMessagesFor namespaces={['staff.disable']}>
            <DisableStaffPageForm userId={member.id} name={member.name} alreadyDisabled={member.disabled} />
          </ClientMessagesFor>
        </CardBody>
      </Card>
    </div>
  );
}
