// Home: look a verification up by id, and the register of recent requests — searched, filtered
// and paged through the query string, so it works without JavaScript and every view has a URL.

import { getTranslations } from 'next-intl/server';
import { ExportCsvLink } from '@/components/export/export-csv-link';
import { FilterProblemsAlert } from '@/components/forms/filter-problems-alert';
import { buttonClasses } from '@/components/ui/button';
import { Link } from '@/components/ui/link';
import { LookupForm } from '@/components/verifications/lookup-form';
import { RecentRequests } from '@/components/verifications/recent-requests';
import { RegisterFilters, RegisterViews, type StaffOption } from '@/components/verifications/register-filters';
import { can } from '@/lib/auth/roles';
import { requireStaff } from '@/lib/auth/session';
import { readPagePosition, withPosition } from '@/lib/db/keyset';
import { registerExportHref } from '@/lib/export/export-links';
import { listStaff, type StaffSummary } from '@/lib/staff/staff-accounts';
import { displayTimeZone } from '@/lib/time/display-zone';
import {
  hasActiveFilters,
  MINE,
  parseRegisterFilter,
  type RegisterFilterField,
  registerQuery,
  SEARCH_MAX,
  UNASSIGNED,
} from '@/lib/verifications/register/filter';
import {
  countNeedsReview,
  countRegisterResults,
  countRegisterViews,
  listRegisterPage,
  RESULT_COUNT_BOUND,
  registerCursorKinds,
} from '@/lib/verifications/register/queries.server';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * Staff by name; a name two accounts share gets its e-mail address, so the choice is clear.
 * `disabled` words a disabled account's option.
 */
function staffOptions(staff: StaffSummary[], disabled: (name: string) => string): StaffOption[] {
  const seen = new Map<string, number>();
  for (const member of staff) seen.set(member.name, (seen.get(member.name) ?? 0) + 1);
  return staff.map((member) => {
    const name = `${member.name}${(seen.get(member.name) ?? 0) > 1 ? ` (${member.email})` : ''}`;
    return { id: member.id, label: member.disabled ? disabled(name) : name };
  });
}

export default async function HomePage({ searchParams }: Props) {
  const staff = await requireStaff('verification:read', '/');
  const [params, t] = await Promise.all([searchParams, getTranslations('register')]);
  const parsed = parseRegisterFilter(params);
  let filter = parsed.filter;
  // Each problem in the reader's words, by the field it is about. A status the "Expiring soon"
  // view overrode is the one status problem that view can have.
  const problemMessage = (field: RegisterFilterField) =>
    field === 'status' && filter.view === 'expiring'
      ? t('problems.expiringPendingOnly')
      : field === 'q'
        ? t('problems.q', { max: SEARCH_MAX })
        : t(`problems.${field}`);
  const problems: { field: string; message: string }[] = parsed.problems.map(({ field }) => ({ field, message: problemMessage(field) }));
  // Pages by keyset (`after` / `before` cursors); an old `page=` link simply shows the first page.
  const { cursor: position, problem: badPageLink } = readPagePosition(params, registerCursorKinds(filter.view));
  if (badPageLink) problems.push({ field: 'page', message: t('problems.page') });

  const [members, timeZone] = await Promise.all([listStaff(), displayTimeZone()]);
  // An id that is no account's would filter to nothing while the select shows "Everyone".
  const isAccount = (id: string) => members.some((member) => member.id === id);
  if (filter.createdBy && filter.createdBy !== MINE && !isAccount(filter.createdBy)) {
    filter = { ...filter, createdBy: undefined };
    problems.push({ field: 'createdBy', message: problemMessage('createdBy') });
  }
  if (filter.assignee && filter.assignee !== MINE && filter.assignee !== UNASSIGNED && !isAccount(filter.assignee)) {
    filter = { ...filter, assignee: undefined };
    problems.push({ field: 'assignee', message: problemMessage('assignee') });
  }

  // One clock for the query and the rendering, so "expires in" agrees with the view it is in.
  const now = new Date();
  const context = { now, staffId: staff.id, timeZone };
  const [{ entries, links }, counts, needsReview, results] = await Promise.all([
    listRegisterPage(filter, { ...context, position }),
    countRegisterViews(filter, context),
    countNeedsReview(filter, context),
    // Bounded: beyond RESULT_COUNT_BOUND the page says "more than", and the count stays cheap.
    countRegisterResults(filter, context),
  ]);
  const paged = links.newer !== undefined;
  const view = filter.view ?? 'all';
  const filtered = hasActiveFilters(filter);
  // The expiring view runs by deadline, the others by creation date.
  const [newerLabel, olderLabel] = view === 'expiring' ? [t('page.sooner'), t('page.later')] : [t('page.newer'), t('page.older')];
  const viewDescription = t(`views.${view}.description`);
  const caption = [
    view === 'all' ? t('page.captionAll') : viewDescription.replace(/\.$/, ''),
    filtered ? t('page.captionFiltered') : null,
    paged ? t('page.captionLaterPage') : null,
  ]
    .filter(Boolean)
    .join(', ');

  return (
    <div className="space-y-10">
      <div className="space-y-6">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">{t('page.title')}</h1>
          <p className="mt-1 text-sm text-slate-600">
            {/* What the page is for, in what the role may do: a viewer is not invited to create or share. */}
            {can(staff.role, 'verification:create') ? t('page.introCreate') : t('page.introRead')}
          </p>
        </div>
        <div className="max-w-xl">
          <LookupForm />
        </div>
      </div>
      <section aria-labelledby="recent-heading" className="space-y-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h2 id="recent-heading" className="text-lg font-semibold text-slate-900">
              {t('page.recentHeading')}
            </h2>
            <p className="mt-1 text-sm text-slate-600">{viewDescription}</p>
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <RegisterViews filter={filter} counts={{ expiring: counts.expiring, stuck: counts.stuck, review: needsReview }} />
            {can(staff.role, 'verification:read') ? (
              <ExportCsvLink href={registerExportHref(filter)} description={t('page.exportDescription')} offerCodes />
            ) : null}
          </div>
        </div>
        <RegisterFilters filter={filter} staff={staffOptions(members, (name) => t('page.disabledStaff', { name }))} timeZone={timeZone} />
        <FilterProblemsAlert problems={problems} />
        <p className="text-sm font-medium text-slate-700" data-testid="register-count">
          {results.more ? t('page.resultCountMore', { bound: RESULT_COUNT_BOUND }) : t('page.resultCount', { count: results.count })}
        </p>
        <RecentRequests
          entries={entries}
          now={now}
          showLinks={can(staff.role, 'link:copy')}
          canCreate={can(staff.role, 'verification:create')}
          caption={caption}
          view={view}
          filtered={filtered || paged}
          timeZone={timeZone}
        />
        {links.newer || links.older ? (
          <nav aria-label={t('page.pagesNav')} className="flex flex-wrap gap-2">
            {links.newer ? (
              <Link href={`/${withPosition(registerQuery(filter), links.newer)}`} className={buttonClasses('secondary')}>
                {newerLabel}
              </Link>
            ) : null}
            {links.older ? (
              <Link href={`/${withPosition(registerQuery(filter), links.older)}`} className={buttonClasses('secondary')}>
                {olderLabel}
              </Link>
            ) : null}
          </nav>
        ) : null}
      </section>
    </div>
  );
}
