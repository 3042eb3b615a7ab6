// Runs before every page request (and before an API request only when its path has a %-escape);
// the one place for what differs per request. The headers every response carries — nosniff,
// framing forbidden, referrer policy, HSTS behind HTTPS and the strictest Content-Security-Policy —
// are static, in next.config.mjs.
//
// 1. Pages get a Content-Security-Policy with a fresh nonce per request ('strict-dynamic': only
//    scripts Next.js marks with the nonce, and what they load, may run).
// 2. Server-action requests that Next's decoder would answer with a 500 (too large, malformed,
//    an Origin that is not a URL) are refused first with a 413/400/403 and a plain message
//    (lib/proxy/server-action-gate.ts). A body is read only up to the 1 MB limit, as it arrives
//    (the production server, lib/cli/request-perimeter.mjs, holds every request body to its
//    route's limit before the app sees it; lib/proxy/server-action-body-cap.ts ends an action's
//    body there under any server; next.config.mjs caps Next's copy of it).
// 3. A path with a malformed %-escape ("/v1/verifications/%ZZ") gets a 400: Next's router fails
//    to decode such a dynamic segment and answers a bare 500 before any handler runs.
// 4. An optimistic sign-in check: a page request without any session cookie goes straight to
//    sign-in (a clean 307 that remembers the way back). The real check — is the session valid,
//    may this role do this — is in each page, action and route handler, because a cookie's
//    presence proves nothing.
import { type NextRequest, NextResponse } from 'next/server';
import { contentSecurityPolicy, singleSignOnFormTargets } from './lib/proxy/content-security-policy';
import { hasMalformedEscape, malformedPathResponse } from './lib/proxy/malformed-path';
import { checkServerActionRequest, isServerActionRequest } from './lib/proxy/server-action-gate';

const SESSION_COOKIES = ['vdesk.session_token', '__Secure-vdesk.session_token'];

const API_PREFIXES = ['/api/', '/v1/'];

// Pages and routes that answer without a staff session: their own checks (or none) apply. (API
// calls, which need no session cookie either, have returned before this list is consulted.)
const PUBLIC_PREFIXES = ['/sign-in', '/setup', '/sign-out', '/sandbox/', '/invitation/'];

export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (hasMalformedEscape(pathname)) return malformedPathResponse(pathname);
  if (isServerActionRequest(request, pathname)) {
    const refusal = await checkServerActionRequest(request);
    if (refusal) {
      // Exactly "text/plain": Next's client shows such a body as the error's message.
      return new NextResponse(refusal.message, {
        status: refusal.status,
        headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' },
      });
    }
  }
  // An API path that reached the proxy only for its %-escapes, which were well formed.
  if (API_PREFIXES.some((prefix) => pathname.startsWith(prefix))) return NextResponse.next();
  const isPage = !PUBLIC_PREFIXES.some((prefix) => pathname.startsWith(prefix));
  // Page loads only: a POST is a server action, which refuses by itself and hands the form its
  // values back — a redirect here would throw them away.
  const isPageLoad = isPage && (request.method === 'GET' || request.method === 'HEAD');
  if (isPageLoad && !SESSION_COOKIES.some((name) => request.cookies.has(name))) {
    const signIn = new URL('/sign-in', request.url);
    if (pathname !== '/') signIn.searchParams.set('next', `${pathname}${search}`);
    return NextResponse.redirect(signIn, 307);
  }

  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const csp = contentSecurityPolicy(nonce, {
    dev: process.env.NODE_ENV === 'development',
    formTargets: singleSignOnFormTargets(process.env),
  });
  // Next.js reads the nonce from the request's CSP header and puts it on the scripts it renders.
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('Content-Security-Policy', csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  // Replaces next.config.mjs's strictest policy, which would block the page's own scripts.
  response.headers.set('Content-Security-Policy', csp);
  // An invitation's token is in its path: requests from that page carry the origin only, never the
  // path. (Not 'no-referrer': under it a form posted without JavaScript says "Origin: null", and
  // the server-action origin check rightly refuses it.)
  if (pathname.startsWith('/invitation/')) response.headers.set('Referrer-Policy', 'strict-origin');
  return response;
}

export const config = {
  // Not Next's static files, the icon and robots.txt. Not API calls (/api/…, /v1/…) either,
  // unless their path holds a '%': they need no nonce and no sign-in redirect, and running the
  // proxy costs every call noticeable time; only their malformed escapes (3.) need it.
  matcher: ['/((?!(?:api|v1)/[^%]*$|_next/static|_next/image|icon\\.svg|favicon\\.ico|robots\\.txt).*)'],
};
