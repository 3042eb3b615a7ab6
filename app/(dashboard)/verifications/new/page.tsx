// The create form. Each render hands the form a fresh submission key (see lib/verifications/create/create-verification.server.ts).
// Opened as /verifications/new?from=<id> from an expired or failed request, it is prefilled from
// that request's register row (lib/verifications/follow-up/): only the id comes from the URL.
import { randomUUID } from 'node:crypto';
import type { Metadata } from 'next';
import { getLocale, getTranslations } from 'next-intl/server';
import { ClientMessagesFor } from '@/components/i18n/client-messages-for';
import { Alert } from '@/components/ui/alert';
import { Card, CardBody } from '@/components/ui/card';
import { CreateVerificationForm, type FollowUpPrefill } from '@/components/verifications/create-verification-form';
import { FollowUpFormNotice } from '@/components/verifications/follow-up-form-notice';
import { requireStaff } from '@/lib/auth/session';
import { getEnv } from '@/lib/env';
import { isLanguage } from '@/lib/i18n/languages';
import { followUpFormValues } from '@/lib/verifications/create/follow-up-values';
import { emptyCreateVerificationForm } from '@/lib/verifications/create/form-values';
import { phoneRegionName } from '@/lib/verifications/create/phone-number';
import { checkFollowUp, type FollowUpRefusal } from '@/lib/verifications/follow-up/follow-up.server';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('create.page');
  return { title: t('metadataTitle') };
}

// What the form's client components show, and nothing more: the form, its checks, the result
// panel, the copy buttons, and the purposes' names and hints.
const CLIENT_NAMESPACES = ['create.form', 'create.schema', 'create.result', 'create.copy', 'common.purpose', 'common.purposeHint'];

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function NewVerificationPage({ searchParams }: Props) {
  const params = await searchParams;
  const from = Array.isArray(params.from) ? params.from[0] : params.from;
  await requireStaff(
    'verification:create',
    from === undefined ? '/verifications/new' : `/verifications/new?from=${encodeURIComponent(from)}`,
  );

  let followUp: FollowUpPrefill | undefined;
  let refusal: FollowUpRefusal | undefined;
  if (from !== undefined) {
    const check = await checkFollowUp(from);
    if (check.ok) followUp = { verificationId: check.entry.verificationId, values: followUpFormValues(check.entry) };
    else refusal = check;
  }

  const [t, language] = await Promise.all([getTranslations('create.page'), getLocale()]);
  const region = getEnv().DEFAULT_PHONE_REGION;
  const phoneRegion = region ? { code: region, name: phoneRegionName(region, language) } : undefined;
  // A new request speaks to the person in the staff member's own language until they choose another.
  const blank = { ...emptyCreateVerificationForm, language: isLanguage(language) ? language : emptyCreateVerificationForm.language };

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">{t('title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('intro')}</p>
      </div>
      {refusal ? (
        <Alert tone="warning" title={t('refusalTitle')} role="status" className="break-words">
          <p>
            {refusal.message} {t('emptyForm')}
          </p>
        </Alert>
      ) : null}
      <Card>
        <CardBody>
          {/* Keyed by what it follows up: moving between ?from=… and a plain form within the page
              (the header's "New request") starts a fresh form rather than keep the other's state. */}
          <ClientMessagesFor namespaces={CLIENT_NAMESPACES}>
            <CreateVerificationForm
              key={followUp?.verificationId ?? ''}
              initialState={{ status: 'idle', submissionKey: randomUUID() }}
              followUp={followUp}
              followUpNotice={followUp ? <FollowUpFormNotice verificationId={followUp.verificationId} /> : undefined}
              blank={blank}
              phoneRegion={phoneRegion}
            />
          </ClientMessagesFor>
        </CardBody>
      </Card>
    </div>
  );
}
