import Link from 'next/link';
import { buttonClasses } from '@/components/ui/button';

export default function NotFound() {
  return (
    <main className="mx-auto max-w-xl space-y-4 px-6 py-16">
      <h1 className="text-2xl font-semibold text-slate-900">Page not found</h1>
      <p className="text-slate-700">There is nothing at this address.</p>
      <Link href="/" className={buttonClasses('secondary')}>
        Back to requests
      </Link>
    </main>
  );
}
