// Turns a stored user agent into the words a person recognises their device by: "Chrome 131 on
// Linux". Only the browser's major version: the full build number says nothing more to a person.
import Bowser from 'bowser';

export function deviceLabel(userAgent: string | null | undefined): string {
  if (!userAgent?.trim()) return 'Unknown browser';
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name ? [parsed.browser.name, parsed.browser.version?.split('.')[0]].filter(Boolean).join(' ') : '';
  const system = parsed.os.name ?? '';
  if (browser && system) return `${browser} on ${system}`;
  return browser || system || 'Unknown browser';
}
