// What the create action answers the form with. A refusal is the dashboard's one FormRefusal,
// so it always carries the values that were submitted, and a form re-rendered after an error
// (also without JavaScript) loses nothing. Every state carries the form's submission key.
import type { FormRefusal } from '@/lib/forms/form-state';
import type { RequestChannels } from '@/lib/verifications/channels';
import type { CreateVerificationFormValues } from './form-values';

/** What was sent, as the result panel sums it up (no contact details). */
export type CreationSummary = { name: string; language: string; channels: RequestChannels };

/** The request a new one was meant to follow up, and whether the register now links the two. */
export type FollowUpOutcome = { verificationId: string; linked: true } | { verificationId?: string; linked: false; message: string };

export type CreatedVerification = {
  message: string;
  verificationId: string;
  link: string | null;
  summary?: CreationSummary;
  followUp?: FollowUpOutcome;
};

export type CreateVerificationFormState = (
  | { status: 'idle' }
  | FormRefusal<CreateVerificationFormValues>
  | { status: 'created'; created: CreatedVerification }
) & { submissionKey: string };
