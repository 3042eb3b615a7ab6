// The audit page's account of its own integrity: the hash chain's last verdict (a break is an
// alert at the top of the page), the signing key's fingerprint with its PEM to download, the chain
// as JSON Lines for the offline verifier, and a button to check the chain now.
import { getTranslations } from 'next-intl/server';
import { ClientMessagesFor } from '@/components/i18n/client-messages-for';
import { Alert } from '@/components/ui/alert';
import { buttonClasses } from '@/components/ui/button';
import { groupedFingerprint } from '@/lib/audit/chain/keys';
import type { ChainStatus } from '@/lib/audit-trail/chain-status.server';
import type { Language } from '@/lib/i18n/languages';
import { formatDateTime } from '@/lib/time/display-time';
import { CheckChainForm } from './check-chain-form';

export const PUBLIC_KEYS_HREF = '/api/audit/public-keys';
export const CHAIN_EXPORT_HREF = '/api/exports/audit-chain';

const BREAK_KINDS = [
  'changed',
  'deleted',
  'inserted',
  'reordered',
  'checkpoint-signature',
  'checkpoint-mismatch',
  'anchor-unsigned',
] as const;

type Props = { status: ChainStatus; timeZone: string; language: Language };

/** The alert for a broken chain, shown above everything else on the page. */
export async function ChainBreakBanner({ status, timeZone, language }: Props) {
  if (status.check.state !== 'broken') return null;
  const t = await getTranslations('audit.chain');
  const { breakSeq, breakKind, verifiedSeq, checkedAt } = status.check;
  const kind = (BREAK_KINDS as readonly string[]).includes(breakKind) ? breakKind : 'changed';
  return (
    <Alert tone="error" role="alert" title={t('broken.title')}>
      <p>
        {t('broken.body', {
          seq: breakSeq.toLocaleString(language),
          reason: t(`broken.kinds.${kind as (typeof BREAK_KINDS)[number]}`),
          verified: verifiedSeq.toLocaleString(language),
        })}
      </p>
      <p>{t('checkedAt', { at: formatDateTime(checkedAt, timeZone, language) })}</p>
    </Alert>
  );
}

export async function ChainIntegrity({ status, timeZone, language }: Props) {
  const t = await getTranslations('audit.chain');
  const number = (value: number) => value.toLocaleString(language);
  const { check } = status;
  const first = status.anchorSeq + 1;
  return (
    <section aria-labelledby="chain-integrity" className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 id="chain-integrity" className="text-base font-semibold text-slate-900">
        {t('title')}
      </h2>
      <p className="text-sm text-slate-600">{t('intro')}</p>
      <div role="status" className="space-y-1 text-sm">
        {check.state === 'unchecked' ? <p className="text-slate-700">{t('unchecked')}</p> : null}
        {check.state === 'broken' ? (
          <p className="font-semibold text-red-800">{t('brokenShort', { seq: number(check.breakSeq) })}</p>
        ) : null}
        {check.state === 'intact' ? (
          <>
            <p className="font-semibold text-emerald-800" data-chain-state="verified">
              {check.verifiedSeq < first
                ? t('empty')
                : check.checkpoint
                  ? t('intact', {
                      first: number(first),
                      last: number(check.verifiedSeq),
                      checkpoint: number(check.checkpoint.seq),
                      signedAt: formatDateTime(check.checkpoint.at, timeZone, language),
                    })
                  : t('intactNoCheckpoint', { first: number(first), last: number(check.verifiedSeq) })}
            </p>
            {check.checkpoint && check.verifiedSeq > check.checkpoint.seq ? (
              <p className="text-slate-700">{t('unsigned', { count: check.verifiedSeq - check.checkpoint.seq })}</p>
            ) : null}
          </>
        ) : null}
        {status.anchorSeq > 0 ? <p className="text-slate-700">{t('purged', { last: number(status.anchorSeq) })}</p> : null}
        {check.state !== 'unchecked' ? (
          <p className="text-slate-500">{t('checkedAt', { at: formatDateTime(check.checkedAt, timeZone, language) })}</p>
        ) : null}
      </div>
      <dl className="space-y-1 text-sm">
        <dt className="font-medium text-slate-700">{t('publicKey.fingerprint')}</dt>
        <dd className="break-all font-mono text-xs text-slate-900" translate="no" data-fingerprint={status.key.fingerprint}>
          {groupedFingerprint(status.key.fingerprint)}
        </dd>
        {status.earlierKeys > 0 ? <dd className="text-slate-600">{t('publicKey.earlier', { count: status.earlierKeys })}</dd> : null}
      </dl>
      <div className="flex flex-wrap items-center gap-3">
        <a href={PUBLIC_KEYS_HREF} download className={buttonClasses('secondary', 'sm')}>
          {t('publicKey.download')}
        </a>
        <a href={CHAIN_EXPORT_HREF} download className={buttonClasses('secondary', 'sm')}>
          {t('export')}
        </a>
        <ClientMessagesFor namespaces={['audit.chain.check']}>
          <CheckChainForm />
        </ClientMessagesFor>
      </div>
      <p className="text-xs text-slate-500">
        {t('exportHint')} <code translate="no">npm run audit -- verify &lt;file.jsonl&gt; --public-key &lt;key.pem&gt;</code>
      </p>
    </section>
  );
}
