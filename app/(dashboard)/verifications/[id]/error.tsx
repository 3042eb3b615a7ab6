'use client';
// Last line of defence for the detail page: an unexpected failure still gets a calm page.
import { VerificationProblem } from '@/components/verifications/verification-problem';

export default function VerificationError() {
  return (
    <VerificationProblem
      kind="unexpected"
      title="This verification could not be shown"
      message="Something went wrong on our side. Try again in a moment; if it keeps happening, tell your administrator."
    />
  );
}
