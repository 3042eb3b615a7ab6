'use client';
// The create-verification form. It validates as you go with the shared zod schema (loaded when
// the form is first used, not with the page), posts to
// the server action (which validates again), and keeps every typed value on any error. It also
// works with JavaScript disabled: conditional fields are shown by CSS, the form posts natively
// and the action's answer is rendered by the server.
import { startTransition, useActionState, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { Loader2 } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, FieldError, fieldDescribedBy } from '@/components/ui/field';
import { Input, Select, Textarea } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { createVerificationAction } from '@/lib/verifications/actions';
import type { CreateVerificationFormState } from '@/lib/verifications/form-state';
import { LANGUAGES, PREDEFINED_PURPOSES } from '@/lib/verifications/labels';
import {
  emptyCreateVerificationForm,
  NAME_MAX,
  OTHER_PURPOSE,
  PURPOSE_MAX,
  type CreateVerificationFormValues,
} from '@/lib/verifications/form-values';
import type { CreateVerificationRequest } from '@/lib/verification-service/schemas';
import { cn } from '@/lib/utils';
import { CreationResult } from './creation-result';

type FormInput = CreateVerificationFormValues;
type FormOutput = CreateVerificationRequest;
type FieldName = keyof CreateVerificationFormValues;

// zod and the shared schema are most of this page's code; they load on the first focus in the
// form (or the first validation, whichever comes first), by which time nobody has typed yet.
let resolverLoading: Promise<Resolver<FormInput, unknown, FormOutput>> | undefined;
function loadSchemaResolver() {
  resolverLoading ??= Promise.all([import('@hookform/resolvers/zod'), import('@/lib/verifications/schema')]).then(
    ([{ zodResolver }, { createVerificationSchema }]) => zodResolver(createVerificationSchema),
  );
  return resolverLoading;
}
const schemaResolver: Resolver<FormInput, unknown, FormOutput> = async (values, context, options) =>
  (await loadSchemaResolver())(values, context, options);

const noSubscription = () => () => {};

/** False while rendered on the server (and so for good without JavaScript), true once hydrated. */
function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}

export function CreateVerificationForm({ initialState }: { initialState: CreateVerificationFormState }) {
  const [state, formAction, isPending] = useActionState(createVerificationAction, initialState);
  const [showResult, setShowResult] = useState(true);
  const formRef = useRef<HTMLFormElement>(null);

  const hydrated = useHydrated();
  const submittedValues = state.status === 'invalid' || state.status === 'failed' ? state.values : undefined;
  // Uncontrolled inputs carry their values in the HTML too, so a no-JS re-render keeps them.
  const defaults = submittedValues ?? emptyCreateVerificationForm;
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: schemaResolver,
    defaultValues: defaults,
    mode: 'onTouched',
  });
  const { register, formState, setError, setValue, watch, reset } = form;

  // Errors found by the server (it validates again) go onto the fields they belong to.
  useEffect(() => {
    if (state.status === 'invalid') {
      for (const [field, messages] of Object.entries(state.fieldErrors)) {
        if (messages?.[0]) setError(field as keyof CreateVerificationFormValues, { type: 'server', message: messages[0] });
      }
    }
    if (state.status === 'created') setShowResult(true);
  }, [state, setError]);

  const shareableLink = watch('shareableLink');
  const smsNotification = watch('smsNotification');
  const emailNotification = watch('emailNotification');
  const purpose = watch('purpose');

  // With a shareable link the service sends no e-mail (seed §4.1 rule 1): switch it off, and
  // give the previous choice back when the link is switched off again.
  const emailChoice = useRef(defaults.emailNotification);
  const onShareableLinkChange = (event: React.ChangeEvent<HTMLInputElement>) => {
    if (event.target.checked) {
      emailChoice.current = form.getValues('emailNotification');
      setValue('emailNotification', false);
    } else {
      setValue('emailNotification', emailChoice.current);
    }
    // The e-mail field's rule depends on this switch.
    if (formState.touchedFields.email || formState.isSubmitted) void form.trigger('email');
  };

  if (state.status === 'created' && showResult) {
    return (
      <CreationResult
        created={state.created}
        onCreateAnother={() => {
          reset(emptyCreateVerificationForm);
          setShowResult(false);
        }}
      />
    );
  }

  // Before hydration (and for good without JavaScript) the server's field errors are shown;
  // once hydrated, react-hook-form owns them (the server's were copied in above).
  const serverFieldErrors = state.status === 'invalid' && !hydrated ? state.fieldErrors : {};
  const errorOf = (field: FieldName): string | undefined =>
    formState.errors[field]?.message ?? serverFieldErrors[field]?.[0];
  const errors = Object.fromEntries(
    (Object.keys(emptyCreateVerificationForm) as FieldName[]).flatMap((field) => {
      const message = errorOf(field);
      return message ? [[field, { message }]] : [];
    }),
  ) as Partial<Record<FieldName, { message: string }>>;
  const serverProblem = state.status === 'failed' || state.status === 'invalid' ? state : undefined;
  const nobodyNotified = !shareableLink && !emailNotification && !smsNotification;

  const onSubmit = form.handleSubmit(() => {
    if (isPending || !formRef.current) return;
    const data = new FormData(formRef.current);
    startTransition(() => formAction(data));
  });

  return (
    <form
      ref={formRef}
      action={formAction}
      onSubmit={onSubmit}
      onFocus={() => void loadSchemaResolver()}
      noValidate
      className="space-y-8"
      aria-describedby={serverProblem ? 'form-problem' : undefined}
    >
      <input type="hidden" name="submissionKey" value={state.submissionKey} />

      {serverProblem ? (
        <Alert id="form-problem" tone="error" title={serverProblem.title} role="alert">
          <p>{serverProblem.message}</p>
        </Alert>
      ) : null}

      <fieldset className="space-y-5">
        <legend className="text-base font-semibold text-slate-900">Person to verify</legend>
        <Field id="name" label="Full name" hint="As it appears on their identity document." error={errors.name?.message}>
          <Input
            id="name"
            autoComplete="off"
            maxLength={NAME_MAX + 50}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={fieldDescribedBy('name', { hint: true, error: !!errors.name })}
            defaultValue={defaults.name}
            {...register('name')}
          />
        </Field>
        <Field
          id="email"
          label="E-mail address"
          optional={shareableLink}
          hint={shareableLink ? 'Optional: with a shareable link you send the link yourself.' : undefined}
          error={errors.email?.message}
        >
          <Input
            id="email"
            type="email"
            autoComplete="off"
            inputMode="email"
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={fieldDescribedBy('email', { hint: shareableLink, error: !!errors.email })}
            defaultValue={defaults.email}
            {...register('email')}
          />
        </Field>
      </fieldset>

      <fieldset
        className="group/purpose space-y-3"
        aria-describedby={errors.purpose ? 'purpose-error' : undefined}
        aria-invalid={errors.purpose ? true : undefined}
      >
        <legend className="text-base font-semibold text-slate-900">Purpose</legend>
        <p className="text-sm text-slate-600">Why you need to verify this person. It is shown to them.</p>
        <div className="grid gap-3 sm:grid-cols-2">
          {[...PREDEFINED_PURPOSES, { value: OTHER_PURPOSE, label: 'Other…', hint: 'Describe the purpose in your own words.' }].map(
            (option) => (
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
                  {...register('purpose')}
                />
                <span>
                  <span className="block font-medium text-slate-900">{option.label}</span>
                  <span className="block text-slate-600">{option.hint}</span>
                </span>
              </label>
            ),
          )}
        </div>
        <FieldError id="purpose-error" message={errors.purpose?.message} />
        <div className={cn('hidden group-has-[#purpose-other:checked]/purpose:block', purpose === OTHER_PURPOSE && 'block')}>
          <Field id="customPurpose" label="Describe the purpose" error={errors.customPurpose?.message}>
            <Textarea
              id="customPurpose"
              rows={2}
              maxLength={PURPOSE_MAX + 50}
              aria-invalid={errors.customPurpose ? true : undefined}
              aria-describedby={fieldDescribedBy('customPurpose', { error: !!errors.customPurpose })}
              defaultValue={defaults.customPurpose}
              {...register('customPurpose')}
            />
          </Field>
        </div>
      </fieldset>

      <fieldset className="space-y-5">
        <legend className="text-base font-semibold text-slate-900">How the person is reached</legend>
        <Field
          id="language"
          label="Language"
          hint="The language of the messages and of the verification page."
          error={errors.language?.message}
          className="max-w-xs"
        >
          <Select
            id="language"
            aria-invalid={errors.language ? true : undefined}
            aria-describedby={fieldDescribedBy('language', { hint: true, error: !!errors.language })}
            defaultValue={defaults.language}
            {...register('language')}
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
            label="Shareable link"
            description="Get a link to send the person yourself, e.g. by chat. The service sends no e-mail then."
            defaultChecked={defaults.shareableLink}
            {...register('shareableLink', { onChange: onShareableLinkChange })}
          />
          <Switch
            id="emailNotification"
            label="E-mail notification"
            description={
              shareableLink
                ? 'Off: with a shareable link, the service sends no e-mail.'
                : 'The service e-mails the person a link to verify their identity.'
            }
            disabled={shareableLink}
            defaultChecked={defaults.emailNotification}
            {...register('emailNotification')}
          />
          <div className="group/sms space-y-3">
            <Switch
              id="smsNotification"
              label="SMS notification"
              description="The service also texts the person the link."
              defaultChecked={defaults.smsNotification}
              {...register('smsNotification')}
            />
            <div className={cn('hidden pl-14 group-has-[#smsNotification:checked]/sms:block', smsNotification && 'block')}>
              <Field
                id="phone"
                label="Mobile number"
                hint="International format with country code, e.g. +32 470 12 34 56. Spaces are fine."
                error={errors.phone?.message}
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
                  {...register('phone')}
                />
              </Field>
            </div>
          </div>
        </div>
        {nobodyNotified ? (
          <Alert tone="warning" title="The person will not be told about this request">
            <p>No e-mail, SMS or link is selected. Switch on at least one unless you inform them another way.</p>
          </Alert>
        ) : null}
      </fieldset>

      <div className="flex items-center gap-3 border-t border-slate-200 pt-6">
        <Button type="submit" disabled={isPending} aria-disabled={isPending}>
          {isPending ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
          {isPending ? 'Creating request…' : 'Create verification request'}
        </Button>
        <span role="status" className="sr-only">
          {isPending ? 'Creating the verification request' : ''}
        </span>
      </div>
    </form>
  );
}
