// The create form. Each render hands the form a fresh submission key (see lib/verifications/create/create-verification.server.ts).
// Opened as /verifications/new?from=<id> from an expired or failed request, it is prefilled from
// that request's register row (lib/verifications/follow-up/): only the id comes from the URL.
import { randomUUID } from 'node:crypto';
import type { Metadata } from 'next';
import { Alert } from '@/components/ui/alert';
import { Card, CardBody } from '@/components/ui/card';
import { CreateVerificationForm, type FollowUpPrefill } from '@/components/verifications/create-verification-form';
import { requireStaff } from '@/lib/auth/session';
import { getEnv } from '@/lib/env';
import { followUpFormValues } from '@/lib/verifications/create/follow-up-values';
import { phoneRegionName } from '@/lib/verifications/create/phone-number';
import { checkFollowUp, type FollowUpRefusal } from '@/lib/verifications/follow-up/follow-up.server';

export const metadata: Metadata = { title: 'New verification request' };

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

  const region = getEnv().DEFAULT_PHONE_REGION;
  const phoneRegion = region ? { code: region, name: phoneRegionName(region) } : undefined;

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">New verification request</h1>
        <p className="mt-1 text-sm text-slate-600">
          The person receives a link to prove their identity with an identity document or an identity app.
        </p>
      </div>
      {refusal ? (
        <Alert tone="warning" title="Nothing was copied into this form" role="status" className="break-words">
          <p>{refusal.message} This is an empty form for a new request.</p>
        </Alert>
      ) : null}
      <Card>
        <CardBody>
          {/* Keyed by what it follows up: moving between ?from=… and a plain form within the page
              (the header's "New request") starts a fresh form rather than keep the other's state. */}
          <CreateVerificationForm
            key={followUp?.verificationId ?? ''}
            initialState={{ status: 'idle', submissionKey: randomUUID() }}
            followUp={followUp}
            phoneRegion={phoneRegion}
          />
        </CardBody>
      </Card>
    </div>
  );
}
