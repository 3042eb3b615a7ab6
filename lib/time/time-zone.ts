// Which time zone the dashboard shows times in: a name from the IANA database ("Europe/Brussels"),
// checked against what this runtime's Intl knows. Pure and client-safe: the browser writes the
// cookie, the server reads it back (lib/time/display-zone.ts), and neither trusts it as more than
// a zone's name.

/** The cookie in which the browser tells the server its zone, so server renders already use it. */
export const TIME_ZONE_COOKIE = 'vd-time-zone';

/** Renders before the zone is known (a first visit), and the fallback for anything unusable. */
export const FALLBACK_TIME_ZONE = 'UTC';

// IANA names are letters, digits and `/_+-` ("America/Argentina/Buenos_Aires", "Etc/GMT+5"). Raw
// offsets ("+01:00"), which some runtimes accept too, are refused: they have no daylight saving
// rules, so a "zone" of that kind would show summer dates an hour off.
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

/**
 * The canonical spelling of a time zone name ("europe/brussels" → "Europe/Brussels"), or
 * undefined when it is not a zone this runtime knows.
 */
export function canonicalTimeZone(name: unknown): string | undefined {
  if (typeof name !== 'string' || !ZONE_NAME.test(name)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-GB', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}
