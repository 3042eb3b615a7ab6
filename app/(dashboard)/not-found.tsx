// A missing page for signed-in staff keeps the dashboard's header and navigation: it renders
// inside the group's layout (which provides <main>). Without a session the layout adds nothing,
// so the page is the same as the site-wide one.
import { PageNotFound } from '@/components/platform/page-not-found';
import { getCurrentStaff } from '@/lib/auth/session';

export default async function DashboardNotFound() {
  // The layout's own lookup, remembered for this request.
  const staff = await getCurrentStaff().catch(() => null);
  if (staff) return <PageNotFound />;
  return (
    <main className="px-6 py-16">
      <PageNotFound />
    </main>
  );
}
