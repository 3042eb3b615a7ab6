// Home: look a verification up by id, and the register of recent requests (mine or everyone's).
import Link from 'next/link';
import { LookupForm } from '@/components/verifications/lookup-form';
import { RecentRequests } from '@/components/verifications/recent-requests';
import { can } from '@/lib/auth/roles';
import { requireStaff } from '@/lib/auth/session';
import { listRecentRequests } from '@/lib/verifications/register';
import { cn } from '@/lib/utils';

type Props = { searchParams: Promise<{ scope?: string }> };

export default async function HomePage({ searchParams }: Props) {
  const staff = await requireStaff('verification:read', '/');
  const { scope: requested } = await searchParams;
  const scope = requested === 'mine' ? 'mine' : 'all';
  const entries = await listRecentRequests({ createdBy: scope === 'mine' ? staff.id : undefined });
  const tabs = [
    { scope: 'all', label: "Everyone's", href: '/' },
    { scope: 'mine', label: 'Mine', href: '/?scope=mine' },
  ];
  return (
    <div className="space-y-10">
      <div className="space-y-6">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">Verification requests</h1>
          <p className="mt-1 text-sm text-slate-600">Create requests, share their links and follow their status.</p>
        </div>
        <div className="max-w-xl">
          <LookupForm />
        </div>
      </div>
      <section aria-labelledby="recent-heading" className="space-y-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="recent-heading" className="text-lg font-semibold text-slate-900">
            Recent requests
          </h2>
          <nav aria-label="Whose requests" className="inline-flex rounded-md bg-slate-100 p-1 text-sm">
            {tabs.map((tab) => (
              <Link
                key={tab.scope}
                href={tab.href}
                aria-current={scope === tab.scope ? 'page' : undefined}
                className={cn(
                  'rounded px-3 py-1 font-medium text-slate-700 hover:text-slate-900',
                  scope === tab.scope && 'bg-white text-slate-900 shadow-sm',
                )}
              >
                {tab.label}
              </Link>
            ))}
          </nav>
        </div>
        <RecentRequests
          entries={entries}
          now={new Date()}
          showLinks={can(staff.role, 'link:copy')}
          canCreate={can(staff.role, 'verification:create')}
        />
      </section>
    </div>
  );
}
