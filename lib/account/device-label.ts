// Turns a stored user agent into what a person recognises their device by: the browser ("Chrome
// 131") and the system ("Linux"). Only the browser's major version: the full build number says
// nothing more to a person. The words around them are the reader's (own-sessions.ts).
import Bowser from 'bowser';

export type DeviceParts = { browser: string; system: string };

export function deviceParts(userAgent: string | null | undefined): DeviceParts {
  if (!userAgent?.trim()) return { browser: '', system: '' };
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name ? [parsed.browser.name, parsed.browser.version?.split('.')[0]].filter(Boolean).join(' ') : '';
  return { browser, system: parsed.os.name ?? '' };
}

/** "Chrome 131 on Linux", in English (for logs and tests). */
export function deviceLabel(userAgent: string | null | undefined): string {
  const { browser, system } = deviceParts(userAgent);
  if (browser && system) return `${browser} on ${system}`;
  return browser || system || 'Unknown browser';
}
