// Server-Sent Events: status changes for signed-in staff, so open pages update without reload.
// Frames carry an id and a status code only; the browser re-reads the record through the
// authorised BFF route. A browser that reconnects sends Last-Event-ID and gets what it missed.
// Open streams are bounded per staff member (over all their sessions) and per process; past a
// bound the answer is 429 (why refusing rather than closing the oldest: lib/live/stream-slots.ts).
import { authorizedRoute } from '@/lib/auth/guards';
import { onSessionsChanged } from '@/lib/auth/session-cache';
import { getDb } from '@/lib/db';
import { streamSessionStillValid } from '@/lib/live/session-check';
import { createEventStream, EVENT_STREAM_HEADERS, readLastEventId } from '@/lib/live/sse';
import { getStreamSlots, refusalMessage } from '@/lib/live/stream-slots';
import { jsonResponse } from '@/lib/platform/json-response';

export const dynamic = 'force-dynamic';

/** Informative only: EventSource ignores it; the page's own reconnect backs off by itself. */
const RETRY_AFTER_SECONDS = 30;

export const GET = authorizedRoute('verification:read', async (request, staff) => {
  const db = await getDb(); // opened already: the session was just validated on it
  const slot = getStreamSlots().acquire(staff.id);
  if (!slot.ok) return jsonResponse({ error: refusalMessage(slot.limit) }, 429, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
  const stream = createEventStream({
    signal: request.signal,
    lastEventId: readLastEventId(request),
    // A stream can stay open for hours: it ends once its session is signed out, expired or the
    // account disabled, rather than keep informing someone who no longer has access. It checks
    // periodically, and at once when any instance says sessions changed.
    sessionStillValid: () => streamSessionStillValid(request.headers, staff.sessionId),
    watchSessions: (recheck) => onSessionsChanged(db, recheck),
    onClose: slot.release,
  });
  return new Response(stream, { headers: EVENT_STREAM_HEADERS });
});
