// Facts about the incoming request that sign-in needs.
import 'server-only';

/** The client's address: the first X-Forwarded-For hop (Next.js sets it), else X-Real-IP. */
export function clientAddress(requestHeaders: Headers): string | null {
  const forwarded = requestHeaders.get('x-forwarded-for')?.split(',')[0]?.trim();
  return forwarded || requestHeaders.get('x-real-ip')?.trim() || null;
}

/**
 * A same-site path to return to after sign-in; anything else becomes "/". Browsers drop tabs
 * and newlines from URLs and read "\\" as "/", so "/\t/evil.com" would become "//evil.com":
 * such characters are refused outright, and the rest must resolve to this very site. The check
 * is made on the final, normalised path as well as on the input: resolving dot segments turns
 * "/.//evil.com" or "/%2e%2e//evil.com" into "//evil.com", which a browser reads as another host.
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2000 || !value.startsWith('/')) return '/';
  if (/[\u0000-\u001f\u007f\\]/.test(value) || value.startsWith('//')) return '/';
  const base = 'http://desk.invalid';
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return '/';
  }
  if (url.origin !== base) return '/';
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (!path.startsWith('/') || path.startsWith('//') || /[\u0000-\u001f\u007f\\]/.test(path)) return '/';
  // The final path must still resolve here on its own, exactly as a Location header would.
  if (new URL(path, base).origin !== base) return '/';
  if (path.startsWith('/sign-in') || path.startsWith('/setup')) return '/';
  return path;
}
