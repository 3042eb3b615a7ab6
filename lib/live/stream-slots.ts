// How many live streams may be open at once: per session (a person with many tabs) and per
// process (everyone). Each open stream holds a subscription, a heartbeat timer and a periodic
// session check, so without a bound one signed-in person could hold any number of them.
//
// Past a bound a new stream is refused (429), rather than the oldest closed. A stream the server
// ends is reopened by the browser's EventSource after its `retry:` delay, and that reopened stream
// would in turn close the next-oldest: with one tab too many, the tabs would take turns evicting
// each other every few seconds, for as long as they stay open. A refusal instead stops the
// browser's EventSource (a non-200 answer is final for it); the page's own reconnect
// (components/live) then tries again with a growing delay and shows "Live updates paused" in the
// meantime, and the refused tab gets its stream once another tab closes.
import 'server-only';
import { processSingleton } from '@/lib/platform/process-singleton';

export const STREAMS_PER_SESSION = 10;
export const STREAMS_PER_PROCESS = 500;

export type StreamSlot = { ok: true; release: () => void } | { ok: false; limit: 'session' | 'process' };

export type StreamSlots = {
  /** One more open stream for `sessionId`, to be released when the stream ends; or which bound refused it. */
  acquire(sessionId: string): StreamSlot;
  /** Open streams, of one session or of all. */
  open(sessionId?: string): number;
};

export function createStreamSlots({ perSession, perProcess }: { perSession: number; perProcess: number }): StreamSlots {
  const bySession = new Map<string, number>();
  let total = 0;

  return {
    acquire(sessionId) {
      const mine = bySession.get(sessionId) ?? 0;
      if (mine >= perSession) return { ok: false, limit: 'session' };
      if (total >= perProcess) return { ok: false, limit: 'process' };
      bySession.set(sessionId, mine + 1);
      total += 1;
      let released = false;
      return {
        ok: true,
        // Idempotent: a stream can notice its end several ways (abort, cancel, session check).
        release() {
          if (released) return;
          released = true;
          total -= 1;
          const left = (bySession.get(sessionId) ?? 1) - 1;
          // Sessions with no stream are forgotten, so the map holds only sessions with open streams.
          if (left > 0) bySession.set(sessionId, left);
          else bySession.delete(sessionId);
        },
      };
    },
    open(sessionId) {
      return sessionId === undefined ? total : (bySession.get(sessionId) ?? 0);
    },
  };
}

/** The process's bounds (a process singleton: Next.js bundles each route separately). */
export function getStreamSlots(): StreamSlots {
  return processSingleton('live-stream-slots', () =>
    createStreamSlots({ perSession: STREAMS_PER_SESSION, perProcess: STREAMS_PER_PROCESS }),
  );
}

/** What a refused browser is told (EventSource does not show it; a person reading the network log does). */
export function refusalMessage(limit: 'session' | 'process'): string {
  return limit === 'session'
    ? `Live updates are already open in ${STREAMS_PER_SESSION} tabs of this session; close one and this tab will resume them.`
    : 'The server has as many live update streams open as it allows; this tab will try again shortly.';
}
