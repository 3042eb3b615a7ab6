// Reading a server action's arguments as they really arrive. An action is a public POST
// endpoint: whatever its TypeScript signature says, a hand-written call can pass a string, null
// or an object where a FormData is expected, a file where a text field is expected, or no
// arguments at all. Calling `.get()` on such a value would throw a TypeError (a 500 for the caller);
// these helpers turn every such shape into "the field was not filled in", which the form's own
// validation then reports under the field's name.

/** The action's FormData argument, or an empty one when the caller sent anything else. */
export function formDataArg(value: unknown): FormData {
  return value instanceof FormData ? value : new FormData();
}

/** A text field's value; '' when it is missing or is a file (a file is never typed text). */
export function textField(formData: FormData, key: string): string {
  const value = formData.get(key);
  return typeof value === 'string' ? value : '';
}

/** A property of a previous form state, when the caller sent an object that has it as a string. */
export function stringProperty(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
  const property = (value as Record<string, unknown>)[key];
  return typeof property === 'string' ? property : undefined;
}
