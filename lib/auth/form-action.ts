// The one wrapper every form's server action is built with, so none can skip a step or lose
// what was typed. A server action is a public POST endpoint, whatever page shows its form: the
// wrapper authorizes first (through guards.ts, before the form is even read), then reads the
// form as it really arrives (lib/forms/action-input.ts), validates it with the form's own zod
// schema (the browser's validation is a convenience, not a guard), and only then runs the action.
// Every refusal on the way, and every one the action makes itself, is the same FormRefusal with
// the submitted values in it (lib/forms/form-state.ts). It lives with the guards, above the form
// plumbing in lib/forms, so that identity's own forms (sign-in, setup) are built with it too.
import 'server-only';
import { getTranslations } from 'next-intl/server';
import { z } from 'zod';
import { formDataArg } from '@/lib/forms/action-input';
import type { FieldErrors, FormRefusal } from '@/lib/forms/form-state';
import { isDatabaseUnavailable } from '@/lib/platform/database-errors';
import { logger } from '@/lib/platform/log';
import { authorizedAction, type Denial } from './guards';
import type { Permission } from './roles';
import type { Staff } from './session';

const log = logger.child({ area: 'forms' });

/** Who refused: the guards (no session, or a role without the permission), the schema, or the action. */
export type RefusalReason = Denial | 'invalid' | 'failed';

/** What a refusal says; anything left out is `failed` with no messages. */
export type RefusalDetails<Field extends string = string> = {
  status?: 'invalid' | 'failed';
  title?: string;
  message?: string;
  fieldErrors?: FieldErrors<Field>;
};

/**
 * `'public'` is for the forms used before anyone has a session (sign-in, first-run setup). It
 * is spelled out rather than implied by a missing permission, so leaving one out cannot open a
 * form to everybody.
 */
export type FormPermission = Permission | 'public';

/** The submission as it arrived: a FormData (an empty one if the caller sent anything else) and the state argument. */
export type Submission = { formData: FormData; previous: unknown };

type FieldOf<Typed> = Extract<keyof Typed, string>;
type StaffFor<P extends FormPermission> = P extends 'public' ? null : Staff;

export type FormActionOptions<P extends FormPermission, Schema extends z.ZodType, Typed, Values, Extra extends object, State> = {
  permission: P;
  /**
   * The form's schema, the same one its page validates with in the browser; or a function giving
   * it per request, when it depends on settings read at run time (not while the build imports it).
   */
  schema: Schema | (() => Schema);
  /** The fields as typed (text only: see action-input.ts), for the schema to validate; their names are the fields' names. */
  read: (formData: FormData) => Typed;
  /**
   * What a refusal sends back for the form to show again: cut to the fields' sizes, and never a
   * password. Required, so that what goes back is always a decision.
   */
  values: (typed: Typed) => Values;
  /** How a form with mistakes is answered. By default: `failed`, with the fields' messages. */
  invalid?: RefusalDetails<FieldOf<Typed>> | ((fieldErrors: FieldErrors<FieldOf<Typed>>) => RefusalDetails<FieldOf<Typed>>);
  /** Fields of the form's own that every refusal carries besides the shared ones (the create form's submission key). */
  carry?: (submission: Submission, reason: RefusalReason) => Extra;
  /** The action, on valid data from an authorized caller. `refuse` builds a refusal with the values in it. */
  run: (context: {
    data: z.output<Schema>;
    staff: StaffFor<P>;
    formData: FormData;
    refuse: (details: RefusalDetails<FieldOf<Typed>>) => FormRefusal<Values, FieldOf<Typed>> & Extra;
  }) => Promise<State>;
};

/**
 * Builds a server action for `useActionState`: `(previous state, form data) → next state`.
 * Nothing in `run` happens for a caller without the permission or for a form with mistakes.
 */
export function formAction<
  P extends FormPermission,
  Schema extends z.ZodType,
  Typed,
  Values,
  State,
  Extra extends object = Record<never, never>,
>(
  options: FormActionOptions<P, Schema, Typed, Values, Extra, State>,
): (previous: State, formData: FormData) => Promise<State | (FormRefusal<Values, FieldOf<Typed>> & Extra)> {
  type Refusal = FormRefusal<Values, FieldOf<Typed>> & Extra;
  const { permission, schema, read, values: valuesOf, invalid, carry, run } = options;

  const refusal = (submission: Submission, typed: Typed, reason: RefusalReason, details: RefusalDetails<FieldOf<Typed>>): Refusal => {
    const { status = 'failed', fieldErrors = {}, ...messages } = details;
    return { status, values: valuesOf(typed), fieldErrors, ...messages, ...(carry?.(submission, reason) as Extra) };
  };

  const answer = async (staff: StaffFor<P>, previous: unknown, formDataArgument: unknown): Promise<State | Refusal> => {
    const submission = { formData: formDataArg(formDataArgument), previous };
    const typed = read(submission.formData);
    const parsed = (typeof schema === 'function' ? schema() : schema).safeParse(typed);
    if (!parsed.success) {
      const fieldErrors = z.flattenError(parsed.error).fieldErrors as FieldErrors<FieldOf<Typed>>;
      const details = typeof invalid === 'function' ? invalid(fieldErrors) : invalid;
      return refusal(submission, typed, 'invalid', { fieldErrors, ...details });
    }
    return run({
      data: parsed.data as z.output<Schema>,
      staff,
      formData: submission.formData,
      refuse: (details) => refusal(submission, typed, 'failed', details),
    });
  };

  const action: (previous: State, formData: FormData) => Promise<State | Refusal> =
    permission === 'public'
      ? async (previous, formData) => answer(null as StaffFor<P>, previous, formData)
      : authorizedAction(
          permission as Permission,
          (staff, previous: State, formData: FormData) => answer(staff as StaffFor<P>, previous, formData),
          // Refused before the form is validated or anything runs, but the form gets its values back.
          // In the language of the person who posted the form.
          async (denial, previous, formDataArgument) => {
            const t = await getTranslations('auth.formAction');
            const submission = { formData: formDataArg(formDataArgument), previous };
            return refusal(submission, read(submission.formData), denial, {
              title: t(`denial.${denial}.title`),
              message: t(`denial.${denial}.message`),
            });
          },
        );
  // A database that cannot be reached (down, restarting, failing over) is answered like any
  // other refusal, with what was typed, rather than as an error page. Anything else (a redirect
  // among them) goes on as it came.
  return async (previous, formDataArgument) => {
    try {
      return await action(previous, formDataArgument);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      log.warn({ err: error }, 'a form was refused: the database cannot be reached');
      const t = await getTranslations('auth.formAction');
      const submission = { formData: formDataArg(formDataArgument), previous };
      return refusal(submission, read(submission.formData), 'failed', {
        title: t('databaseUnavailable.title'),
        message: t('databaseUnavailable.message'),
      });
    }
  };
}

/** What a form says in English while the database cannot be reached (forms say auth.formAction's words, in the reader's language). */
export const DATABASE_UNAVAILABLE_REFUSAL = {
  title: 'Database unavailable',
  message: 'The database cannot be reached right now. What you typed is kept here: try again in a moment.',
} as const;
