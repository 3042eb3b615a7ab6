// The create form. Each render hands the form a fresh submission key (see create-verification.ts).
import { randomUUID } from 'node:crypto';
import type { Metadata } from 'next';
import { Card, CardBody } from '@/components/ui/card';
import { CreateVerificationForm } from '@/components/verifications/create-verification-form';
import { requireStaff } from '@/lib/auth/session';

export const metadata: Metadata = { title: 'New verification request' };

export default async function NewVerificationPage() {
  await requireStaff('verification:create', '/verifications/new');
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">New verification request</h1>
        <p className="mt-1 text-sm text-slate-600">
          The person receives a link to prove their identity with an identity document or an identity app.
        </p>
      </div>
      <Card>
        <CardBody>
          <CreateVerificationForm initialState={{ status: 'idle', submissionKey: randomUUID() }} />
        </CardBody>
      </Card>
    </div>
  );
}
