'use client';
// Shown when a page fails unexpectedly: no stack trace, a way back, and a retry.
import Link from 'next/link';
import { buttonClasses } from '@/components/ui/button';

export default function RootError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="mx-auto max-w-xl space-y-4 px-6 py-16">
      <h1 className="text-2xl font-semibold text-slate-900">Something went wrong</h1>
      <p className="text-slate-700">The page could not be shown. Try again in a moment; if it keeps happening, tell your administrator.</p>
      <div className="flex gap-3">
        <button type="button" className={buttonClasses('primary')} onClick={reset}>
          Try again
        </button>
        <Link href="/" className={buttonClasses('secondary')}>
          Back to requests
        </Link>
      </div>
    </main>
  );
}
