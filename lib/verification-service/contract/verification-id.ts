// One spelling per verification id, so that a request has one identity in the register, the
// audit trail and the page's address. Pure and client-safe: the lookup form uses it too.
//
// The contract does not say what an id looks like, so ids stay opaque: their case may matter,
// and only surrounding whitespace (a copy-paste accident) is removed. One shape is the exception:
// a UUID. RFC 9562 makes UUIDs case-insensitive on input and lowercase on output, so an
// uppercased UUID names the same request, and a service that issues UUIDs (the sandbox does)
// accepts either spelling. Such ids are kept in lowercase everywhere the dashboard stores or
// shows them.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Longer than any id a service would issue; keeps a pasted document out of URLs and queries. */
export const VERIFICATION_ID_MAX = 200;

/** The one spelling of `id` the dashboard uses: trimmed, and in lowercase when it is a UUID. */
export function canonicalVerificationId(id: string): string {
  const trimmed = id.trim();
  return UUID.test(trimmed) ? trimmed.toLowerCase() : trimmed;
}

/**
 * Why `id` (already canonical) cannot be a verification id, in words for staff, or undefined
 * when it can. Only what no id can hold is refused: it goes into a URL path and a text column.
 */
export function verificationIdProblem(id: string): string | undefined {
  if (id === '') return 'Enter the verification id you want to look up.';
  if (id.length > VERIFICATION_ID_MAX) return `That is too long for a verification id (at most ${VERIFICATION_ID_MAX} characters).`;
  if (/[\u0000-\u001f\u007f]/.test(id)) return 'The id contains invisible control characters; paste it again.';
  if (id.includes('/') || id === '.' || id === '..') return 'That is not a verification id. Paste the id, or the address of its page.';
  return undefined;
}

/**
 * Whether `term` could be the start of a UUID (hex digits and dashes only), so that a search
 * for it should also look for its lowercase spelling: that is how UUIDs are kept.
 */
export function couldStartUuid(term: string): boolean {
  return /^[0-9a-f-]+$/i.test(term);
}
