'use client';
// The create-verification form. Its first load is only what it takes to show the form and post
// it: the markup (create-verification-fields.tsx) with native, named, uncontrolled inputs, sent
// to the server action, which validates and answers with the values and the field errors. That
// is also the whole form with JavaScript disabled: CSS shows the conditional fields, the form
// posts natively and the server renders the answer.
//
// Validation as you go (react-hook-form and the shared zod schema), the switches' coupling, the
// live "nobody notified" warning and the result panel are the enhanced module, which is not part
// of the page's first-load budget: it is fetched once the page has loaded (when the browser is
// idle) or at the first interaction with the form, whichever comes first. When it arrives, the
// enhanced form replaces the plain one in the same task, carrying over what the person already
// did: the values, the fields they left, the focus and the caret (use-create-form-enhancement.ts
// fetches it and hands over). A submit before that is simply the plain form's post. The
// action's state lives here, so it survives the swap.
import { type RefObject, startTransition, use, useActionState, useEffect, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { createVerificationAction } from '@/lib/verifications/actions';
import type { CreatedVerification, CreateVerificationFormState } from '@/lib/verifications/form-state';
import { type CreateVerificationFormValues, emptyCreateVerificationForm } from '@/lib/verifications/form-values';
import { CreateVerificationFields, type FieldName, fieldMessages, submittedValues } from './create-verification-fields';
import { useCreateAccessCheck } from './use-create-access-check';
import { loadEnhanced, loadedEnhanced, useCreateFormEnhancement } from './use-create-form-enhancement';

/** A form started from an expired or failed request: its id and the values copied from the register. */
export type FollowUpPrefill = { verificationId: string; values: CreateVerificationFormValues };

export function CreateVerificationForm({
  initialState,
  followUp: startedAs,
}: {
  initialState: CreateVerificationFormState;
  followUp?: FollowUpPrefill;
}) {
  const [state, formAction, isPending] = useActionState(createVerificationAction, initialState);
  const formRef = useRef<HTMLFormElement>(null);
  const [enhancement, setEnhancement] = useCreateFormEnhancement(formRef);
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

  // Above the form, which stays as it is: what was typed is kept for after signing in again.
  const notice = refusal ? (
    <Alert tone="warning" title={refusal.title} role="alert" className="mb-6">
      <p>{refusal.message}</p>
    </Alert>
  ) : null;

  if (enhancement) {
    const { EnhancedCreateVerificationForm } = enhancement.module;
    return (
      <>
        {notice}
        <EnhancedCreateVerificationForm
          state={state}
          formAction={formAction}
          isPending={isPending}
          carried={enhancement.carried}
          initialValues={followUp?.values}
          followsVerificationId={followUp?.verificationId}
        />
      </>
    );
  }

  // The plain form: the values and errors are the server's (none before the first post).
  const defaults = submittedValues(state) ?? followUp?.values ?? emptyCreateVerificationForm;
  return (
    <>
      {notice}
      <CreateVerificationFields
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
        formAction={formAction}
        state={state}
        isPending={isPending}
        defaults={defaults}
        watched={defaults}
        errors={state.status === 'invalid' ? fieldMessages((field) => state.fieldErrors[field]?.[0]) : {}}
        bind={(name) => ({ name })}
        enhanced={false}
        followsVerificationId={followUp?.verificationId}
      />
    </>
  );
}

function ResultPanel(props: { created: CreatedVerification; onCreateAnother: () => void }) {
  // Normally the module came long before the answer. If not (a post right after the page
  // loaded), this waits for it: the answer arrives in a transition, so the pending form stays
  // on screen meanwhile, not an empty panel. On the server (the no-JS answer) it is loaded there.
  const { CreationResult } = loadedEnhanced() ?? use(loadEnhanced());
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
