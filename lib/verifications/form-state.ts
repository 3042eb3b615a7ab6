// What the create action answers the form with. It always carries the values that were
// submitted, so a form re-rendered after an error (also without JavaScript) loses nothing.
import type { CreateVerificationFieldErrors, CreateVerificationFormValues } from './schema';

export type CreatedVerification = {
  message: string;
  verificationId: string;
  link: string | null;
};

export type CreateVerificationFormState =
  | { status: 'idle'; submissionKey: string }
  | {
      status: 'invalid' | 'failed';
      submissionKey: string;
      values: CreateVerificationFormValues;
      fieldErrors: CreateVerificationFieldErrors;
      title: string;
      message: string;
    }
  | { status: 'created'; submissionKey: string; created: CreatedVerification };
