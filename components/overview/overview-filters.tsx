// The overview's choices: the period links (this month, 30 days, this quarter) and one GET form
// for days chosen by hand and the register's filters, so every view has a URL and works without
// JavaScript. The values shown are the ones the page read (lib/overview/overview-query.ts).
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { Input, Select } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { LANGUAGE_NAMES, LANGUAGES } from '@/lib/i18n/languages';
import { OVERVIEW_CHANNELS, type OverviewFilter, overviewQuery } from '@/lib/overview/overview-query';
import { PERIODS, type Period } from '@/lib/overview/period';
import { cn } from '@/lib/utils';
import { PREDEFINED_PURPOSES } from '@/lib/verifications/labels';

/** A control with its label above it. */
function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="space-y-1 text-sm">
      <label htmlFor={id} className="block font-medium text-slate-900">
        {label}
      </label>
      {children}
    </div>
  );
}

type Props = { period: Period; filter: OverviewFilter; members: readonly { id: string; name: string }[] };

export async function OverviewFilters({ period, filter, members }: Props) {
  const [t, tCommon] = await Promise.all([getTranslations('overview'), getTranslations('common')]);
  // A period link keeps the filters and drops days chosen by hand.
  const periodHref = (kind: Period['kind']) => `/overview${overviewQuery({ kind, firstDay: '', lastDay: '' }, filter)}`;
  return (
    <>
      <nav aria-label={t('period.label')} className="flex flex-wrap gap-2">
        {PERIODS.filter((kind) => kind !== 'custom').map((kind) => (
          <Link
            key={kind}
            href={periodHref(kind)}
            aria-current={period.kind === kind ? 'page' : undefined}
            className={cn(
              'rounded-md px-3 py-1.5 text-sm font-medium ring-1 ring-inset',
              period.kind === kind
                ? 'bg-indigo-50 text-indigo-900 ring-indigo-300'
                : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50',
            )}
          >
            {t(`period.${kind}`)}
          </Link>
        ))}
      </nav>
      <form method="get" action="/overview" className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="period" value="custom" />
        <Field id="overview-from" label={t('period.from')}>
          <Input id="overview-from" type="date" name="from" defaultValue={period.firstDay} sizing="h-9 w-40 py-1.5" />
        </Field>
        <Field id="overview-to" label={t('period.to')}>
          <Input id="overview-to" type="date" name="to" defaultValue={period.lastDay} sizing="h-9 w-40 py-1.5" />
        </Field>
        <Field id="overview-purpose" label={t('filter.purpose')}>
          <Select id="overview-purpose" name="purpose" defaultValue={filter.purpose ?? ''} sizing="h-9 w-56 max-w-full py-1.5">
            <option value="">{t('filter.any')}</option>
            {PREDEFINED_PURPOSES.map(({ value }) => (
              <option key={value} value={value}>
                {tCommon(`purpose.${value}`)}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="overview-language" label={t('filter.language')}>
          <Select id="overview-language" name="language" defaultValue={filter.language ?? ''} sizing="h-9 w-40 py-1.5">
            <option value="">{t('filter.any')}</option>
            {LANGUAGES.map((code) => (
              <option key={code} value={code} lang={code}>
                {LANGUAGE_NAMES[code]}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="overview-channel" label={t('filter.channel')}>
          <Select id="overview-channel" name="channel" defaultValue={filter.channel ?? ''} sizing="h-9 w-44 py-1.5">
            <option value="">{t('filter.any')}</option>
            {OVERVIEW_CHANNELS.map((code) => (
              <option key={code} value={code}>
                {t(`filter.channels.${code}`)}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="overview-creator" label={t('filter.creator')}>
          <Select id="overview-creator" name="creator" defaultValue={filter.createdBy ?? ''} sizing="h-9 w-48 max-w-full py-1.5">
            <option value="">{t('filter.any')}</option>
            {members.map((member) => (
              <option key={member.id} value={member.id} translate="no">
                {member.name}
              </option>
            ))}
          </Select>
        </Field>
        <button type="submit" className={buttonClasses('secondary', 'sm', 'h-9')}>
          {t('filter.apply')}
        </button>
      </form>
    </>
  );
}
