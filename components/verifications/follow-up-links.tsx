// The follow-up part of a detail page: the request this one follows up, the requests that
// follow it up, and — on an expired or failed request, for staff who may create — the way to
// start a new request from it (the contract has no resend or extend; a new request is what it
// allows). A server component: the links come from the register.

import { buttonClasses } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { ArrowRight, RotateCcw } from '@/components/ui/icons';
import { Link } from '@/components/ui/link';
import { TimeText } from '@/components/ui/time-text';
import { canBeFollowedUp, getFollowUpLinks, type LinkedRequest } from '@/lib/verifications/follow-up/follow-up.server';
import { statusLabel } from '@/lib/verifications/labels';

function RequestLink({ request }: { request: LinkedRequest }) {
  return (
    <Link
      href={`/verifications/${encodeURIComponent(request.verificationId)}`}
      className="font-medium text-indigo-700 underline underline-offset-2 hover:no-underline"
    >
      {request.name} <span className="font-mono text-xs break-all">({request.verificationId})</span>
    </Link>
  );
}

export async function FollowUpLinks({
  id,
  status,
  canCreate,
  timeZone,
}: {
  id: string;
  status: string;
  canCreate: boolean;
  timeZone: string;
}) {
  const { follows, followedBy } = await getFollowUpLinks(id);
  const offerFollowUp = canCreate && canBeFollowedUp(status);
  if (!follows && followedBy.length === 0 && !offerFollowUp) return null;

  return (
    <Card aria-labelledby="follow-up-heading" data-testid="follow-up">
      <CardHeader>
        <h2 id="follow-up-heading" className="text-base font-semibold text-slate-900">
          Follow-up
        </h2>
      </CardHeader>
      <CardBody className="space-y-4 text-sm">
        {follows ? (
          <p className="break-words text-slate-700">
            Follow-up of <RequestLink request={follows} />, which {follows.status === 'failed' ? 'failed' : 'expired'}.
          </p>
        ) : null}
        {followedBy.length > 0 ? (
          <div className="space-y-1">
            <p className="text-slate-700">Followed up by:</p>
            <ul className="space-y-1">
              {followedBy.map((request) => (
                <li key={request.verificationId} className="break-words text-slate-700">
                  <RequestLink request={request} />, created <TimeText iso={request.createdAt.toISOString()} timeZone={timeZone} />{' '}
                  <span className="text-slate-600">({statusLabel(request.status)})</span>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {offerFollowUp ? (
          <div className="flex flex-wrap items-center gap-3">
            <p className="min-w-0 flex-1 text-slate-600">
              This request cannot be sent again. A new request starts with the same name, purpose, language and channels; you type the
              contact details again.
            </p>
            <Link href={`/verifications/new?from=${encodeURIComponent(id)}`} className={buttonClasses('primary', 'md')}>
              <RotateCcw aria-hidden="true" className="size-4" />
              Create a new request
              <ArrowRight aria-hidden="true" className="size-4" />
            </Link>
          </div>
        ) : null}
      </CardBody>
    </Card>
  );
}
