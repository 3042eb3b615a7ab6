// On a create form started from an expired or failed request: which request it follows up,
// what was copied from it, and what staff must type again (the register keeps no contact
// details). Rendered on the server and handed to the form; the form itself carries the hidden
// field with the old request's id, which the server checks again.
import { getTranslations } from 'next-intl/server';
import { Alert } from '@/components/ui/alert';
import { Link } from '@/components/ui/link';

export async function FollowUpFormNotice({ verificationId }: { verificationId: string }) {
  const t = await getTranslations('create.followUpNotice');
  return (
    <Alert tone="info" title={t('title')} className="break-words">
      <p>
        {t.rich('copied', {
          id: verificationId,
          link: (chunks) => (
            <Link
              href={`/verifications/${encodeURIComponent(verificationId)}`}
              className="font-mono text-xs break-all underline underline-offset-2 hover:no-underline"
            >
              {chunks}
            </Link>
          ),
        })}
      </p>
      <p>{t.rich('contact', { strong: (chunks) => <strong className="font-semibold">{chunks}</strong> })}</p>
    </Alert>
  );
}
