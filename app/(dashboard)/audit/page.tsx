// The audit trail (administrators): filter by verification id, person, action and date (whole
// days in the display zone, lib/time), every filter in the URL (lib/audit-trail/filter.ts), and
// export what is shown as CSV. Below the trail, its integrity: the hash chain's last verdict (a
// break is an alert above everything), the signing key, and the chain for the offline verifier.
import type { Metadata } from 'next';
import { getLocale, getTranslations } from 'next-intl/server';
import { AuditDetailsText } from '@/components/audit/audit-details-text';
import { ChainBreakBanner, ChainIntegrity } from '@/components/audit/chain-integrity';
import { ExportCsvLink } from '@/components/export/export-csv-link';
import { FilterField, FilterForm } from '@/components/forms/filter-form';
import { FilterProblemsAlert } from '@/components/forms/filter-problems-alert';
import { buttonClasses } from '@/components/ui/button';
import { DataTable, idTextClasses } from '@/components/ui/data-table';
import { Input, Select } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { LinkPendingHint } from '@/components/ui/link-pending-hint';
import { TimeText } from '@/components/ui/time-text';
import { auditActionLabel, auditActionOptions } from '@/lib/audit/audit-labels';
import { chainStatus } from '@/lib/audit-trail/chain-status.server';
import { auditDetailsDescriber, auditNoteHref } from '@/lib/audit-trail/details';
import {
  type AuditFilterField,
  auditFilterProblem,
  auditTrailQuery,
  parseAuditFilter,
  VERIFICATION_ID_MAX,
} from '@/lib/audit-trail/filter';
import { AUDIT_CURSOR_KINDS, auditFilterFor, listAuditPage } from '@/lib/audit-trail/queries.server';
import { requireStaff } from '@/lib/auth/session';
import { readPagePosition, withPosition } from '@/lib/db/keyset';
import { auditExportHref } from '@/lib/export/export-links';
import { DEFAULT_LANGUAGE, isLanguage } from '@/lib/i18n/languages';
import { listStaff } from '@/lib/staff/staff-accounts';
import { displayTimeZone } from '@/lib/time/display-zone';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('audit');
  return { title: t('title') };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AuditPage({ searchParams }: Props) {
  await requireStaff('audit:read', '/audit');
  const params = await searchParams;
  const parsed = parseAuditFilter(params);
  const problems: { field: AuditFilterField | 'page' }[] = [...parsed.problems];
  let filter = parsed.filter;
  // Pages by keyset (`after` / `before` cursors); an old `page=` link simply shows the first page.
  const { cursor: position, problem: badPageLink } = readPagePosition(params, AUDIT_CURSOR_KINDS);
  if (badPageLink) problems.push({ field: 'page' });

  const [staff, timeZone, t, locale, describeAuditDetails, chain] = await Promise.all([
    listStaff(),
    displayTimeZone(),
    getTranslations('audit'),
    getLocale(),
    auditDetailsDescriber(),
    chainStatus(),
  ]);
  // An id that is no account's would filter to nothing while the select shows "Everyone".
  if (filter.actor && !staff.some((member) => member.id === filter.actor)) {
    filter = { ...filter, actor: undefined };
    problems.push(auditFilterProblem('actor'));
  }
  const { entries, links } = await listAuditPage(auditFilterFor(filter, timeZone), { position });
  // Every account, disabled ones too: the Who column and the details name people by it.
  const names = new Map(staff.map((s) => [s.id, s.name]));
  const language = isLanguage(locale) ? locale : DEFAULT_LANGUAGE;
  // Each dropped filter value, said in the reader's words (the codes are the fields').
  const problemMessages = problems.map(({ field }) => ({
    field,
    message: t(`problems.${field}`, { max: VERIFICATION_ID_MAX }),
  }));

  return (
    <div className="space-y-6">
      <ChainBreakBanner status={chain} timeZone={timeZone} language={language} />
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">{t('title')}</h1>
          <p className="mt-1 text-sm text-slate-600">{t('intro')}</p>
        </div>
        <ExportCsvLink href={auditExportHref(filter)} description={t('exportDescription')} />
      </div>

      <FilterForm
        clearHref="/audit"
        submitLabel={t('filters.submit')}
        clearLabel={t('filters.clear')}
        className="flex flex-wrap items-end gap-3"
        // The buttons sit in the row of fields.
        actionsClassName="contents"
      >
        <FilterField id="verification" label={t('filters.verification')}>
          <Input
            id="verification"
            name="verification"
            defaultValue={filter.verification ?? ''}
            spellCheck={false}
            autoComplete="off"
            sizing="h-10 w-72 py-2"
            className="font-mono text-xs"
          />
        </FilterField>
        <FilterField id="actor" label={t('filters.actor')}>
          <Select id="actor" name="actor" defaultValue={filter.actor ?? ''} sizing="h-10 w-52 py-2">
            <option value="">{t('filters.everyone')}</option>
            {staff.map((s) => (
              <option key={s.id} value={s.id} translate="no">
                {s.name}
              </option>
            ))}
          </Select>
        </FilterField>
        <FilterField id="action" label={t('filters.action')}>
          <Select id="action" name="action" defaultValue={filter.action ?? ''} sizing="h-10 w-56 py-2">
            <option value="">{t('filters.allActions')}</option>
            {auditActionOptions(t).map(({ value, label }) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </FilterField>
        <FilterField id="from" label={t('filters.from', { zone: timeZone })} clipLabel>
          <Input id="from" name="from" type="date" defaultValue={filter.from ?? ''} sizing="h-10 w-40 py-2" />
        </FilterField>
        <FilterField id="to" label={t('filters.to', { zone: timeZone })} clipLabel>
          <Input id="to" name="to" type="date" defaultValue={filter.to ?? ''} sizing="h-10 w-40 py-2" />
        </FilterField>
      </FilterForm>

      <FilterProblemsAlert problems={problemMessages} />

      <DataTable
        caption={links.newer ? t('table.captionLater') : t('table.caption')}
        columns={[t('table.when'), t('table.who'), t('table.action'), t('table.on'), t('table.details')]}
        bodyTestId="audit-entries"
      >
        {entries.map((entry) => (
          <tr key={entry.id} data-action={entry.action}>
            <td data-label={t('table.when')} className="px-4 py-2.5 font-mono text-xs whitespace-nowrap text-slate-700">
              <TimeText iso={entry.at.toISOString()} timeZone={timeZone} language={language} />
            </td>
            <td data-label={t('table.who')} className="px-4 py-2.5" translate="no">
              {entry.actorId ? (names.get(entry.actorId) ?? entry.actorId) : <span className="text-slate-500">—</span>}
            </td>
            <td data-label={t('table.action')} className="px-4 py-2.5">
              {auditActionLabel(entry.action, t)}
            </td>
            <td data-label={t('table.on')} className="px-4 py-2.5">
              {entry.targetType === 'verification' && entry.targetId ? (
                <Link
                  href={`/verifications/${encodeURIComponent(entry.targetId)}`}
                  className={`${idTextClasses} text-indigo-700 hover:underline`}
                >
                  {entry.targetId}
                  <LinkPendingHint className="ml-1.5 align-[-2px]" />
                </Link>
              ) : entry.targetType === 'staff' && entry.targetId ? (
                <span translate="no">{names.get(entry.targetId) ?? entry.targetId}</span>
              ) : null}
            </td>
            <td data-label={t('table.details')} className="px-4 py-2.5 text-slate-600">
              <AuditDetailsText parts={describeAuditDetails(entry.action, entry.details, names)} />
              <NoteLink entry={entry} label={t('details.note.read')} />
            </td>
          </tr>
        ))}
        {entries.length === 0 ? (
          <tr>
            <td colSpan={5} className="px-4 py-8 text-center text-slate-600">
              {t('table.empty')}
            </td>
          </tr>
        ) : null}
      </DataTable>
      {links.newer || links.older ? (
        <nav aria-label={t('table.pages')} className="flex flex-wrap gap-2">
          {links.newer ? (
            <Link href={`/audit${withPosition(auditTrailQuery(filter), links.newer)}`} className={buttonClasses('secondary')}>
              {t('table.newer')}
            </Link>
          ) : null}
          {links.older ? (
            <Link href={`/audit${withPosition(auditTrailQuery(filter), links.older)}`} className={buttonClasses('secondary')}>
              {t('table.older')}
            </Link>
          ) : null}
        </nav>
      ) : null}

      <ChainIntegrity status={chain} timeZone={timeZone} language={language} />
    </div>
  );
}

/** After a note's description, the way to the note itself on its request's page. */
function NoteLink({ entry, label }: { entry: Parameters<typeof auditNoteHref>[0]; label: string }) {
  const href = auditNoteHref(entry);
  if (!href) return null;
  return (
    <>
      {' · '}
      <Link href={href} className="text-indigo-700 underline underline-offset-2 hover:no-underline">
        {label}
      </Link>
    </>
  );
}
