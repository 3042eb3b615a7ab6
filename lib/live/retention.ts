// Retention of the live log. An event exists so that open streams on every instance hear about a
// change and a browser that reconnects can catch up; a browser away longer than this is told to
// resync (it refetches everything), so older events serve nobody.
import 'server-only';
import { getDb } from '@/lib/db';
import { purgeLiveEventsBefore } from './event-log';

/** How long live events are kept: far longer than any tab stays disconnected and still reconnects. */
export const LIVE_EVENTS_KEPT_MS = 24 * 60 * 60 * 1000;

/** Deletes live events older than LIVE_EVENTS_KEPT_MS before `now` (the newest always stays); returns how many went. */
export async function purgeOldLiveEvents(now: Date = new Date()): Promise<number> {
  return purgeLiveEventsBefore(await getDb(), new Date(now.getTime() - LIVE_EVENTS_KEPT_MS));
}
