// The zone this request's pages show times in: the deployment's DISPLAY_TIME_ZONE for everyone,
// else the zone the staff member's browser reported in its cookie (components/ui/time-zone.tsx),
// else UTC until the browser has said. Pages and the exports they link to read the same, so a
// CSV holds the rows the page lists.
import 'server-only';
import { cookies } from 'next/headers';
import { getEnv } from '@/lib/env';
import { canonicalTimeZone } from '@/lib/platform/time-zone-name';
import { FALLBACK_TIME_ZONE, TIME_ZONE_COOKIE } from './time-zone';

export type DisplayZone = {
  timeZone: string;
  /** Set by the deployment: the browser's own zone does not apply. */
  fixed: boolean;
};

function zoneFor(reported: string | undefined): DisplayZone {
  const configured = getEnv().DISPLAY_TIME_ZONE;
  if (configured) return { timeZone: configured, fixed: true };
  return { timeZone: canonicalTimeZone(reported) ?? FALLBACK_TIME_ZONE, fixed: false };
}

/** For pages and layouts (inside Next's request scope). */
export async function displayZone(): Promise<DisplayZone> {
  return zoneFor((await cookies()).get(TIME_ZONE_COOKIE)?.value);
}

export async function displayTimeZone(): Promise<string> {
  return (await displayZone()).timeZone;
}

/** For route handlers, from the request's own Cookie header. */
export function displayTimeZoneOf(request: Request): string {
  const prefix = `${TIME_ZONE_COOKIE}=`;
  const reported = request.headers
    .get('cookie')
    ?.split(';')
    .map((entry) => entry.trim())
    .find((entry) => entry.startsWith(prefix))
    ?.slice(prefix.length);
  return zoneFor(reported).timeZone;
}
