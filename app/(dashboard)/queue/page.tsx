// Needs attention: the requests that need a person now (lib/verifications/queue), with who is on
// each, filtered by whose items through the query string, so it works without JavaScript and each
// choice has a URL. Open pages follow claims and changes made elsewhere through the live stream.
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { ClientMessagesFor } from '@/components/i18n/client-messages-for';
import { buttonClasses } from '@/components/ui/button';
import { Select } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { QueueList } from '@/components/verifications/queue-list';
import { can } from '@/lib/auth/roles';
import { requireStaff } from '@/lib/auth/session';
import { getEnv } from '@/lib/env';
import { displayTimeZone } from '@/lib/time/display-zone';
import { cn } from '@/lib/utils';
import { assigneeFilterParam, readAssigneeFilter } from '@/lib/verifications/assignment/assignee-filter';
import { listAssignableStaff } from '@/lib/verifications/assignment/assignment.server';
import { listQueue, queueDays } from '@/lib/verifications/queue/queue.server';
import { QUEUE_REASONS } from '@/lib/verifications/queue/reasons';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('queue.page');
  return { title: t('metaTitle') };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const chipClasses = 'rounded-md px-3 py-1.5 text-sm font-medium ring-1 ring-inset';

export default async function QueuePage({ searchParams }: Props) {
  const staff = await requireStaff('verification:read', '/queue');
  const [params, t, colleagues, timeZone] = await Promise.all([
    searchParams,
    getTranslations('queue'),
    listAssignableStaff(),
    displayTimeZone(),
  ]);
  const asked = readAssigneeFilter(params.assignee);
  // An id that is nobody's who works on requests shows everyone's rather than an empty queue.
  const filter = typeof asked === 'object' && !colleagues.some((colleague) => colleague.id === asked.staffId) ? 'all' : asked;
  const days = queueDays(getEnv());
  const queue = await listQueue(filter, { now: new Date(), ...days, staffId: staff.id });
  const selected = assigneeFilterParam(filter);
  const choice = (value: string, label: string) => (
    <Link
      href={value ? `/queue?assignee=${encodeURIComponent(value)}` : '/queue'}
      aria-current={selected === value ? 'page' : undefined}
      className={cn(
        chipClasses,
        selected === value ? 'bg-indigo-50 text-indigo-900 ring-indigo-300' : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50',
      )}
    >
      {label}
    </Link>
  );

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">{t('page.title')}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          {t('page.intro')} {t('page.followUpWindow', { days: days.followUpDays })}
        </p>
      </div>

      <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
        <nav aria-label={t('filter.nav')} className="flex flex-wrap gap-2">
          {choice('', t('filter.all'))}
          {can(staff.role, 'verification:assign') ? choice('mine', t('filter.mine')) : null}
          {choice('unassigned', t('filter.unassigned'))}
        </nav>
        <form method="get" action="/queue" className="flex flex-wrap items-end gap-2">
          <div className="space-y-1">
            <label htmlFor="queue-colleague" className="block text-sm font-medium text-slate-900">
              {t('filter.colleague')}
            </label>
            <Select
              id="queue-colleague"
              name="assignee"
              sizing="h-9 w-56 max-w-full py-1.5"
              defaultValue={typeof filter === 'object' ? filter.staffId : ''}
            >
              <option value="">{t('filter.all')}</option>
              {colleagues.map((colleague) => (
                <option key={colleague.id} value={colleague.id} translate="no">
                  {colleague.name}
                </option>
              ))}
            </Select>
          </div>
          <button type="submit" className={buttonClasses('secondary', 'sm', 'h-9')}>
            {t('filter.show')}
          </button>
        </form>
      </div>

      <section aria-labelledby="queue-counts-heading">
        <h2 id="queue-counts-heading" className="sr-only">
          {t('counts')}
        </h2>
        <ul className="flex flex-wrap gap-2" data-testid="queue-counts">
          {QUEUE_REASONS.map((reason) => (
            <li
              key={reason}
              data-reason={reason}
              className="inline-flex items-center gap-2 rounded-md bg-white px-3 py-1.5 text-sm text-slate-700 ring-1 ring-slate-200 ring-inset"
            >
              {t(`reasons.${reason}`)}
              <span className="rounded bg-slate-100 px-1.5 text-xs font-semibold text-slate-900 tabular-nums">{queue.counts[reason]}</span>
            </li>
          ))}
        </ul>
      </section>

      {queue.items.length === 0 ? (
        <div className="rounded-lg bg-white px-6 py-10 text-center shadow-sm ring-1 ring-slate-200" data-testid="queue-empty">
          <p className="font-medium text-slate-900">{filter === 'all' ? t('page.empty') : t('page.emptyFiltered')}</p>
          {filter === 'all' ? <p className="mt-1 text-sm text-slate-600">{t('page.allClear')}</p> : null}
        </div>
      ) : (
        <div className="space-y-2">
          <ClientMessagesFor namespaces={['queue.take']}>
            <QueueList
              items={queue.items}
              canTake={can(staff.role, 'verification:assign')}
              pendingDays={days.pendingDays}
              timeZone={timeZone}
              caption={t('page.caption')}
            />
          </ClientMessagesFor>
          {queue.total > queue.items.length ? (
            <p className="text-sm text-slate-600">{t('page.showingOldest', { shown: queue.items.length, total: queue.total })}</p>
          ) : null}
        </div>
      )}
    </div>
  );
}
