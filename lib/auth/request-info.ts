// Facts about the incoming request that sign-in needs.
import 'server-only';
import { CLIENT_ADDRESS_HEADER, CLIENT_ADDRESS_SERVER_NAME } from '@/lib/cli/client-address.mjs';
import { logger } from '@/lib/platform/log';
import { processSingleton } from '@/lib/platform/process-singleton';
import { HOME_PATH } from './landing';

/**
 * The client's address, as the server that owns the socket decided it (lib/cli/server.mjs:
 * the connection's address, or X-Forwarded-For past TRUST_PROXY trusted hops), or null when no
 * such server runs this app. Every header a client sends, X-Forwarded-For and X-Real-IP
 * included, is the client's to choose, so none of them is read here. Only `next dev` runs
 * without that server: the address is then unknown, and sign-in throttling treats all unknown
 * addresses as one (lib/auth/throttle.ts).
 */
export function clientAddress(requestHeaders: Headers): string | null {
  // True only when lib/cli/server.mjs set it, before Next.js loaded.
  if (processSingleton(CLIENT_ADDRESS_SERVER_NAME, () => false) !== true) {
    const notice = processSingleton('client-address-unknown-notice', () => ({ given: false }));
    if (!notice.given) {
      notice.given = true;
      logger.warn(
        'Client addresses are unknown: this app is not served by lib/cli/server.mjs (npm start, npm run serve), e.g. under next dev. Sign-in throttling counts every address as one.',
      );
    }
    return null;
  }
  return requestHeaders.get(CLIENT_ADDRESS_HEADER) || null;
}

/**
 * A same-site path to return to after sign-in; anything else becomes the start page (HOME_PATH). Browsers drop tabs
 * and newlines from URLs and read "\\" as "/", so "/\t/evil.com" would become "//evil.com":
 * such characters are refused outright, and the rest must resolve to this very site. The check
 * is made on the final, normalised path as well as on the input: resolving dot segments turns
 * "/.//evil.com" or "/%2e%2e//evil.com" into "//evil.com", which a browser reads as another host.
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2000 || !value.startsWith('/')) return HOME_PATH;
  if (/[\u0000-\u001f\u007f\\]/.test(value) || value.startsWith('//')) return HOME_PATH;
  const base = 'http://desk.invalid';
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return HOME_PATH;
  }
  if (url.origin !== base) return HOME_PATH;
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (!path.startsWith('/') || path.startsWith('//') || /[\u0000-\u001f\u007f\\]/.test(path)) return HOME_PATH;
  // The final path must still resolve here on its own, exactly as a Location header would.
  if (new URL(path, base).origin !== base) return HOME_PATH;
  if (path.startsWith('/sign-in') || path.startsWith('/setup')) return HOME_PATH;
  return path;
}
