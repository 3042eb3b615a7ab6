// Whether a string names a time zone this runtime knows: a name from the IANA database
// ("Europe/Brussels"), checked against Intl. Pure and client-safe (no imports), and below both
// the configuration (lib/env.ts checks DISPLAY_TIME_ZONE with it) and the display zone (lib/time).

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
