'use client';
import { ArrowRight } from 'lucide-react';
// What staff see once a request exists: the service's confirmation, the id to copy, a summary
// of what was sent, the follow-up link if the request follows up an earlier one, and — when a
// shareable link was asked for — the link to copy (the service returns it only this once;
// the register keeps it for copying again later) with a QR code for showing it in person.
// The focus moves to its heading, so keyboard and screen-reader users land on the outcome.
import dynamic from 'next/dynamic';
import { useEffect, useRef } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Alert } from '@/components/ui/alert';
import { buttonClasses } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { LinkPendingHint } from '@/components/ui/link-pending-hint';
import type { CreatedVerification } from '@/lib/verifications/create/form-state';
import { CopyLinkButton } from './copy-link-button';
import { CreationSummary, FollowUpOutcomeNote } from './creation-summary';

// The QR code is drawn only after a request with a link was created, so its code is not part of
// the form page's first load. It is still rendered on the server for the no-JavaScript answer.
const QRCodeSVG = dynamic(() => import('qrcode.react').then((module) => module.QRCodeSVG), {
  loading: () => <div className="size-36" aria-hidden="true" />,
});

export function CreationResult({ created, onCreateAnother }: { created: CreatedVerification; onCreateAnother?: () => void }) {
  const detailHref = `/verifications/${encodeURIComponent(created.verificationId)}`;
  const heading = useRef<HTMLHeadingElement>(null);
  const t = useClientTranslations('create.result');
  // React focuses only form controls for autoFocus; a heading is focused here.
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="space-y-6" data-testid="creation-result">
      {/* The focus follows the form to its outcome: the effect above moves it when the panel
          replaces the form; on the no-JavaScript answer's page the browser does, from the
          autofocus attribute in the server's HTML. */}
      <h2
        ref={heading}
        // biome-ignore lint/a11y/noAutofocus: the focus must follow the form to its outcome (WCAG 2.4.3), also without JavaScript.
        autoFocus
        tabIndex={-1}
        className="text-lg font-semibold text-slate-900 focus:outline-none"
        data-testid="creation-result-heading"
      >
        {created.summary ? t('heading', { name: created.summary.name }) : t('headingUnnamed')}
      </h2>
      {/* The service's own confirmation is in English; staff read theirs. */}
      <Alert tone="success" title={t('created')} role="status">
        <div className="flex flex-wrap items-center gap-2">
          <p>
            {t('verificationId')}{' '}
            <code className="rounded bg-white/70 px-1.5 py-0.5 font-mono text-xs break-all" data-testid="verification-id">
              {created.verificationId}
            </code>
          </p>
          <CopyLinkButton link={created.verificationId} subject="id" label={t('copyId')} size="sm" />
        </div>
      </Alert>

      {created.followUp ? <FollowUpOutcomeNote outcome={created.followUp} /> : null}
      {created.summary ? <CreationSummary verificationId={created.verificationId} summary={created.summary} /> : null}

      {created.link ? (
        <div className="space-y-3">
          <div>
            <label htmlFor="shareable-link" className="block text-sm font-medium text-slate-900">
              {t('linkLabel')}
            </label>
            <p id="shareable-link-hint" className="text-sm text-slate-600">
              {t('linkHint')}
            </p>
          </div>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              id="shareable-link"
              readOnly
              value={created.link}
              aria-describedby="shareable-link-hint"
              className="font-mono text-xs"
              onFocus={(event) => event.currentTarget.select()}
            />
            <CopyLinkButton link={created.link} verificationId={created.verificationId} fallbackInputId="shareable-link" />
          </div>
          <figure className="inline-flex flex-col items-center gap-2 rounded-md bg-white p-3 ring-1 ring-slate-200">
            <QRCodeSVG value={created.link} size={144} marginSize={1} role="img" aria-label={t('qrLabel')} />
            <figcaption className="text-xs text-slate-600">{t('qrCaption')}</figcaption>
          </figure>
        </div>
      ) : null}

      <div className="flex flex-wrap gap-3">
        <Link href={detailHref} className={buttonClasses('primary')}>
          {t('open')}
          <ArrowRight aria-hidden="true" className="size-4" />
          <LinkPendingHint />
        </Link>
        {/* A plain link without JavaScript; with it, the form resets in place. */}
        <Link
          href="/verifications/new"
          className={buttonClasses('secondary')}
          onClick={(event) => {
            if (!onCreateAnother) return;
            event.preventDefault();
            onCreateAnother();
          }}
        >
          {t('createAnother')}
        </Link>
      </div>
    </div>
  );
}
