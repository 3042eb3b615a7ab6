'use client';
// The create form's enhancement, fetched after the page's first load (create-verification-
// form.tsx decides when, and swaps it in): react-hook-form's binding of the shared field set. It
// validates as you go with the shared zod schema (itself loaded at the first focus in the form, or
// the first validation), copies the server's field errors onto the fields, couples the shareable-
// link and e-mail switches, follows the switches for the conditional fields and the "nobody
// notified" warning, and posts through the same action. The handover from the plain form is here
// too (what the person did there: the values, the fields they left, the focus and the caret), and
// the result panel, needed only after a create.

import type { CountryCode } from 'libphonenumber-js/min';
import { type ChangeEvent, startTransition, useLayoutEffect, useRef, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { type ClientTranslate, useClientLanguage, useClientTranslations } from '@/components/i18n/client-messages';
import type { CreateVerificationRequest } from '@/lib/verification-service/schemas';
import type { CreateVerificationFormState } from '@/lib/verifications/create/form-state';
import {
  type CreateVerificationFormValues,
  emptyCreateVerificationForm,
  formValuesFromFormData,
} from '@/lib/verifications/create/form-values';
import { type FieldName, type FieldsBinding, fieldMessages, type PhoneRegion, submittedValues } from './create-verification-fields';

export { CreationResult } from './creation-result';

type FormInput = CreateVerificationFormValues;
type FormOutput = CreateVerificationRequest;

/** Where the focus was in the plain form, so the enhanced one can put it back, caret included. */
type CarriedFocus = {
  id: string | undefined;
  /** Its position in form.elements, for a control without an id (the submit button). */
  index: number;
  selection?: { start: number; end: number; direction: 'forward' | 'backward' | 'none' };
};

/** What the person did in the plain form before the enhanced one took over. */
export type CarriedOver = {
  values: CreateVerificationFormValues;
  /** Fields they have left: react-hook-form (onTouched) would have validated them on blur. */
  visited: FieldName[];
  focus?: CarriedFocus;
};

/** What the plain form holds right now, read from the page at the moment of the swap. */
export function carryOver(form: HTMLFormElement, visited: Iterable<FieldName>): CarriedOver {
  const values = formValuesFromFormData(new FormData(form));
  // A disabled switch is left out of a post, but it still shows the person's choice.
  for (const name of ['shareableLink', 'emailNotification', 'smsNotification'] as const) {
    const control = form.elements.namedItem(name);
    if (control instanceof HTMLInputElement) values[name] = control.checked;
  }
  return { values, visited: [...visited], focus: focusIn(form) };
}

function focusIn(form: HTMLFormElement): CarriedFocus | undefined {
  const element = document.activeElement;
  if (!(element instanceof HTMLElement) || !form.contains(element)) return undefined;
  const focus: CarriedFocus = { id: element.id || undefined, index: Array.prototype.indexOf.call(form.elements, element) };
  if ((element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) && element.selectionStart !== null) {
    focus.selection = {
      start: element.selectionStart,
      end: element.selectionEnd ?? element.selectionStart,
      direction: element.selectionDirection ?? 'none',
    };
  }
  return focus;
}

function restoreFocus(form: HTMLFormElement, focus: CarriedFocus) {
  const element = (focus.id ? document.getElementById(focus.id) : null) ?? form.elements.item(focus.index);
  if (!(element instanceof HTMLElement) || !form.contains(element)) return;
  element.focus({ preventScroll: true });
  if (focus.selection && (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) {
    element.setSelectionRange(focus.selection.start, focus.selection.end, focus.selection.direction);
  }
}

// zod and the shared schema are most of this form's code; they load on the first focus in the
// form (or the first validation, whichever comes first), by which time nobody has typed yet.
// The schema's messages are in the page's language (the create.schema catalog the page handed
// down); one resolver per catalog and default phone region, so a page that changes language
// validates in the new one from the next check on.
type SchemaWords = { t: ClientTranslate; language: string };
const resolverLoading = new WeakMap<ClientTranslate, Map<string, Promise<Resolver<FormInput, unknown, FormOutput>>>>();
function loadSchemaResolver(region: CountryCode | undefined, { t, language }: SchemaWords) {
  let byRegion = resolverLoading.get(t);
  if (!byRegion) {
    byRegion = new Map();
    resolverLoading.set(t, byRegion);
  }
  const key = `${language}|${region ?? ''}`;
  let loading = byRegion.get(key);
  if (!loading) {
    loading = Promise.all([import('@hookform/resolvers/zod'), import('@/lib/verifications/create/schema')]).then(
      ([{ zodResolver }, { createVerificationSchemaFor }]) =>
        zodResolver(createVerificationSchemaFor({ t, language, defaultPhoneRegion: region })),
    );
    byRegion.set(key, loading);
  }
  return loading;
}
function schemaResolverFor(region: CountryCode | undefined, words: { current: SchemaWords }): Resolver<FormInput, unknown, FormOutput> {
  return async (values, context, options) => (await loadSchemaResolver(region, words.current))(values, context, options);
}

/**
 * With a shareable link the service sends no e-mail (contract §4.1 rule 1), so the e-mail switch is
 * off while the link is on; the e-mail choice is kept to give back when the link is switched
 * off. Values from the plain form (which has no such coupling) start from the same rule.
 */
function withLinkRule(values: CreateVerificationFormValues) {
  return {
    values: values.shareableLink ? { ...values, emailNotification: false } : values,
    emailChoice: values.emailNotification,
  };
}

/** The field set's binding while react-hook-form drives it. */
export function useEnhancedFields({
  state,
  formAction,
  isPending,
  carried,
  initialValues,
  phoneRegion,
}: {
  state: CreateVerificationFormState;
  formAction: (formData: FormData) => void;
  isPending: boolean;
  /** What the person did in the plain form, when this replaces it. */
  carried?: CarriedOver;
  /** What an untouched form starts from (a follow-up's prefill); empty otherwise. */
  initialValues?: CreateVerificationFormValues;
  /** The country whose national numbers the phone field takes, if any. */
  phoneRegion?: PhoneRegion;
}): FieldsBinding {
  const region = phoneRegion?.code;
  const tSchema = useClientTranslations('create.schema');
  const language = useClientLanguage();
  const words = useRef<SchemaWords>({ t: tSchema, language });
  words.current = { t: tSchema, language };
  const [resolver] = useState(() => schemaResolverFor(region, words));
  // Read once: from here on react-hook-form owns the values.
  const [start] = useState(() => withLinkRule(carried?.values ?? submittedValues(state) ?? initialValues ?? emptyCreateVerificationForm));
  const formRef = useRef<HTMLFormElement>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver,
    defaultValues: start.values,
    mode: 'onTouched',
  });
  const { register, formState, setError, setValue, getValues, watch } = form;

  // Errors found by the server (it validates again) go onto the fields they belong to; before
  // the first paint, so the errors the plain form showed do not blink out during the swap.
  useLayoutEffect(() => {
    if (state.status !== 'invalid') return;
    for (const [field, messages] of Object.entries(state.fieldErrors)) {
      if (messages?.[0]) setError(field as FieldName, { type: 'server', message: messages[0] });
    }
  }, [state, setError]);

  // The fields the person already left are validated as onTouched would have on blur, and the
  // focus and caret go back where they were, before the first paint.
  useLayoutEffect(() => {
    if (!carried) return;
    for (const field of carried.visited) setValue(field, getValues(field), { shouldTouch: true, shouldValidate: true });
    if (carried.focus && formRef.current) restoreFocus(formRef.current, carried.focus);
  }, [carried, setValue, getValues]);

  const shareableLink = watch('shareableLink');
  const smsNotification = watch('smsNotification');
  const emailNotification = watch('emailNotification');
  const purpose = watch('purpose');

  const emailChoice = useRef(start.emailChoice);
  const onShareableLinkChange = (event: ChangeEvent<HTMLInputElement>) => {
    if (event.target.checked) {
      emailChoice.current = getValues('emailNotification');
      setValue('emailNotification', false);
    } else {
      setValue('emailNotification', emailChoice.current);
    }
    // The e-mail field's rule depends on this switch.
    if (formState.touchedFields.email || formState.isSubmitted) void form.trigger('email');
    recheckSmsChannel();
  };
  // "An SMS cannot go alone" is said at the SMS switch but settled by the e-mail address or the
  // link: once either is given, the message goes.
  const recheckSmsChannel = () => {
    if (formState.errors.smsNotification) void form.trigger('smsNotification');
  };

  // A number that can be sent is shown, once the field is left, as it will be sent: grouped the
  // international way, a national one under its country code ("0470 12 34 56" → "+32 470 12 34 56").
  const showPhoneAsSent = () => {
    const typed = getValues('phone');
    void import('@/lib/verifications/create/phone-number').then(({ displayPhone }) => {
      const shown = displayPhone(typed, region);
      // Unless the person typed on meanwhile.
      if (shown !== typed && getValues('phone') === typed) setValue('phone', shown, { shouldValidate: true });
    });
  };

  const onSubmit = form.handleSubmit(() => {
    if (isPending || !formRef.current) return;
    const data = new FormData(formRef.current);
    startTransition(() => formAction(data));
  });

  return {
    formProps: { ref: formRef, onSubmit, onFocus: () => void loadSchemaResolver(region, words.current) },
    defaults: start.values,
    watched: { shareableLink, emailNotification, smsNotification, purpose },
    errors: fieldMessages((field) => formState.errors[field]?.message),
    bind: (field) =>
      field === 'shareableLink'
        ? register(field, { onChange: onShareableLinkChange })
        : field === 'email'
          ? register(field, { onChange: recheckSmsChannel })
          : field === 'phone'
            ? register(field, { onBlur: showPhoneAsSent })
            : register(field),
  };
}
