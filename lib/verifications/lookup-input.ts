// What staff paste into "Look up a verification": an id, often with a space or a line break
// around it, or the address of a detail page copied from the browser or a colleague's message.
// Pure and client-safe: the form reads it in the browser, and /verifications?id=… on the server
// when JavaScript is off; both must agree.
// A refusal carries its code (`problem`) for the form to say in the reader's language
// (detail.lookup.errors); `error` keeps the English sentence for callers that log it.
import { canonicalVerificationId, VERIFICATION_ID_MAX, verificationIdProblem } from '@/lib/verification-service/contract/verification-id';

export type LookupProblem = 'empty' | 'tooLong' | 'controlCharacters' | 'notAnId' | 'notADetailPage';

export type LookupInput = { id: string } | { error: string; problem: LookupProblem };

/** The longest id, for the message that says so. */
export const LOOKUP_ID_MAX = VERIFICATION_ID_MAX;

const NOT_A_DETAIL_PAGE = 'That address is not a verification’s page. Paste its id, or an address ending in /verifications/ and the id.';

/** The id to open for what was typed, or why there is none. */
export function parseLookupInput(input: string): LookupInput {
  const text = input.trim();
  const fromAddress = /^https?:\/\//i.test(text) || text.startsWith('/') ? idFromAddress(text) : { id: text };
  if ('error' in fromAddress) return fromAddress;
  const id = canonicalVerificationId(fromAddress.id);
  const problem = verificationIdProblem(id);
  return problem ? { error: problem, problem: idProblemCode(id) } : { id };
}

/** Which of verificationIdProblem's refusals `id` met, in the order it checks them. */
function idProblemCode(id: string): LookupProblem {
  if (id === '') return 'empty';
  if (id.length > VERIFICATION_ID_MAX) return 'tooLong';
  if (/[\u0000-\u001f\u007f]/.test(id)) return 'controlCharacters';
  return 'notAnId';
}

const notADetailPage: LookupInput = { error: NOT_A_DETAIL_PAGE, problem: 'notADetailPage' };

/**
 * The id in a detail page's address: http(s)://any-host/…/verifications/<id>, with or without a
 * trailing slash, query or fragment (the host is not checked: the id alone is used, on this
 * site). A path alone (/verifications/<id>) is accepted as well.
 */
function idFromAddress(text: string): LookupInput {
  let path: string;
  try {
    path = new URL(text, 'http://placeholder.invalid').pathname;
  } catch {
    return notADetailPage;
  }
  const segments = path.split('/');
  if (segments.at(-1) === '') segments.pop();
  const [parent, last] = segments.slice(-2);
  if (segments.length < 3 || parent !== 'verifications' || last === undefined || last === '' || last === 'new') {
    return notADetailPage;
  }
  try {
    // The page writes its id percent-encoded into the address.
    return { id: decodeURIComponent(last) };
  } catch {
    return notADetailPage;
  }
}
