// Home: look a verification up by id, and the register of recent requests.
import { connection } from 'next/server';
import { LookupForm } from '@/components/verifications/lookup-form';
import { RecentRequests } from '@/components/verifications/recent-requests';
import { listRecentRequests } from '@/lib/verifications/register';

export default async function HomePage() {
  await connection();
  const entries = await listRecentRequests(50);
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
        <h2 id="recent-heading" className="text-lg font-semibold text-slate-900">
          Recent requests
        </h2>
        <RecentRequests entries={entries} now={new Date()} />
      </section>
    </div>
  );
}
