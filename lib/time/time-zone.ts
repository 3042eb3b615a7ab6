// Which time zone the dashboard shows times in: a name from the IANA database ("Europe/Brussels"),
// checked against what this runtime's Intl knows (lib/platform/time-zone-name.ts). Pure and
// client-safe: the browser writes the cookie, the server reads it back (lib/time/display-zone.ts),
// and neither trusts it as more than a zone's name.

/** The cookie in which the browser tells the server its zone, so server renders already use it. */
export const TIME_ZONE_COOKIE = 'vd-time-zone';

/** Renders before the zone is known (a first visit), and the fallback for anything unusable. */
export const FALLBACK_TIME_ZONE = 'UTC';
