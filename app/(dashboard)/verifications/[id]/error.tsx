'use client';
import { CloudOff } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
// Last line of defence for the detail page: an unexpected failure still gets a calm page.
// Deliberately small (no lookup form, unlike the expected problems the page itself explains):
// this boundary's code is part of every detail page's first load.
import { Link } from '@/components/ui/link';

export default function VerificationError({ reset }: { reset: () => void }) {
  return (
    <div className="mx-auto max-w-2xl space-y-6" data-problem="unexpected">
      <div className="flex gap-4">
        <CloudOff aria-hidden="true" className="mt-1 size-8 shrink-0 text-slate-500" />
        <div className="min-w-0 space-y-2">
          <h1 className="text-2xl font-semibold text-slate-900">This verification could not be shown</h1>
          <p className="text-slate-700">
            Something went wrong on our side. Try again in a moment; if it keeps happening, tell your administrator.
          </p>
        </div>
      </div>
      <div className="flex flex-wrap gap-3 pl-12">
        <button type="button" className={buttonClasses('primary')} onClick={reset}>
          Try again
        </button>
        <Link href="/" className={buttonClasses('secondary')}>
          Back to requests
        </Link>
      </div>
    </div>
  );
}
