// Facts about the incoming request that sign-in needs.
import 'server-only';

/** The client's address: the first X-Forwarded-For hop (Next.js sets it), else X-Real-IP. */
export function clientAddress(requestHeaders: Headers): string | null {
  const forwarded = requestHeaders.get('x-forwarded-for')?.split(',')[0]?.trim();
  return forwarded || requestHeaders.get('x-real-ip')?.trim() || null;
}

/** A same-site path to return to after sign-in; anything else (other hosts, `//evil`) becomes "/". */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  if (value.startsWith('/sign-in') || value.startsWith('/setup')) return '/';
  return value.slice(0, 2000);
}
