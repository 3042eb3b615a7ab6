// The one shape in which the dashboard's form actions answer a refused submission, whatever
// refused it: the session, the role, the fields, a limit or the service. It carries back what
// was submitted, so the form re-renders with everything the person typed (also without
// JavaScript, when the server renders the answer). Types and a reader only: forms import this.

/** Messages per field, as zod's flattenError groups them; the first one is shown. */
export type FieldErrors<Field extends string = string> = Partial<Record<Field, string[]>>;

/**
 * A refused submission. `values` is what the form shows again (never a password: the action
 * decides what goes back). `fieldErrors` say what to fix at the fields; `message` (and `title`,
 * where the form shows one) what happened otherwise. `invalid` and `failed` are both refusals;
 * a form that treats mistakes in its fields differently from other failures tells them apart.
 */
export type FormRefusal<Values, Field extends string = Extract<keyof Values, string>> = {
  status: 'invalid' | 'failed';
  values: Values;
  fieldErrors: FieldErrors<Field>;
  title?: string;
  message?: string;
};

/** A form's states: before its first post, refused, or whatever success looks like for it. */
export type FormState<Values, Success = never, Field extends string = Extract<keyof Values, string>> =
  | { status: 'idle'; values: Values }
  | FormRefusal<Values, Field>
  | Success;

/** For forms whose fields the page renders from its own data, so nothing needs to go back. */
export type NoValues = Record<never, never>;

/** The refusal in a form's state, if it holds one. */
export function refusalOf<State extends { status: string }>(state: State): Extract<State, { status: 'invalid' | 'failed' }> | undefined {
  return state.status === 'invalid' || state.status === 'failed' ? (state as Extract<State, { status: 'invalid' | 'failed' }>) : undefined;
}
