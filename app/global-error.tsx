'use client';
// Replaces the root layout when it fails itself; must render its own <html>.
import './globals.css';

export default function GlobalError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body>
        <main className="mx-auto max-w-xl space-y-4 px-6 py-16">
          <h1 className="text-2xl font-semibold text-slate-900">Verification Desk is having trouble</h1>
          <p className="text-slate-700">The dashboard could not load. Try again in a moment.</p>
          <button
            type="button"
            onClick={reset}
            className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700"
          >
            Try again
          </button>
        </main>
      </body>
    </html>
  );
}
