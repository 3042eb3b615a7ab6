// The register's filters (the forms kit's GET form) and quick views (plain links): they work before
// (or without) JavaScript, and every filtered list has a URL that can be bookmarked or shared.

import { useTranslations } from 'next-intl';
import { FilterField, FilterForm } from '@/components/forms/filter-form';
import { Input, Select } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { cn } from '@/lib/utils';
import { verificationStatuses } from '@/lib/verification-service/contract/verification-status';
import {
  CUSTOM_PURPOSE_FILTER,
  filterForView,
  MINE,
  PREDEFINED_PURPOSE_VALUES,
  REGISTER_VIEWS,
  type RegisterFilter,
  type RegisterView,
  registerQuery,
  SEARCH_MAX,
  UNASSIGNED,
} from '@/lib/verifications/register/filter';

export type StaffOption = { id: string; label: string };

/** `timeZone`: the zone whose whole days the dates select (the server reads them in it). */
export function RegisterFilters({ filter, staff, timeZone }: { filter: RegisterFilter; staff: StaffOption[]; timeZone: string }) {
  const t = useTranslations('register.filters');
  const tCommon = useTranslations('common');
  return (
    <FilterForm
      // A fresh form for each set of filters: its fields are uncontrolled, and a client-side
      // navigation (a quick view's link) would otherwise leave them showing the previous ones.
      key={registerQuery(filter)}
      action="/"
      clearHref="/"
      submitLabel={t('submit')}
      clearLabel={t('clear')}
      searchLabel={t('search')}
      className="space-y-3"
    >
      {/* Filtering inside a quick view stays in that view; the tabs show which one it is. */}
      {filter.view && filter.view !== 'all' ? <input type="hidden" name="view" value={filter.view} /> : null}
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-6">
        <FilterField id="register-q" label={t('q')} className="sm:col-span-2">
          <Input
            id="register-q"
            name="q"
            type="search"
            defaultValue={filter.q ?? ''}
            maxLength={SEARCH_MAX}
            placeholder={t('qPlaceholder')}
            autoComplete="off"
            spellCheck={false}
            aria-describedby="register-q-hint"
          />
          {/* An address or a number is looked up by its keyed hash (the register's queries). */}
          <p id="register-q-hint" className="mt-1 text-xs text-slate-600">
            {t('qHint')}
          </p>
        </FilterField>
        <FilterField id="register-status" label={t('status')}>
          <Select id="register-status" name="status" defaultValue={filter.status ?? ''}>
            <option value="">{t('anyStatus')}</option>
            {verificationStatuses.map((status) => (
              <option key={status} value={status}>
                {tCommon(`status.${status}`)}
              </option>
            ))}
          </Select>
        </FilterField>
        <FilterField id="register-purpose" label={t('purpose')}>
          <Select id="register-purpose" name="purpose" defaultValue={filter.purpose ?? ''}>
            <option value="">{t('anyPurpose')}</option>
            {PREDEFINED_PURPOSE_VALUES.map((purpose) => (
              <option key={purpose} value={purpose}>
                {tCommon(`purpose.${purpose}`)}
              </option>
            ))}
            <option value={CUSTOM_PURPOSE_FILTER}>{t('customPurpose')}</option>
          </Select>
        </FilterField>
        <FilterField id="register-created-by" label={t('createdBy')} className="sm:col-span-2">
          <Select id="register-created-by" name="createdBy" defaultValue={filter.createdBy ?? ''}>
            <option value="">{t('everyone')}</option>
            <option value={MINE}>{t('mine')}</option>
            {staff.map((member) => (
              <option key={member.id} value={member.id}>
                {member.label}
              </option>
            ))}
          </Select>
        </FilterField>
        {/* The queue's words: mine, unassigned, or a colleague (the same list as "Created by",
            so a disabled account still holding requests can be chosen). */}
        <FilterField id="register-assignee" label={t('assignee')} className="sm:col-span-2">
          <Select id="register-assignee" name="assignee" defaultValue={filter.assignee ?? ''}>
            <option value="">{t('anyAssignee')}</option>
            <option value={MINE}>{t('assignedToMe')}</option>
            <option value={UNASSIGNED}>{t('unassigned')}</option>
            {staff.map((member) => (
              <option key={member.id} value={member.id} translate="no">
                {member.label}
              </option>
            ))}
          </Select>
        </FilterField>
        <FilterField id="register-from" label={t('from', { zone: timeZone })}>
          <Input id="register-from" name="from" type="date" defaultValue={filter.from ?? ''} />
        </FilterField>
        <FilterField id="register-to" label={t('to', { zone: timeZone })}>
          <Input id="register-to" name="to" type="date" defaultValue={filter.to ?? ''} />
        </FilterField>
      </div>
    </FilterForm>
  );
}

/** "All", "Expiring soon", "Stuck", "Needs review": each keeps the other filters; counts where they are cheap. */
export function RegisterViews({ filter, counts }: { filter: RegisterFilter; counts: Partial<Record<RegisterView, number>> }) {
  const t = useTranslations('register.views');
  const active = filter.view ?? 'all';
  return (
    // min-w-0 and max-w-full: in a narrow row the tabs wrap inside the screen instead of pushing past it.
    <nav aria-label={t('label')} className="min-w-0 max-w-full">
      <ul className="flex w-fit max-w-full flex-wrap gap-1 rounded-md bg-slate-100 p-1 text-sm">
        {REGISTER_VIEWS.map((view) => {
          const count = counts[view];
          return (
            <li key={view}>
              <Link
                href={`/${registerQuery(filterForView(filter, view))}`}
                aria-current={active === view ? 'page' : undefined}
                title={t(`${view}.description`)}
                className={cn(
                  'inline-flex items-center gap-1.5 rounded px-3 py-1 font-medium text-slate-700 hover:text-slate-900',
                  active === view && 'bg-white text-slate-900 shadow-sm',
                )}
              >
                {t(`${view}.label`)}
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
