// What staff paste into "Look up a verification": an id, often with a space or a line break
// around it, the address of a detail page copied from the browser or a colleague's message, or
// the person's link (the shareable link the service returned), which only the register can turn
// into its request: that is left to the server (findRequestByLink in the register's queries).
// Pure and client-safe: the form reads it in the browser, and /verifications?id=… on the server
// when JavaScript is off; both must agree.
// A refusal carries its code (`problem`) for the form to say in the reader's language
// (detail.lookup.errors); `error` keeps the English sentence for callers that log it.
import { canonicalVerificationId, VERIFICATION_ID_MAX, verificationIdProblem } from '@/lib/verification-service/contract/verification-id';

export type LookupProblem = 'empty' | 'tooLong' | 'controlCharacters' | 'notAnId' | 'notADetailPage' | 'unknownLink';

/** An id to open; a web address that is no detail page, perhaps a person's link; or why neither. */
export type LookupInput = { id: string } | { link: string } | { error: string; problem: LookupProblem };

/** The longest id, for the message that says so. */
export const LOOKUP_ID_MAX = VERIFICATION_ID_MAX;

const NOT_A_DETAIL_PAGE = 'That address is not a verification’s page. Paste its id, or an address ending in /verifications/ and the id.';

/** The id to open for what was typed, the web address to look up in the register, or why neither. */
export function parseLookupInput(input: string): LookupInput {
  const text = input.trim();
  const web = /^https?:\/\//i.test(text);
  const fromAddress = web || text.startsWith('/') ? idFromAddress(text) : { id: text };
  // Any other web address may be a person's link: the register says whose.
  if (fromAddress === undefined) return web && URL.canParse(text) ? { link: text } : notADetailPage;
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

type Refusal = { error: string; problem: LookupProblem };

const notADetailPage: Refusal = { error: NOT_A_DETAIL_PAGE, problem: 'notADetailPage' };

/**
 * The id in a detail page's address: http(s)://any-host/…/verifications/<id>, with or without a
 * trailing slash, query or fragment (the host is not checked: the id alone is used, on this
 * site). A path alone (/verifications/<id>) is accepted as well. Undefined when the address is
 * not a detail page's at all.
 */
function idFromAddress(text: string): { id: string } | Refusal | undefined {
  let path: string;
  try {
    path = new URL(text, 'http://placeholder.invalid').pathname;
  } catch {
    return undefined;
  }
  const segments = path.split('/');
  if (segments.at(-1) === '') segments.pop();
  const [parent, last] = segments.slice(-2);
  if (segments.length < 3 || parent !== 'verifications' || last === undefined || last === '' || last === 'new') {
    return undefined;
  }
  try {
    // The page writes its id percent-encoded into the address.
    return { id: decodeURIComponent(last) };
  } catch {
    return notADetailPage;
  }
}
