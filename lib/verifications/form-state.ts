// What the create action answers the form with. A refusal is the dashboard's one FormRefusal,
// so it always carries the values that were submitted, and a form re-rendered after an error
// (also without JavaScript) loses nothing. Every state carries the form's submission key.
import type { FormRefusal } from '@/lib/forms/form-state';
import type { CreateVerificationFormValues } from './form-values';

export type CreatedVerification = {
  message: string;
  verificationId: string;
  link: string | null;
};

export type CreateVerificationFormState = (
  | { status: 'idle' }
  | FormRefusal<CreateVerificationFormValues>
  | { status: 'created'; created: CreatedVerification }
) & { submissionKey: string };
