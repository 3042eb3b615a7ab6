// Runs before every page and route request; the one place for the security headers.
//
// 1. Headers: a Content-Security-Policy with a fresh nonce per request ('strict-dynamic': only
//    scripts Next.js marks with the nonce, and what they load, may run), framing forbidden,
//    nosniff, a strict referrer policy, and HSTS when served over HTTPS.
// 2. Server-action requests that Next's decoder would answer with a 500 (too large, malformed)
//    are refused first with a 413/400 and a plain message (lib/server-action-gate.ts).
// 3. A path with a malformed %-escape ("/v1/verifications/%ZZ") gets a 400: Next's router fails
//    to decode such a dynamic segment and answers a bare 500 before any handler runs.
// 4. An optimistic sign-in check: a page request without any session cookie goes straight to
//    sign-in (a clean 307 that remembers the way back). The real check — is the session valid,
//    may this role do this — is in each page, action and route handler, because a cookie's
//    presence proves nothing.
import { NextResponse, type NextRequest } from 'next/server';
import { checkServerActionRequest, isServerActionRequest } from './lib/server-action-gate';

const SESSION_COOKIES = ['vdesk.session_token', '__Secure-vdesk.session_token'];

// Paths that answer without a staff session: their own checks (or none) apply.
const PUBLIC_PREFIXES = ['/sign-in', '/setup', '/sign-out', '/api/', '/v1/', '/sandbox/'];

/**
 * JSON and event-stream answers never run script or load anything: one fixed, strictest policy,
 * no nonce. Skipping the per-request nonce (and the request rewrite that hands it to Next.js)
 * keeps the proxy's cost off every API call, the sandbox's and the dashboard's read route.
 */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

const API_PREFIXES = ['/api/', '/v1/'];

export function contentSecurityPolicy(nonce: string, { dev }: { dev: boolean }): string {
  return [
    `default-src 'self'`,
    // React's dev tooling evaluates code; production never needs 'unsafe-eval' or 'unsafe-inline'.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? ` 'unsafe-eval'` : ''}`,
    `style-src 'self' 'nonce-${nonce}'`,
    `img-src 'self' data:`,
    `font-src 'self'`,
    `connect-src 'self'`,
    `frame-ancestors 'none'`,
    `object-src 'none'`,
    `base-uri 'none'`,
    `form-action 'self'`,
  ].join('; ');
}

function isHttps(request: NextRequest): boolean {
  return request.nextUrl.protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
}

export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (hasMalformedEscape(pathname)) return withSecurityHeaders(malformedPathResponse(pathname), request, null);
  if (isServerActionRequest(request, pathname)) {
    const refusal = await checkServerActionRequest(request);
    if (refusal) {
      // Exactly "text/plain": Next's client shows such a body as the error's message.
      const response = new NextResponse(refusal.message, {
        status: refusal.status,
        headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' },
      });
      return withSecurityHeaders(response, request, null);
    }
  }
  if (API_PREFIXES.some((prefix) => pathname.startsWith(prefix))) {
    return withSecurityHeaders(NextResponse.next(), request, API_CONTENT_SECURITY_POLICY);
  }
  const isPage = !PUBLIC_PREFIXES.some((prefix) => pathname.startsWith(prefix));
  // Page loads only: a POST is a server action, which refuses by itself and hands the form its
  // values back — a redirect here would throw them away.
  const isPageLoad = isPage && (request.method === 'GET' || request.method === 'HEAD');
  if (isPageLoad && !SESSION_COOKIES.some((name) => request.cookies.has(name))) {
    const signIn = new URL('/sign-in', request.url);
    if (pathname !== '/') signIn.searchParams.set('next', `${pathname}${search}`);
    return withSecurityHeaders(NextResponse.redirect(signIn, 307), request, null);
  }

  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const csp = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === 'development' });
  // Next.js reads the nonce from the request's CSP header and puts it on the scripts it renders.
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('Content-Security-Policy', csp);
  return withSecurityHeaders(NextResponse.next({ request: { headers: requestHeaders } }), request, csp);
}

function hasMalformedEscape(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

function malformedPathResponse(pathname: string): NextResponse {
  const headers = { 'Cache-Control': 'no-store' };
  // APIs answer in their error shape ({ "error": … }, seed §7); people get a sentence.
  if (pathname.startsWith('/v1/') || pathname.startsWith('/api/')) {
    return NextResponse.json({ error: 'The request path is invalid: it contains a malformed %-escape' }, { status: 400, headers });
  }
  return new NextResponse('This address is not valid: it contains a malformed %-escape. Check the link and try again.', {
    status: 400,
    headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
  });
}

function withSecurityHeaders(response: NextResponse, request: NextRequest, csp: string | null): NextResponse {
  if (csp) response.headers.set('Content-Security-Policy', csp);
  response.headers.set('X-Content-Type-Options', 'nosniff');
  response.headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  response.headers.set('X-Frame-Options', 'DENY');
  if (isHttps(request)) response.headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  return response;
}

export const config = {
  // Everything but Next's static files, the icon and robots.txt (an internal tool: no crawling).
  matcher: ['/((?!_next/static|_next/image|icon\\.svg|favicon\\.ico|robots\\.txt).*)'],
};
