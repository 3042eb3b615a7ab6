// The create form's values and limits, without the zod schema: what the form needs to render
// and to read itself back (from a post, or from the page before the enhanced form takes over).
// Kept apart from schema.ts so the browser loads zod only when it first validates (the form
// page's first load stays small); schema.ts re-exports all of this for everyone else.

export const NAME_MAX = 200;
export const EMAIL_MAX = 254;
export const PURPOSE_MAX = 500;

export const OTHER_PURPOSE = 'other';

/** The form as staff fill it in (schema.ts turns it into the service's request body). */
export type CreateVerificationFormValues = {
  name: string;
  email: string;
  purpose: string;
  customPurpose: string;
  language: string;
  shareableLink: boolean;
  emailNotification: boolean;
  smsNotification: boolean;
  phone: string;
};

export type CreateVerificationFieldErrors = Partial<Record<keyof CreateVerificationFormValues, string[]>>;

export const emptyCreateVerificationForm: CreateVerificationFormValues = {
  name: '',
  email: '',
  purpose: '',
  customPurpose: '',
  language: 'en',
  shareableLink: false,
  emailNotification: true,
  smsNotification: false,
  phone: '',
};

/** Reads the form as the browser posts it (with or without JavaScript); unchecked boxes are absent. */
export function formValuesFromFormData(formData: FormData): CreateVerificationFormValues {
  const text = (key: string) => {
    const value = formData.get(key);
    return typeof value === 'string' ? value : '';
  };
  const checked = (key: string) => {
    const value = formData.get(key);
    return value === 'on' || value === 'true';
  };
  return {
    name: text('name'),
    email: text('email'),
    purpose: text('purpose'),
    customPurpose: text('customPurpose'),
    language: text('language'),
    shareableLink: checked('shareableLink'),
    emailNotification: checked('emailNotification'),
    smsNotification: checked('smsNotification'),
    phone: text('phone'),
  };
}
