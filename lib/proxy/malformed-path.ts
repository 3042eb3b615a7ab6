// A path with a malformed %-escape ("/v1/verifications/%ZZ") is refused with a 400 before any
// routing: Next's router fails to decode such a dynamic segment and answers a bare 500.
import { NextResponse } from 'next/server';

export function hasMalformedEscape(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

export function malformedPathResponse(pathname: string): NextResponse {
  const headers = { 'Cache-Control': 'no-store' };
  // APIs answer in their error shape ({ "error": … }, contract §7); people get a sentence.
  if (pathname.startsWith('/v1/') || pathname.startsWith('/api/')) {
    return NextResponse.json({ error: 'The request path is invalid: it contains a malformed %-escape' }, { status: 400, headers });
  }
  return new NextResponse('This address is not valid: it contains a malformed %-escape. Check the link and try again.', {
    status: 400,
    headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
  });
}
