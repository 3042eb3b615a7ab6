// The create-verification form's field set, once for both of its lives (create-verification-
// form.tsx): the plain form of the page's first load (native inputs named for the post, the
// server's errors, conditional fields shown by CSS) and the form react-hook-form drives once its
// code has arrived. Both render exactly this, so the swap changes nothing on screen; only the
// binding differs (`bind`: name → props for the control, the errors and the watched values).

import type { CountryCode } from 'libphonenumber-js/min';
import type { ComponentProps, ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { PendingSubmitButton } from '@/components/forms/pending-submit-button';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Alert } from '@/components/ui/alert';
import { Field, FieldError, fieldDescribedBy } from '@/components/ui/field';
import { Input, Select, Textarea } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { cn } from '@/lib/utils';
import type { CreateVerificationFormState } from '@/lib/verifications/create/form-state';
import {
  type CreateVerificationFormValues,
  emptyCreateVerificationForm,
  NAME_MAX,
  OTHER_PURPOSE,
  PURPOSE_MAX,
} from '@/lib/verifications/create/form-values';
import { LANGUAGES, PREDEFINED_PURPOSES } from '@/lib/verifications/labels';

export type FieldName = keyof CreateVerificationFormValues;

/** What a control gets from `bind`: its name, and from react-hook-form its handlers and ref. */
export type FieldBinding = Partial<UseFormRegisterReturn<FieldName>> & { name: FieldName };

/** One message per field, the first the server or the browser found. */
export type FieldMessages = Partial<Record<FieldName, string>>;

/** The fields' messages, from wherever the errors are kept (the server's answer, react-hook-form). */
export function fieldMessages(messageOf: (field: FieldName) => string | undefined): FieldMessages {
  const messages: FieldMessages = {};
  for (const field of Object.keys(emptyCreateVerificationForm) as FieldName[]) {
    const message = messageOf(field);
    if (message) messages[field] = message;
  }
  return messages;
}

export type WatchedValues = Pick<CreateVerificationFormValues, 'purpose' | 'shareableLink' | 'emailNotification' | 'smsNotification'>;

/** The values the server answered with (it always sends back what was posted), if any. */
export function submittedValues(state: CreateVerificationFormState): CreateVerificationFormValues | undefined {
  return state.status === 'invalid' || state.status === 'failed' ? state.values : undefined;
}

/** What one life of the form binds to the field set: the form element, the values and the errors. */
export type FieldsBinding = {
  /** The form element's own props: its ref, and the submit and interaction handlers. */
  formProps: Pick<ComponentProps<'form'>, 'ref' | 'onSubmit' | 'onFocus'>;
  /** The values the controls start from; uncontrolled, they are in the HTML too, so a no-JS re-render keeps them. */
  defaults: CreateVerificationFormValues;
  /** The values the conditional parts follow: the defaults until react-hook-form watches the form. */
  watched: WatchedValues;
  errors: FieldMessages;
  bind: (name: FieldName) => FieldBinding;
};

/** The default phone region: its code, and its name as the page's words say it. */
export type PhoneRegion = { code: CountryCode; name: string };

export function CreateVerificationFields({
  formProps,
  formAction,
  state,
  isPending,
  defaults,
  watched,
  errors,
  bind,
  enhanced,
  followsVerificationId,
  followUpNotice,
  phoneRegion,
}: FieldsBinding & {
  /** Posts the form: React's action with JavaScript, the server action's endpoint without. */
  formAction: (formData: FormData) => void;
  state: CreateVerificationFormState;
  isPending: boolean;
  /** Marks the form react-hook-form drives (for tests, and for anyone looking at the page). */
  enhanced: boolean;
  /** The expired or failed request this form follows up, if it was started from one. */
  followsVerificationId?: string;
  /** What the page says about that request (rendered on the server). */
  followUpNotice?: ReactNode;
  /** The country whose national numbers the phone field takes (DEFAULT_PHONE_REGION), if any. */
  phoneRegion?: PhoneRegion;
}) {
  const { shareableLink, emailNotification, smsNotification, purpose } = watched;
  const serverProblem = state.status === 'failed' || state.status === 'invalid' ? state : undefined;
  const nobodyNotified = !shareableLink && !emailNotification && !smsNotification;
  const t = useClientTranslations('create.form');
  const tPurpose = useClientTranslations('common.purpose');
  const tPurposeHint = useClientTranslations('common.purposeHint');
  const purposeOptions = [
    ...PREDEFINED_PURPOSES.map(({ value }) => ({ value, label: tPurpose(value), hint: tPurposeHint(value) })),
    { value: OTHER_PURPOSE, label: t('otherPurposeLabel'), hint: t('otherPurposeHint') },
  ];

  return (
    <form
      {...formProps}
      action={formAction}
      noValidate
      className="space-y-8"
      aria-describedby={serverProblem ? 'form-problem' : undefined}
      data-enhanced={enhanced ? 'true' : undefined}
    >
      <input type="hidden" name="submissionKey" value={state.submissionKey} />

      {serverProblem ? (
        <Alert id="form-problem" tone="error" title={serverProblem.title} role="alert">
          <p>{serverProblem.message}</p>
        </Alert>
      ) : null}

      {followsVerificationId ? (
        <>
          <input type="hidden" name="followsVerificationId" value={followsVerificationId} />
          {followUpNotice}
        </>
      ) : null}

      <fieldset className="space-y-5">
        <legend className="text-base font-semibold text-slate-900">{t('personLegend')}</legend>
        <Field id="name" label={t('nameLabel')} hint={t('nameHint')} error={errors.name}>
          <Input
            id="name"
            autoComplete="off"
            maxLength={NAME_MAX + 50}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={fieldDescribedBy('name', { hint: true, error: !!errors.name })}
            defaultValue={defaults.name}
            {...bind('name')}
          />
        </Field>
        <Field
          id="email"
          label={t('emailLabel')}
          optional={shareableLink}
          hint={shareableLink ? t('emailOptionalHint') : undefined}
          error={errors.email}
        >
          <Input
            id="email"
            type="email"
            autoComplete="off"
            inputMode="email"
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={fieldDescribedBy('email', { hint: shareableLink, error: !!errors.email })}
            defaultValue={defaults.email}
            {...bind('email')}
          />
        </Field>
      </fieldset>

      <fieldset
        className="group/purpose space-y-3"
        aria-describedby={errors.purpose ? 'purpose-error' : undefined}
        aria-invalid={errors.purpose ? true : undefined}
      >
        <legend className="text-base font-semibold text-slate-900">{t('purposeLegend')}</legend>
        <p className="text-sm text-slate-600">{t('purposeIntro')}</p>
        <div className="grid gap-3 sm:grid-cols-2">
          {purposeOptions.map((option) => (
            <label
              key={option.value}
              className={cn(
                'flex cursor-pointer gap-3 rounded-md p-3 text-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50',
                'has-checked:bg-indigo-50 has-checked:ring-2 has-checked:ring-indigo-600 has-focus-visible:outline-2 has-focus-visible:outline-indigo-600',
              )}
            >
              <input
                type="radio"
                id={`purpose-${option.value}`}
                value={option.value}
                className="mt-0.5 size-4 accent-indigo-600"
                defaultChecked={defaults.purpose === option.value}
                {...bind('purpose')}
              />
              <span>
                <span className="block font-medium text-slate-900">{option.label}</span>
                <span className="block text-slate-600">{option.hint}</span>
              </span>
            </label>
          ))}
        </div>
        <FieldError id="purpose-error" message={errors.purpose} />
        <div className={cn('hidden group-has-[#purpose-other:checked]/purpose:block', purpose === OTHER_PURPOSE && 'block')}>
          <Field id="customPurpose" label={t('customPurposeLabel')} error={errors.customPurpose}>
            <Textarea
              id="customPurpose"
              rows={2}
              maxLength={PURPOSE_MAX + 50}
              aria-invalid={errors.customPurpose ? true : undefined}
              aria-describedby={fieldDescribedBy('customPurpose', { error: !!errors.customPurpose })}
              defaultValue={defaults.customPurpose}
              {...bind('customPurpose')}
            />
          </Field>
        </div>
      </fieldset>

      <fieldset className="space-y-5">
        <legend className="text-base font-semibold text-slate-900">{t('reachLegend')}</legend>
        <Field id="language" label={t('languageLabel')} hint={t('languageHint')} error={errors.language} className="max-w-xs">
          <Select
            id="language"
            aria-invalid={errors.language ? true : undefined}
            aria-describedby={fieldDescribedBy('language', { hint: true, error: !!errors.language })}
            defaultValue={defaults.language}
            {...bind('language')}
          >
            {LANGUAGES.map((language) => (
              <option key={language.value} value={language.value} lang={language.value}>
                {language.label}
              </option>
            ))}
          </Select>
        </Field>

        <div className="space-y-4">
          <Switch
            id="shareableLink"
            label={t('shareableLinkLabel')}
            description={t('shareableLinkDescription')}
            defaultChecked={defaults.shareableLink}
            {...bind('shareableLink')}
          />
          <Switch
            id="emailNotification"
            label={t('emailNotificationLabel')}
            description={shareableLink ? t('emailNotificationOff') : t('emailNotificationDescription')}
            disabled={shareableLink}
            defaultChecked={defaults.emailNotification}
            {...bind('emailNotification')}
          />
          <div className="group/sms space-y-3">
            <Switch
              id="smsNotification"
              label={t('smsNotificationLabel')}
              description={t('smsNotificationDescription')}
              error={errors.smsNotification}
              defaultChecked={defaults.smsNotification}
              {...bind('smsNotification')}
            />
            <div className={cn('hidden pl-14 group-has-[#smsNotification:checked]/sms:block', smsNotification && 'block')}>
              <Field
                id="phone"
                label={t('phoneLabel')}
                hint={phoneRegion ? t('phoneHintWithRegion', { region: phoneRegion.name }) : t('phoneHint')}
                error={errors.phone}
                className="max-w-sm"
              >
                <Input
                  id="phone"
                  type="tel"
                  autoComplete="off"
                  inputMode="tel"
                  aria-invalid={errors.phone ? true : undefined}
                  aria-describedby={fieldDescribedBy('phone', { hint: true, error: !!errors.phone })}
                  defaultValue={defaults.phone}
                  {...bind('phone')}
                />
              </Field>
            </div>
          </div>
        </div>
        {nobodyNotified ? (
          <Alert tone="warning" title={t('nobodyNotifiedTitle')}>
            <p>{t('nobodyNotified')}</p>
          </Alert>
        ) : null}
      </fieldset>

      <div className="flex items-center gap-3 border-t border-slate-200 pt-6">
        <PendingSubmitButton pending={isPending} pendingLabel={t('submitting')} aria-disabled={isPending}>
          {t('submit')}
        </PendingSubmitButton>
        <span role="status" className="sr-only">
          {isPending ? t('submittingStatus') : ''}
        </span>
      </div>
    </form>
  );
}
