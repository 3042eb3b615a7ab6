// Runs before every page request. An optimistic check only: a visitor with no session cookie at
// all is sent to sign-in at once (a clean 307 that remembers where they were going). The real
// check — is the session valid, may this role see this page — is in each page, action and
// route handler, because a cookie's presence proves nothing.
import { NextResponse, type NextRequest } from 'next/server';

const SESSION_COOKIES = ['vdesk.session_token', '__Secure-vdesk.session_token'];

export function proxy(request: NextRequest) {
  // Page loads only. A POST is a server action: it refuses by itself and hands the form its
  // values back, which a redirect here would throw away.
  if (request.method !== 'GET' && request.method !== 'HEAD') return NextResponse.next();
  if (SESSION_COOKIES.some((name) => request.cookies.has(name))) return NextResponse.next();
  const { pathname, search } = request.nextUrl;
  const signIn = new URL('/sign-in', request.url);
  if (pathname !== '/') signIn.searchParams.set('next', `${pathname}${search}`);
  return NextResponse.redirect(signIn, 307);
}

export const config = {
  // Dashboard pages only: not sign-in/setup/sign-out, the JSON API (it answers 401 itself),
  // the sandbox service, or static files.
  matcher: ['/((?!sign-in|setup|sign-out|api/|v1/|sandbox/|_next/|favicon|icon|robots|.*\\.[a-z0-9]+$).*)'],
};
