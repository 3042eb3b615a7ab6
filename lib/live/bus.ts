// In-process publish/subscribe of verification status changes: the webhook receiver publishes,
// every open SSE stream (app/api/events) subscribes. Recent events are kept in a small ring
// buffer so a browser that reconnects (sending Last-Event-ID) gets what it missed.
//
// The bus is a process singleton, not module state: Next.js bundles each route separately, so
// the webhook route and the events route would otherwise each get their own copy of this module
// and never hear each other.
//
// One in-process bus is enough: the embedded database is locked to the one server process, so
// every webhook delivery and every open stream goes through this process.
import { processSingleton } from '@/lib/platform/process-singleton';
import 'server-only';
import { logger } from '@/lib/platform/log';
import type { VerificationChange } from './protocol';

const log = logger.child({ area: 'live' });

export type LiveEvent = VerificationChange & { id: number };
export type LiveListener = (event: LiveEvent) => void;

/** Enough for a browser that was away a few minutes; older gaps are answered with a resync. */
export const REPLAY_CAPACITY = 500;

export type Replay = {
  /** Events after the given id, oldest first. */
  events: LiveEvent[];
  /** True when some events after that id are no longer known (a resync is needed). */
  missed: boolean;
};

export type LiveBus = {
  publish(change: VerificationChange): LiveEvent;
  subscribe(listener: LiveListener): () => void;
  eventsSince(lastEventId: number): Replay;
  /** The id of the newest event, or the one just before the first this bus will assign. */
  lastEventId(): number;
  listenerCount(): number;
};

export function createLiveBus({ capacity = REPLAY_CAPACITY, firstId = Date.now() } = {}): LiveBus {
  // Ids start at the clock (in ms) rather than at 1, so they keep increasing across a restart:
  // a browser that reconnects with an id from the previous process then looks "too old" and is
  // told to resync, instead of being mistaken for one that has seen this process's first events.
  let nextId = Math.max(1, Math.floor(firstId));
  const buffer: LiveEvent[] = [];
  const listeners = new Set<LiveListener>();

  return {
    publish(change) {
      const event: LiveEvent = { id: nextId, verificationId: change.verificationId, status: change.status };
      nextId += 1;
      buffer.push(event);
      if (buffer.length > capacity) buffer.splice(0, buffer.length - capacity);
      // A copy: a listener that unsubscribes (a stream closing) while we iterate must not make
      // us skip the next one.
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (error) {
          // One broken stream must not keep the others from hearing about the change.
          log.error({ err: error }, 'a live listener failed');
        }
      }
      return event;
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    eventsSince(lastEventId) {
      const oldestKnown = buffer[0]?.id ?? nextId;
      if (!Number.isSafeInteger(lastEventId) || lastEventId >= nextId) {
        // Not an id this process gave out (from before a restart with a clock set back, or made
        // up): nothing can be replayed against it with certainty.
        return { events: [], missed: true };
      }
      return {
        events: buffer.filter((event) => event.id > lastEventId),
        missed: lastEventId < oldestKnown - 1,
      };
    },

    lastEventId() {
      return nextId - 1;
    },

    listenerCount() {
      return listeners.size;
    },
  };
}

/** The process's one bus (see the note at the top on why it is a process singleton). */
export function getLiveBus(): LiveBus {
  return processSingleton('live-bus', createLiveBus);
}

/** Tells every open stream that `verificationId` changed; returns the event with its id. */
export function publishVerificationChange(change: VerificationChange): LiveEvent {
  return getLiveBus().publish(change);
}

/** Calls `listener` for every change from now on; returns the function that stops it. */
export function subscribe(listener: LiveListener): () => void {
  return getLiveBus().subscribe(listener);
}

/** What a client that last saw `lastEventId` has missed (see Replay). */
export function eventsSince(lastEventId: number): Replay {
  return getLiveBus().eventsSince(lastEventId);
}

/** The newest event id: the layout hands it to the browser so its first connection misses nothing. */
export function currentEventId(): number {
  return getLiveBus().lastEventId();
}
