// On a create form started from an expired or failed request: which request it follows up,
// what was copied from it, and what staff must type again (the register keeps no contact
// details). The hidden field carries only the old request's id; the server checks it again.

import { Alert } from '@/components/ui/alert';
import { Link } from '@/components/ui/link';

export function FollowUpFormNotice({ verificationId }: { verificationId: string }) {
  return (
    <>
      <input type="hidden" name="followsVerificationId" value={verificationId} />
      <Alert tone="info" title="Follow-up of an earlier request" className="break-words">
        <p>
          The name, purpose, language and channels are copied from request{' '}
          <Link
            href={`/verifications/${encodeURIComponent(verificationId)}`}
            className="font-mono text-xs break-all underline underline-offset-2 hover:no-underline"
          >
            {verificationId}
          </Link>
          . The new request will link back to it.
        </p>
        <p>
          Contact details are not kept, so <strong className="font-semibold">type the e-mail address again</strong>, and the mobile number
          if an SMS is to be sent.
        </p>
      </Alert>
    </>
  );
}
