// The register's filters (the forms kit's GET form) and quick views (plain links): they work before
// (or without) JavaScript, and every filtered list has a URL that can be bookmarked or shared.

import { FilterField, FilterForm } from '@/components/forms/filter-form';
import { Input, Select } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { cn } from '@/lib/utils';
import { verificationStatuses } from '@/lib/verification-service/contract/verification-status';
import { PREDEFINED_PURPOSES, statusLabel } from '@/lib/verifications/labels';
import {
  CUSTOM_PURPOSE_FILTER,
  filterForView,
  MINE,
  type RegisterFilter,
  type RegisterView,
  registerQuery,
  SEARCH_MAX,
} from '@/lib/verifications/register/filter';

export type StaffOption = { id: string; label: string };

/** `timeZone`: the zone whose whole days the dates select (the server reads them in it). */
export function RegisterFilters({ filter, staff, timeZone }: { filter: RegisterFilter; staff: StaffOption[]; timeZone: string }) {
  return (
    <FilterForm
      // A fresh form for each set of filters: its fields are uncontrolled, and a client-side
      // navigation (a quick view's link) would otherwise leave them showing the previous ones.
      key={registerQuery(filter)}
      action="/"
      clearHref="/"
      submitLabel="Apply filters"
      clearLabel="Clear filters"
      searchLabel="Filter recent requests"
      className="space-y-3"
    >
      {/* Filtering inside a quick view stays in that view; the tabs show which one it is. */}
      {filter.view && filter.view !== 'all' ? <input type="hidden" name="view" value={filter.view} /> : null}
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-6">
        <FilterField id="register-q" label="Search by name or id" className="sm:col-span-2">
          <Input
            id="register-q"
            name="q"
            type="search"
            defaultValue={filter.q ?? ''}
            maxLength={SEARCH_MAX}
            placeholder="Part of a name, or the start of an id"
            autoComplete="off"
            spellCheck={false}
          />
        </FilterField>
        <FilterField id="register-status" label="Status">
          <Select id="register-status" name="status" defaultValue={filter.status ?? ''}>
            <option value="">Any status</option>
            {verificationStatuses.map((status) => (
              <option key={status} value={status}>
                {statusLabel(status)}
              </option>
            ))}
          </Select>
        </FilterField>
        <FilterField id="register-purpose" label="Purpose">
          <Select id="register-purpose" name="purpose" defaultValue={filter.purpose ?? ''}>
            <option value="">Any purpose</option>
            {PREDEFINED_PURPOSES.map((purpose) => (
              <option key={purpose.value} value={purpose.value}>
                {purpose.label}
              </option>
            ))}
            <option value={CUSTOM_PURPOSE_FILTER}>Other (described by hand)</option>
          </Select>
        </FilterField>
        <FilterField id="register-created-by" label="Created by" className="sm:col-span-2">
          <Select id="register-created-by" name="createdBy" defaultValue={filter.createdBy ?? ''}>
            <option value="">Everyone</option>
            <option value={MINE}>Mine</option>
            {staff.map((member) => (
              <option key={member.id} value={member.id}>
                {member.label}
              </option>
            ))}
          </Select>
        </FilterField>
        <FilterField id="register-from" label={`Created from (${timeZone})`}>
          <Input id="register-from" name="from" type="date" defaultValue={filter.from ?? ''} />
        </FilterField>
        <FilterField id="register-to" label={`Created to (${timeZone})`}>
          <Input id="register-to" name="to" type="date" defaultValue={filter.to ?? ''} />
        </FilterField>
      </div>
    </FilterForm>
  );
}

const VIEWS: { view: RegisterView; label: string; description: string }[] = [
  { view: 'all', label: 'All', description: 'Every request, newest first.' },
  {
    view: 'expiring',
    label: 'Expiring soon',
    description: 'Pending requests whose link stops working within the next 24 hours, soonest first.',
  },
  {
    view: 'stuck',
    label: 'Stuck',
    description: 'Pending requests past half their validity with no answer yet, newest first.',
  },
  {
    view: 'review',
    label: 'Needs review',
    description: 'Completed requests whose identified name differs from the requested one, with no decision yet, newest first.',
  },
];

export function viewDescription(view: RegisterView): string {
  return VIEWS.find((v) => v.view === view)!.description;
}

/** "All", "Expiring soon", "Stuck", "Needs review": each keeps the other filters; counts where they are cheap. */
export function RegisterViews({ filter, counts }: { filter: RegisterFilter; counts: Partial<Record<RegisterView, number>> }) {
  const active = filter.view ?? 'all';
  return (
    <nav aria-label="Quick views">
      <ul className="inline-flex flex-wrap gap-1 rounded-md bg-slate-100 p-1 text-sm">
        {VIEWS.map(({ view, label, description }) => {
          const count = counts[view];
          return (
            <li key={view}>
              <Link
                href={`/${registerQuery(filterForView(filter, view))}`}
                aria-current={active === view ? 'page' : undefined}
                title={description}
                className={cn(
                  'inline-flex items-center gap-1.5 rounded px-3 py-1 font-medium text-slate-700 hover:text-slate-900',
                  active === view && 'bg-white text-slate-900 shadow-sm',
                )}
              >
                {label}
                {count !== undefined ? (
                  <span
                    className={cn(
                      'rounded-full px-1.5 text-xs tabular-nums',
                      count > 0 ? 'bg-amber-100 text-amber-900' : 'bg-slate-200 text-slate-700',
                    )}
                  >
                    <span className="sr-only">(</span>
                    {count}
                    <span className="sr-only">)</span>
                  </span>
                ) : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
