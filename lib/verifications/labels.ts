// Human labels for the service's codes. Unknown values (a real service may add methods or
// purposes) are shown as they come rather than hidden.
import type { VerificationStatus } from '@/lib/verification-service/contract/verification-status';

export const PREDEFINED_PURPOSES = [
  {
    value: 'legal_obligations',
    label: 'Legal obligation',
    hint: 'A law or regulation requires you to verify this person.',
  },
  {
    value: 'processing_gdpr_request',
    label: 'Processing a GDPR request',
    hint: 'The person asked to access, correct or erase their data.',
  },
  {
    value: 'ensuring_compliance',
    label: 'Ensuring compliance',
    hint: 'An internal policy or audit asks for it.',
  },
] as const;

export type PredefinedPurpose = (typeof PREDEFINED_PURPOSES)[number]['value'];

export const LANGUAGES = [
  { value: 'en', label: 'English' },
  { value: 'fr', label: 'Français' },
  { value: 'nl', label: 'Nederlands' },
] as const;

export type Language = (typeof LANGUAGES)[number]['value'];

const STATUS_LABELS: Record<VerificationStatus, string> = {
  pending: 'Pending',
  completed: 'Completed',
  expired: 'Expired',
  failed: 'Failed',
};

const METHOD_LABELS: Record<string, string> = {
  passport: 'Passport',
  id_card: 'Identity card',
  drivers_license: "Driver's licence",
};

export function purposeLabel(purpose: string): string {
  return PREDEFINED_PURPOSES.find((p) => p.value === purpose)?.label ?? purpose;
}

export function isPredefinedPurpose(purpose: string): purpose is PredefinedPurpose {
  return PREDEFINED_PURPOSES.some((p) => p.value === purpose);
}

export function languageLabel(language: string): string {
  return LANGUAGES.find((l) => l.value === language)?.label ?? language;
}

export function statusLabel(status: string): string {
  return STATUS_LABELS[status as VerificationStatus] ?? status;
}

export function methodLabel(method: string | null): string | null {
  if (method === null) return null;
  return METHOD_LABELS[method] ?? method;
}
