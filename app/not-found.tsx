import { PageNotFound } from '@/components/platform/page-not-found';

export default function NotFound() {
  return (
    <main className="px-6 py-16">
      <PageNotFound />
    </main>
  );
}
