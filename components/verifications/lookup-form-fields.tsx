'use client';
import { Loader2, Search } from 'lucide-react';
// Look a verification up by its id, the address of its page (lookup-input.ts reads both), or the
// person's link (the server finds whose: lookup.server.ts).
// A plain GET form to /verifications (which redirects to the detail page), enhanced with instant
// checking and client-side navigation when JS runs.
import { useRouter } from 'next/navigation';
import { type FormEvent, useState, useTransition } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Button } from '@/components/ui/button';
import { FieldError } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { LOOKUP_ID_MAX, type LookupProblem, parseLookupInput } from '@/lib/verifications/lookup-input';

/** The form itself; its words (detail.lookup) are handed down by LookupForm (lookup-form.tsx) or the page. */
export function LookupFormFields({ initialValue = '', initialProblem }: { initialValue?: string; initialProblem?: LookupProblem }) {
  const t = useClientTranslations('detail.lookup');
  const router = useRouter();
  const [problem, setProblem] = useState(initialProblem);
  const error = problem ? t(`errors.${problem}`, { max: LOOKUP_ID_MAX }) : undefined;
  // The detail page has no route skeleton (see LinkPendingHint): the button shows the wait.
  const [isPending, startTransition] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const lookup = parseLookupInput(String(new FormData(event.currentTarget).get('id') ?? ''));
    if ('error' in lookup) {
      setProblem(lookup.problem);
      return;
    }
    setProblem(undefined);
    // A person's link: only the server knows whose it is (lib/verifications/lookup.server.ts).
    const target =
      'link' in lookup ? `/verifications?id=${encodeURIComponent(lookup.link)}` : `/verifications/${encodeURIComponent(lookup.id)}`;
    startTransition(() => router.push(target));
  }

  return (
    // biome-ignore lint/a11y/useSemanticElements: role=search on the form itself is valid ARIA and keeps landmark and form one element.
    <form action="/verifications" method="get" onSubmit={onSubmit} role="search" noValidate className="space-y-1.5">
      <label htmlFor="lookup-id" className="block text-sm font-medium text-slate-900">
        {t('label')}
      </label>
      <div className="flex gap-2">
        <Input
          id="lookup-id"
          name="id"
          defaultValue={initialValue}
          placeholder={t('placeholder')}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          aria-invalid={error ? true : undefined}
          aria-describedby="lookup-id-hint lookup-id-error"
          onChange={() => setProblem(undefined)}
        />
        <Button type="submit" variant="secondary" aria-busy={isPending || undefined}>
          {isPending ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : <Search aria-hidden="true" className="size-4" />}
          {t('submit')}
        </Button>
      </div>
      <p id="lookup-id-hint" className="text-sm text-slate-600">
        {t('linkHint')}
      </p>
      <FieldError id="lookup-id-error" message={error} />
    </form>
  );
}
