// Server-Sent Events: status changes for signed-in staff, so open pages update without reload.
// Frames carry an id and a status code only; the browser re-reads the record through the
// authorised BFF route. A browser that reconnects sends Last-Event-ID and gets what it missed.
import { authorizedRoute } from '@/lib/auth/guards';
import { streamSessionStillValid } from '@/lib/live/session-check';
import { createEventStream, EVENT_STREAM_HEADERS, readLastEventId } from '@/lib/live/sse';

export const dynamic = 'force-dynamic';

export const GET = authorizedRoute('verification:read', async (request, staff) => {
  const stream = createEventStream({
    signal: request.signal,
    lastEventId: readLastEventId(request),
    // A stream can stay open for hours: it ends once its session is signed out, expired or the
    // account disabled, rather than keep informing someone who no longer has access.
    sessionStillValid: () => streamSessionStillValid(request.headers, staff.sessionId),
  });
  return new Response(stream, { headers: EVENT_STREAM_HEADERS });
});
