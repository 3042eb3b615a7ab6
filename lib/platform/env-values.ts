// How both halves read an environment variable's raw value: a blank one (empty, or only
// spaces, as a template or a shell export often leaves it) means "not set", so the default
// applies instead of an empty string that would mean something else (an in-memory database
// for DATA_DIR, say).

/** zod preprocess step: a blank string becomes undefined; anything else passes unchanged. */
export const blankAsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
