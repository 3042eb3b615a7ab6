'use client';
// Shown when a page fails unexpectedly: no stack trace, a way back, and a retry.
//
// The way back is a plain link, and the button classes come without Button's module: neither
// brings next/link, which would otherwise be a second copy in every page's first load (this
// boundary's code is in all of them, and the dashboard layout ships next/link too), about 4 KB
// gzip. After an unexpected failure a full load of the requests page is the surer way back anyway.
import { buttonClasses } from '@/components/ui/button-classes';

export default function RootError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="mx-auto max-w-xl space-y-4 px-6 py-16">
      <h1 className="text-2xl font-semibold text-slate-900">Something went wrong</h1>
      <p className="text-slate-700">The page could not be shown. Try again in a moment; if it keeps happening, tell your administrator.</p>
      <div className="flex gap-3">
        <button type="button" className={buttonClasses('primary')} onClick={reset}>
          Try again
        </button>
        <a href="/" className={buttonClasses('secondary')}>
          Back to requests
        </a>
      </div>
    </main>
  );
}
