// The audit trail (administrators): filter by verification id, person, action and date (whole
// days in the display zone, lib/time), every filter in the URL (lib/audit-trail/filter.ts), and
// export what is shown as CSV.
import type { Metadata } from 'next';
import { ExportCsvLink } from '@/components/export/export-csv-link';
import { FilterField, FilterForm } from '@/components/forms/filter-form';
import { FilterProblemsAlert } from '@/components/forms/filter-problems-alert';
import { buttonClasses } from '@/components/ui/button';
import { DataTable, idTextClasses } from '@/components/ui/data-table';
import { Input, Select } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { LinkPendingHint } from '@/components/ui/link-pending-hint';
import { TimeText } from '@/components/ui/time-text';
import { AUDIT_ACTIONS, isAuditAction } from '@/lib/audit/audit-labels';
import { describeAuditDetails } from '@/lib/audit-trail/details';
import { auditFilterProblem, auditTrailQuery, parseAuditFilter } from '@/lib/audit-trail/filter';
import { AUDIT_CURSOR_KINDS, auditFilterFor, listAuditPage } from '@/lib/audit-trail/queries.server';
import { requireStaff } from '@/lib/auth/session';
import { PAGE_LINK_PROBLEM, readPagePosition, withPosition } from '@/lib/db/keyset';
import { auditExportHref } from '@/lib/export/export-links';
import { listStaff } from '@/lib/staff/staff-accounts';
import { displayTimeZone } from '@/lib/time/display-zone';

export const metadata: Metadata = { title: 'Audit trail' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AuditPage({ searchParams }: Props) {
  await requireStaff('audit:read', '/audit');
  const params = await searchParams;
  const parsed = parseAuditFilter(params);
  const problems: { field: string; message: string }[] = [...parsed.problems];
  let filter = parsed.filter;
  // Pages by keyset (`after` / `before` cursors); an old `page=` link simply shows the first page.
  const { cursor: position, problem: badPageLink } = readPagePosition(params, AUDIT_CURSOR_KINDS);
  if (badPageLink) problems.push({ field: 'page', message: PAGE_LINK_PROBLEM });

  const [staff, timeZone] = await Promise.all([listStaff(), displayTimeZone()]);
  // An id that is no account's would filter to nothing while the select shows "Everyone".
  if (filter.actor && !staff.some((member) => member.id === filter.actor)) {
    filter = { ...filter, actor: undefined };
    problems.push(auditFilterProblem('actor'));
  }
  const { entries, links } = await listAuditPage(auditFilterFor(filter, timeZone), { position });
  const names = new Map(staff.map((s) => [s.id, s.name]));

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">Audit trail</h1>
          <p className="mt-1 text-sm text-slate-600">
            Who did what, and when. Entries hold ids, never names or e-mail addresses of the people verified.
          </p>
        </div>
        <ExportCsvLink href={auditExportHref(filter)} description="Download every entry matching these filters as a CSV file." />
      </div>

      <FilterForm
        clearHref="/audit"
        submitLabel="Filter"
        clearLabel="Clear"
        className="flex flex-wrap items-end gap-3"
        // The buttons sit in the row of fields.
        actionsClassName="contents"
      >
        <FilterField id="verification" label="Verification id">
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
        <FilterField id="actor" label="Person">
          <Select id="actor" name="actor" defaultValue={filter.actor ?? ''} sizing="h-10 w-52 py-2">
            <option value="">Everyone</option>
            {staff.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </Select>
        </FilterField>
        <FilterField id="action" label="Action">
          <Select id="action" name="action" defaultValue={filter.action ?? ''} sizing="h-10 w-56 py-2">
            <option value="">All actions</option>
            {Object.entries(AUDIT_ACTIONS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </FilterField>
        <FilterField id="from" label={`From (${timeZone})`} clipLabel>
          <Input id="from" name="from" type="date" defaultValue={filter.from ?? ''} sizing="h-10 w-40 py-2" />
        </FilterField>
        <FilterField id="to" label={`To (${timeZone})`} clipLabel>
          <Input id="to" name="to" type="date" defaultValue={filter.to ?? ''} sizing="h-10 w-40 py-2" />
        </FilterField>
      </FilterForm>

      <FilterProblemsAlert problems={problems} />

      <DataTable
        caption={links.newer ? 'Audit entries, newest first, a later page' : 'Audit entries, newest first'}
        columns={['When', 'Who', 'Action', 'On', 'Details']}
        bodyTestId="audit-entries"
      >
        {entries.map((entry) => (
          <tr key={entry.id} data-action={entry.action}>
            <td data-label="When" className="px-4 py-2.5 font-mono text-xs whitespace-nowrap text-slate-700">
              <TimeText iso={entry.at.toISOString()} timeZone={timeZone} />
            </td>
            <td data-label="Who" className="px-4 py-2.5">
              {entry.actorId ? (names.get(entry.actorId) ?? entry.actorId) : <span className="text-slate-500">—</span>}
            </td>
            <td data-label="Action" className="px-4 py-2.5">
              {isAuditAction(entry.action) ? AUDIT_ACTIONS[entry.action] : entry.action}
            </td>
            <td data-label="On" className="px-4 py-2.5">
              {entry.targetType === 'verification' && entry.targetId ? (
                <Link
                  href={`/verifications/${encodeURIComponent(entry.targetId)}`}
                  className={`${idTextClasses} text-indigo-700 hover:underline`}
                >
                  {entry.targetId}
                  <LinkPendingHint className="ml-1.5 align-[-2px]" />
                </Link>
              ) : entry.targetType === 'staff' && entry.targetId ? (
                <span>{names.get(entry.targetId) ?? entry.targetId}</span>
              ) : null}
            </td>
            <td data-label="Details" className="px-4 py-2.5 text-slate-600">
              {describeAuditDetails(entry.action, entry.details)}
            </td>
          </tr>
        ))}
        {entries.length === 0 ? (
          <tr>
            <td colSpan={5} className="px-4 py-8 text-center text-slate-600">
              No entries match these filters.
            </td>
          </tr>
        ) : null}
      </DataTable>
      {links.newer || links.older ? (
        <nav aria-label="Pages of the audit trail" className="flex flex-wrap gap-2">
          {links.newer ? (
            <Link href={`/audit${withPosition(auditTrailQuery(filter), links.newer)}`} className={buttonClasses('secondary')}>
              Newer entries
            </Link>
          ) : null}
          {links.older ? (
            <Link href={`/audit${withPosition(auditTrailQuery(filter), links.older)}`} className={buttonClasses('secondary')}>
              Older entries
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
