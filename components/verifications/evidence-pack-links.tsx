// The detail page's evidence pack: for a finished request (completed, failed or expired), the
// PDF for a reader and the signed JSON an auditor checks offline. Plain anchors with `download`:
// the answer is a file, so the links work without JavaScript and the page stays where it is.
import { getTranslations } from 'next-intl/server';
import { buttonClasses } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { Download } from '@/components/ui/icons';
import { evidencePackHref, hasEvidencePack } from '@/lib/verifications/evidence/links';

export async function EvidencePackLinks({ id, status }: { id: string; status: string }) {
  if (!hasEvidencePack(status)) return null;
  const t = await getTranslations('evidence.links');
  return (
    // A printed page has no use for download links (the print layout keeps facts, not buttons).
    <Card aria-labelledby="evidence-pack-heading" data-testid="evidence-pack" className="print:hidden">
      <CardHeader>
        <h2 id="evidence-pack-heading" className="text-base font-semibold text-slate-900">
          {t('heading')}
        </h2>
      </CardHeader>
      <CardBody className="space-y-3 text-sm">
        <p className="text-slate-600">{t('description')}</p>
        <div className="flex flex-wrap gap-3">
          <a href={evidencePackHref(id, 'pdf')} download className={buttonClasses('secondary', 'md')}>
            <Download aria-hidden="true" className="size-4 text-slate-500" />
            {t('pdf')}
          </a>
          <a href={evidencePackHref(id, 'json')} download className={buttonClasses('secondary', 'md')}>
            <Download aria-hidden="true" className="size-4 text-slate-500" />
            {t('json')}
          </a>
        </div>
      </CardBody>
    </Card>
  );
}
