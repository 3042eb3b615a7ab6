// A gate in front of Next.js's server-action decoder, run by the proxy for every POST that Next
// would treat as a server action. Next 16 answers some malformed action requests with a 500 and
// an opaque digest instead of a 4xx: a body over `serverActions.bodySizeLimit` (its own code has
// a TODO to send 413 instead; a no-JavaScript form post even gets the error page), a body that
// is not the JSON its decoder expects (an empty one included), arguments that are not an array,
// or an Origin header that is not a URL (its cross-origin check throws on it). None of these can
// come from our own pages; they are hand-written calls. The gate refuses them first, with a
// plain-text message: Next's client shows a text/plain error body as the error's message, and a
// browser shows it as a readable page. It reads a body as it streams in and stops past the limit;
// the production server (lib/cli/request-perimeter.mjs) and ./server-action-body-cap.ts stop the
// connection's reading there too.
import { readBodyAtMost } from '@/lib/platform/bounded-body';

/**
 * The most a server action accepts. Our largest form is a few kilobytes even with every field
 * at its maximum; 1 MB (Next's own default, set explicitly in next.config.mjs so the two agree)
 * leaves room for 10 000-character values of any script while keeping a refused body cheap.
 */
export const SERVER_ACTION_BODY_LIMIT_BYTES = 1024 * 1024;
export const SERVER_ACTION_BODY_LIMIT = '1mb';

export const TOO_LARGE_MESSAGE = 'The form is too large to send: at most 1 MB is accepted. Shorten what you entered and submit again.';
export const MALFORMED_MESSAGE =
  'This request is not a valid call of a server action: its arguments must be a JSON array ' +
  '(sent as text, or as the field "0" of a multipart form). Reload the page and submit the form again.';
export const MALFORMED_ORIGIN_MESSAGE =
  'This request came from an address that could not be read. Reload the page and submit the form again.';
export const UNREADABLE_FORM_MESSAGE = 'The form data could not be read. Reload the page and submit the form again.';

/** Would Next's action handler take this request? (A Next-Action header, or a multipart POST to a page.) */
export function isServerActionRequest(request: Request, pathname: string): boolean {
  return looksLikeServerAction(request.method, pathname, (name) => request.headers.get(name));
}

/** The same question for any request representation (lib/proxy/server-action-body-cap.ts asks it of Node's). */
export function looksLikeServerAction(
  method: string | undefined,
  pathname: string,
  header: (name: string) => string | null | undefined,
): boolean {
  if (method !== 'POST') return false;
  if (header('next-action') != null) return true;
  // Route handlers (the API, the sandbox API, sign-out) read their own bodies and set their own
  // limits. Only /sign-out itself: below it is a page path like any other (lib/cli/server.mjs
  // refuses POSTs to the rest of /api and /v1 before they reach the app).
  if (/^\/(api|v1)(\/|$)|^\/sign-out\/?$/.test(pathname)) return false;
  return isMultipart(header('content-type') ?? null);
}

export type ServerActionRefusal = { status: 400 | 403 | 413; message: string };

/** A refusal for a request the action decoder would fail on, or undefined to let it through. */
export async function checkServerActionRequest(request: Request): Promise<ServerActionRefusal | undefined> {
  // Next's cross-origin check parses the Origin header and throws on one that is not a URL.
  if (isMalformedOrigin(request.headers.get('origin'))) return refuse(403, MALFORMED_ORIGIN_MESSAGE);
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > SERVER_ACTION_BODY_LIMIT_BYTES) return refuse(413, TOO_LARGE_MESSAGE);

  // Read as it streams in (a chunked body declares no length), and no further than the limit.
  // Next buffers the proxy's copy of the body, so the action still receives it afterwards.
  let bytes: Uint8Array<ArrayBuffer> | 'too large';
  try {
    bytes = await readBodyAtMost(request.body, SERVER_ACTION_BODY_LIMIT_BYTES);
  } catch {
    return refuse(400, UNREADABLE_FORM_MESSAGE);
  }
  if (bytes === 'too large') return refuse(413, TOO_LARGE_MESSAGE);

  const contentType = request.headers.get('content-type') ?? '';
  const isFetchCall = request.headers.has('next-action');
  if (isMultipart(contentType)) {
    let form: FormData;
    try {
      form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
    } catch {
      return refuse(400, UNREADABLE_FORM_MESSAGE);
    }
    // A fetch call's arguments are the JSON array in field "0"; a no-JavaScript form post has no
    // such field (Next finds its action in the $ACTION_ fields instead).
    if (isFetchCall && !isJsonArray(form.get('0'))) return refuse(400, MALFORMED_MESSAGE);
    return undefined;
  }
  if (isFetchCall && !isJsonArray(new TextDecoder().decode(bytes))) return refuse(400, MALFORMED_MESSAGE);
  return undefined;
}

/** An Origin header that is neither "null" (an opaque origin, which Next refuses itself) nor a URL. */
function isMalformedOrigin(origin: string | null): boolean {
  if (origin === null || origin === 'null') return false;
  return !URL.canParse(origin);
}

function isMultipart(contentType: string | null): boolean {
  return (contentType ?? '').toLowerCase().startsWith('multipart/form-data');
}

function isJsonArray(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    return Array.isArray(JSON.parse(text));
  } catch {
    return false;
  }
}

function refuse(status: ServerActionRefusal['status'], message: string): ServerActionRefusal {
  return { status, message };
}
