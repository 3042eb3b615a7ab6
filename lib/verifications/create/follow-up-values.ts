// The create form filled in from the register row of the request it follows up
// (follow-up/follow-up.server.ts checks that request): what the row keeps, never contact details.

import { isPredefinedPurpose } from '@/lib/verifications/labels';
import type { RegisterEntry } from '@/lib/verifications/register/queries.server';
import { type CreateVerificationFormValues, emptyCreateVerificationForm, OTHER_PURPOSE } from './form-values';

/** The create form filled in from a register row: everything it keeps, no contact details. */
export function followUpFormValues(entry: RegisterEntry): CreateVerificationFormValues {
  const predefined = isPredefinedPurpose(entry.purpose);
  return {
    ...emptyCreateVerificationForm,
    name: entry.name,
    purpose: predefined ? entry.purpose : OTHER_PURPOSE,
    customPurpose: predefined ? '' : entry.purpose,
    language: entry.language,
    shareableLink: entry.shareableLink,
    // With a shareable link the service sends no e-mail, and the form keeps that switch off.
    emailNotification: entry.emailNotification && !entry.shareableLink,
    smsNotification: entry.smsNotification,
  };
}
