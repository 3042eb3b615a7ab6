import { useTranslations } from 'next-intl';
import { VerificationProblem } from '@/components/verifications/verification-problem';

export default function VerificationNotFound() {
  const t = useTranslations('detail.problem');
  return <VerificationProblem kind="not_found" title={t('notFoundTitle')} message={t('notFoundMessage')} />;
}
