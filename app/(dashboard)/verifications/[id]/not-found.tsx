import { VerificationProblem } from '@/components/verifications/verification-problem';

export default function VerificationNotFound() {
  return (
    <VerificationProblem
      kind="not_found"
      title="Verification not found"
      message="The service has no verification with this id. Check the id for typos. Verifications are also purged once their retention period ends."
    />
  );
}
