// How many live streams may be open at once: per staff member (a person with many tabs, in any
// number of browsers) and per process (everyone). Each open stream holds a subscription, a
// heartbeat timer and a periodic session check, so without a bound one signed-in person could
// hold any number of them. The bound is the person's, not the session's: sessions are cheap to
// make (sign in again), so a per-session bound would let one account take every stream of the
// process and pause live updates for all staff.
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

export const STREAMS_PER_STAFF_MEMBER = 10;
export const STREAMS_PER_PROCESS = 500;

export type StreamLimit = 'member' | 'process';

export type StreamSlot = { ok: true; release: () => void } | { ok: false; limit: StreamLimit };

export type StreamSlots = {
  /** One more open stream for the staff member `staffId` (whichever session), to be released when the stream ends; or which bound refused it. */
  acquire(staffId: string): StreamSlot;
  /** Open streams, of one staff member or of all. */
  open(staffId?: string): number;
};

export function createStreamSlots({ perMember, perProcess }: { perMember: number; perProcess: number }): StreamSlots {
  const byMember = new Map<string, number>();
  let total = 0;

  return {
    acquire(staffId) {
      const mine = byMember.get(staffId) ?? 0;
      if (mine >= perMember) return { ok: false, limit: 'member' };
      if (total >= perProcess) return { ok: false, limit: 'process' };
      byMember.set(staffId, mine + 1);
      total += 1;
      let released = false;
      return {
        ok: true,
        // Idempotent: a stream can notice its end several ways (abort, cancel, session check).
        release() {
          if (released) return;
          released = true;
          total -= 1;
          const left = (byMember.get(staffId) ?? 1) - 1;
          // Staff with no stream are forgotten, so the map holds only staff with open streams.
          if (left > 0) byMember.set(staffId, left);
          else byMember.delete(staffId);
        },
      };
    },
    open(staffId) {
      return staffId === undefined ? total : (byMember.get(staffId) ?? 0);
    },
  };
}

/** The process's bounds (a process singleton: Next.js bundles each route separately). */
export function getStreamSlots(): StreamSlots {
  return processSingleton('live-stream-slots', () =>
    createStreamSlots({ perMember: STREAMS_PER_STAFF_MEMBER, perProcess: STREAMS_PER_PROCESS }),
  );
}

/** What a refused browser is told (EventSource does not show it; a person reading the network log does). */
export function refusalMessage(limit: StreamLimit): string {
  return limit === 'member'
    ? `Live updates are already open in ${STREAMS_PER_STAFF_MEMBER} tabs of your account, across your browsers; close one and this tab will resume them.`
    : 'The server has as many live update streams open as it allows; this tab will try again shortly.';
}
