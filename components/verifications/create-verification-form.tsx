'use client';
// The create-verification form: one field set (create-verification-fields.tsx) in two lives.
//
// The plain form is the page's first load, and the whole form with JavaScript disabled: native,
// named, uncontrolled inputs, posted to the server action, which validates and answers with the
// values and the field errors; CSS shows the conditional fields. Only what that takes is in the
// first-load JavaScript.
//
// The enhanced form renders the same field set bound to react-hook-form (validation as you go
// with the shared zod schema, the switches' coupling, the live "nobody notified" warning), with
// the result panel: create-verification-enhancement.ts, reached only through the dynamic import
// below, so it stays out of the first-load budget. It is fetched once the page has loaded (when
// the browser is idle) or at the first interaction with the form, whichever comes first, and
// swapped in within one task, carrying over what the person already did: the values, the fields
// they left, the focus and the caret. A submit before that is simply the plain form's post. The
// action's state lives here, so it survives the swap.
import { type ReactNode, type RefObject, startTransition, use, useActionState, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Alert } from '@/components/ui/alert';
import { createVerificationAction } from '@/lib/verifications/create/actions';
import type { CreatedVerification, CreateVerificationFormState } from '@/lib/verifications/create/form-state';
import { type CreateVerificationFormValues, emptyCreateVerificationForm } from '@/lib/verifications/create/form-values';
import type { CarriedOver } from './create-verification-enhancement';
import { CreateVerificationFields, type FieldName, fieldMessages, type PhoneRegion, submittedValues } from './create-verification-fields';
import { useCreateAccessCheck } from './use-create-access-check';

/** A form started from an expired or failed request: its id and the values copied from the register. */
export type FollowUpPrefill = { verificationId: string; values: CreateVerificationFormValues };

export function CreateVerificationForm({
  initialState,
  followUp: startedAs,
  followUpNotice,
  blank = emptyCreateVerificationForm,
  phoneRegion,
}: {
  initialState: CreateVerificationFormState;
  followUp?: FollowUpPrefill;
  /** What the page says about the request followed up, rendered on the server (follow-up-form-notice.tsx). */
  followUpNotice?: ReactNode;
  /** An empty form's values: the person's language is the staff member's own to start with. */
  blank?: CreateVerificationFormValues;
  /** The country whose national numbers the phone field takes (DEFAULT_PHONE_REGION), if any. */
  phoneRegion?: PhoneRegion;
}) {
  const [state, formAction, isPending] = useActionState(createVerificationAction, initialState);
  const formRef = useRef<HTMLFormElement>(null);
  const [enhancement, setEnhancement] = useEnhancement(formRef);
  // The created answer whose result panel was closed with "Create another request".
  const [dismissed, setDismissed] = useState<CreateVerificationFormState>();
  // "Create another request" starts an empty form: the next one follows up nothing.
  const [followUp, setFollowUp] = useState(startedAs);
  useFocusOnServerErrors(formRef, state, !enhancement);
  const refusal = useCreateAccessCheck();

  if (state.status === 'created' && dismissed !== state) {
    return (
      <ResultPanel
        created={state.created}
        onCreateAnother={() => {
          setDismissed(state);
          setFollowUp(undefined);
          // An empty form again: nothing is carried over into it.
          setEnhancement((current) => current && { module: current.module });
        }}
      />
    );
  }

  const shared = {
    state,
    formAction,
    isPending,
    followsVerificationId: followUp?.verificationId,
    followUpNotice: followUp ? followUpNotice : undefined,
    phoneRegion,
  };
  // The plain form: the values and errors are the server's (none before the first post).
  const defaults = submittedValues(state) ?? followUp?.values ?? blank;
  return (
    <>
      {/* Above the form, which stays as it is: what was typed is kept for after signing in again. */}
      {refusal ? (
        <Alert tone="warning" title={refusal.title} role="alert" className="mb-6">
          <p>{refusal.message}</p>
        </Alert>
      ) : null}
      {enhancement ? (
        <EnhancedForm
          {...shared}
          useFields={enhancement.module.useEnhancedFields}
          carried={enhancement.carried}
          initialValues={followUp?.values ?? blank}
        />
      ) : (
        <CreateVerificationFields
          {...shared}
          formProps={{
            ref: formRef,
            // Posted as the enhanced form posts (before hydration and without JavaScript, `action`
            // posts it natively). Not as React's form action: that resets the form to its defaults
            // afterwards, and a <select> would lose the choice the server's answer sent back.
            onSubmit: (event) => {
              event.preventDefault();
              // One post at a time, as the button is disabled while one is pending.
              if (isPending) return;
              const data = new FormData(event.currentTarget);
              startTransition(() => formAction(data));
            },
          }}
          defaults={defaults}
          watched={defaults}
          errors={state.status === 'invalid' ? fieldMessages((field) => state.fieldErrors[field]?.[0]) : {}}
          bind={(name) => ({ name })}
          enhanced={false}
        />
      )}
    </>
  );
}

/** The same field set, bound to react-hook-form by the enhanced module's hook. */
function EnhancedForm({
  useFields,
  carried,
  initialValues,
  ...shared
}: Parameters<EnhancedModule['useEnhancedFields']>[0] & {
  useFields: EnhancedModule['useEnhancedFields'];
  followsVerificationId?: string;
}) {
  const binding = useFields({ ...shared, carried, initialValues });
  return <CreateVerificationFields {...shared} {...binding} enhanced />;
}

function ResultPanel(props: { created: CreatedVerification; onCreateAnother: () => void }) {
  // Normally the module came long before the answer. If not (a post right after the page
  // loaded), this waits for it: the answer arrives in a transition, so the pending form stays
  // on screen meanwhile, not an empty panel. On the server (the no-JS answer) it is loaded there.
  const { CreationResult } = enhancedModule ?? use(loadEnhanced());
  return <CreationResult {...props} />;
}

/**
 * After the plain form's post is refused field by field, the focus goes to the first field in
 * question, as the enhanced form does when it refuses a submit itself.
 */
function useFocusOnServerErrors(formRef: RefObject<HTMLFormElement | null>, state: CreateVerificationFormState, plain: boolean) {
  const answered = useRef(state);
  useEffect(() => {
    if (state === answered.current) return;
    answered.current = state;
    const form = formRef.current;
    if (!plain || !form || state.status !== 'invalid') return;
    for (const element of Array.from(form.elements)) {
      const name = (element as HTMLInputElement).name as FieldName;
      if (!(element instanceof HTMLElement) || !state.fieldErrors[name]?.length) continue;
      element.focus();
      // A field hidden by CSS (its switch is off) cannot take the focus: the next one does.
      if (document.activeElement === element) return;
    }
  }, [formRef, state, plain]);
}

type EnhancedModule = typeof import('./create-verification-enhancement');

let enhancedLoading: Promise<EnhancedModule> | undefined;
/** Set once the module has arrived, so nothing that needs it waits a render for it again. */
let enhancedModule: EnhancedModule | undefined;

/** Fetches the enhanced module once; a failed fetch is tried again at the next call. */
function loadEnhanced(): Promise<EnhancedModule> {
  enhancedLoading ??= import('./create-verification-enhancement').then(
    (module) => (enhancedModule = module),
    (error: unknown) => {
      // Not fetched (offline, a new deployment): tried again at the next interaction. The
      // plain form keeps working meanwhile; the server validates every post anyway.
      enhancedLoading = undefined;
      throw error;
    },
  );
  return enhancedLoading;
}

/** The module swapped in, and what the plain form held at that moment (none for a fresh, empty form). */
type Enhancement = { module: EnhancedModule; carried?: CarriedOver };

/**
 * Fetches the enhanced module after the window's load event (when idle) or at the first
 * interaction with the form, and swaps it in when the person is not in the middle of something.
 */
function useEnhancement(formRef: RefObject<HTMLFormElement | null>) {
  const [enhancement, setEnhancement] = useState<Enhancement>();
  const enhanced = enhancement !== undefined;

  useEffect(() => {
    if (enhanced) return;
    let active = true;
    let requested = false;
    let held: EnhancedModule | undefined;
    let pointerDown = false;
    let composing = false;
    const visited = new Set<FieldName>();
    const inForm = (target: EventTarget | null): target is Element => target instanceof Element && !!formRef.current?.contains(target);

    // Not during a gesture or in a control whose state cannot be carried over: a click whose
    // target is replaced between press and release is lost, a replaced <select> closes its
    // open list, IME composition would end, and an e-mail input does not tell scripts where its
    // caret is. The swap waits for the end of these (see `retry`).
    const busy = () => {
      const focused = document.activeElement;
      return (
        pointerDown ||
        composing ||
        (inForm(focused) && (focused instanceof HTMLSelectElement || (focused instanceof HTMLInputElement && focused.type === 'email')))
      );
    };
    const swap = (module: EnhancedModule) => {
      if (!active) return;
      if (busy()) {
        held = module;
        return;
      }
      active = false;
      held = undefined;
      const form = formRef.current;
      // Read and re-render in one task, so no keystroke can land in between.
      flushSync(() => setEnhancement({ module, carried: form ? module.carryOver(form, visited) : undefined }));
    };
    const retry = () => {
      const module = held;
      // After the browser has finished with the event (the click after pointerup, the focus
      // moving on after focusout).
      if (module) setTimeout(() => swap(module), 0);
    };
    const request = () => {
      if (requested) return;
      requested = true;
      loadEnhanced().then(swap, () => {
        requested = false;
      });
    };

    const onInteraction = (event: Event) => {
      if (!inForm(event.target)) return;
      if (event.type === 'pointerdown') pointerDown = true;
      request();
    };
    const onPointerEnd = () => {
      pointerDown = false;
      retry();
    };
    const onFocusOut = (event: FocusEvent) => {
      const target = event.target;
      if (
        inForm(target) &&
        'name' in target &&
        typeof target.name === 'string' &&
        Object.hasOwn(emptyCreateVerificationForm, target.name)
      ) {
        visited.add(target.name as FieldName);
      }
      retry();
    };
    const onComposition = (event: CompositionEvent) => {
      composing = event.type === 'compositionstart' && inForm(event.target);
      if (!composing) retry();
    };
    const listeners: [EventTarget, string, EventListener][] = [
      [document, 'focusin', onInteraction],
      [document, 'pointerdown', onInteraction],
      [document, 'keydown', onInteraction],
      [document, 'focusout', onFocusOut as EventListener],
      [document, 'compositionstart', onComposition as EventListener],
      [document, 'compositionend', onComposition as EventListener],
      [window, 'pointerup', onPointerEnd],
      [window, 'pointercancel', onPointerEnd],
    ];
    for (const [target, type, listener] of listeners) target.addEventListener(type, listener, true);

    // Already here (a client-side visit back to this page, or the result panel needed it): at
    // once. Otherwise after the load event, so the page's first load does not include it.
    let idle: number | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const whenIdle = () => {
      if (typeof window.requestIdleCallback === 'function') idle = window.requestIdleCallback(request, { timeout: 3_000 });
      else timer = setTimeout(request, 200);
    };
    if (enhancedModule) request();
    else if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });

    return () => {
      active = false;
      for (const [target, type, listener] of listeners) target.removeEventListener(type, listener, true);
      window.removeEventListener('load', whenIdle);
      if (idle !== undefined) window.cancelIdleCallback(idle);
      clearTimeout(timer);
    };
  }, [enhanced, formRef]);

  return [enhancement, setEnhancement] as const;
}
