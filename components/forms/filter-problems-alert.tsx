// Said above a filtered list when some of the URL's filters could not be read: each is ignored,
// and the list shows what the others select. Nothing when every filter was understood.
import { useTranslations } from 'next-intl';
import { Alert } from '@/components/ui/alert';

export function FilterProblemsAlert({ problems }: { problems: readonly { field: string; message: string }[] }) {
  const t = useTranslations('forms.filterProblems');
  if (problems.length === 0) return null;
  return (
    <Alert tone="warning" role="status" title={t('title')}>
      <ul className="list-disc space-y-0.5 pl-5">
        {problems.map((problem) => (
          <li key={problem.field}>{problem.message}</li>
        ))}
      </ul>
    </Alert>
  );
}
