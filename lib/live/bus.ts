// Live status changes across every instance that shares the database. The webhook receiver
// publishes into the durable log (event-log.ts), in the transaction that stored the change; each
// process keeps one feed that hears the log's notifications, reads the new rows once per batch,
// in id order, and hands them to its own open SSE streams (app/api/events).
//
// The feed never trusts notifications alone: they are lost while its listening connection is
// down (a restart of the server, a terminated backend), so on every notification and on every
// reconnect it reads `id > last delivered`. Nothing committed is skipped, and nothing is handed
// out twice, whichever instance published it.
//
// The feed is a process singleton, not module state: Next.js bundles each route separately, so
// the events route would otherwise hold several copies, each listening and reading on its own.
import 'server-only';
import { getDb } from '@/lib/db';
import { type Database, onCloseDatabases } from '@/lib/platform/database';
import { listenForSignals, type SignalSubscription } from '@/lib/platform/database-signals';
import { logger } from '@/lib/platform/log';
import { processSingleton } from '@/lib/platform/process-singleton';
import {
  appendLiveEvent,
  LIVE_EVENTS_CHANNEL,
  type LiveEvent,
  logBounds,
  type Replay,
  readEventsAfter,
  replayAfter,
  type SqlRunner,
} from './event-log';
import type { VerificationChange } from './protocol';

const log = logger.child({ area: 'live' });

export type { LiveEvent, Replay } from './event-log';
export type LiveListener = (event: LiveEvent) => void;

/** Rows read per query while catching up; a longer backlog is read in several. */
const READ_BATCH = 500;
/** A catch-up read that failed (the database is busy or away) is tried again after this. */
const READ_RETRY_MS = 1_000;

type AnyDatabase = Database<Record<string, unknown>>;

export type LiveBus = {
  /**
   * Calls `listener` with every event delivered from now on, in id order, until the returned
   * function is called. Resolves once the feed listens and knows where the log stands; rejects
   * when the database cannot be reached.
   */
  subscribe(listener: LiveListener): Promise<() => void>;
  /** What a browser that last saw `lastEventId` has missed (see replayAfter). */
  eventsSince(lastEventId: number): Promise<Replay>;
  /** The newest event id in the log (0 before the first). */
  lastEventId(): Promise<number>;
  /** The newest id handed to this process's listeners. */
  deliveredUpTo(): number;
  listenerCount(): number;
  /** Stops listening; listeners stay, and the next subscribe starts the feed again. */
  stop(): Promise<void>;
};

/** One start of the feed on one database; replaced after a stop. */
type Run = {
  ready: Promise<void>;
  db: AnyDatabase | undefined;
  subscription: SignalSubscription | undefined;
  delivered: number;
  positioned: boolean;
  reading: boolean;
  readAgain: boolean;
  retry: NodeJS.Timeout | undefined;
  stopped: boolean;
};

/** A feed of the log on the database `openDb` gives (the app's, or a test's second instance). */
export function createLiveBus(openDb: () => Promise<AnyDatabase>): LiveBus {
  const listeners = new Set<LiveListener>();
  let current: Run | undefined;
  let lastDelivered = 0;

  const fanOut = (event: LiveEvent) => {
    // A copy: a stream that closes while we iterate must not make us skip the next one.
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        // One broken stream must not keep the others from hearing about the change.
        log.error({ err: error }, 'a live listener failed');
      }
    }
  };

  const catchUp = (run: Run) => {
    if (run.stopped || !run.positioned || !run.db) return;
    // One read at a time; notifications that arrive meanwhile are served by one more read.
    if (run.reading) {
      run.readAgain = true;
      return;
    }
    run.reading = true;
    const db = run.db;
    void (async () => {
      try {
        do {
          run.readAgain = false;
          for (;;) {
            const events = await readEventsAfter(db, run.delivered, READ_BATCH);
            if (run.stopped) return;
            for (const event of events) {
              if (event.id <= run.delivered) continue;
              run.delivered = event.id;
              lastDelivered = event.id;
              fanOut(event);
            }
            if (events.length < READ_BATCH) break;
          }
        } while (run.readAgain);
      } catch (error) {
        if (run.stopped) return;
        log.warn({ err: error }, 'could not read new live events; trying again');
        clearTimeout(run.retry);
        run.retry = setTimeout(() => catchUp(run), READ_RETRY_MS);
        run.retry.unref();
      } finally {
        run.reading = false;
      }
    })();
  };

  const start = (): Run => {
    const run: Run = {
      ready: Promise.resolve(),
      db: undefined,
      subscription: undefined,
      delivered: 0,
      positioned: false,
      reading: false,
      readAgain: false,
      retry: undefined,
      stopped: false,
    };
    run.ready = (async () => {
      const db = await openDb();
      run.db = db;
      // Listen first, then note where the log stands: an event committed in between is both
      // signalled and above the position, so it cannot fall through.
      run.subscription = await listenForSignals(db, LIVE_EVENTS_CHANNEL, {
        onSignal: () => catchUp(run),
        // Back after a gap: whatever was notified meanwhile is in the log.
        onListening: (listening) => {
          if (listening) catchUp(run);
        },
      });
      const { newest } = await logBounds(db);
      run.delivered = newest ?? 0;
      lastDelivered = run.delivered;
      run.positioned = true;
      // Notifications that came before the position was known were not acted on.
      catchUp(run);
    })();
    run.ready.catch(async () => {
      // The next subscriber tries again (the database may be back by then).
      if (current === run) current = undefined;
      run.stopped = true;
      await run.subscription?.stop().catch(() => undefined);
    });
    return run;
  };

  return {
    async subscribe(listener) {
      current ??= start();
      await current.ready;
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    async eventsSince(lastEventId) {
      return replayAfter(await openDb(), lastEventId);
    },

    async lastEventId() {
      return (await logBounds(await openDb())).newest ?? 0;
    },

    deliveredUpTo() {
      return lastDelivered;
    },

    listenerCount() {
      return listeners.size;
    },

    async stop() {
      const run = current;
      current = undefined;
      if (!run) return;
      run.stopped = true;
      clearTimeout(run.retry);
      await run.subscription?.stop().catch(() => undefined);
    },
  };
}

/** The process's one feed, on the dashboard's database (see the note at the top). */
export function getLiveBus(): LiveBus {
  return processSingleton('live-feed', () => {
    const bus = createLiveBus(getDb);
    // A closed database ends the feed; whoever opens the next one starts it again there.
    onCloseDatabases(() => bus.stop());
    return bus;
  });
}

/**
 * Records that `verificationId` changed and tells every instance's open streams. Pass the
 * transaction that stores the change, so the event exists exactly when the change does (and the
 * change is acknowledged only once its event is durable); without one it commits on its own.
 */
export async function publishVerificationChange(change: VerificationChange, tx?: SqlRunner): Promise<LiveEvent> {
  if (tx) return appendLiveEvent(tx, change);
  const db = await getDb();
  return db.transaction((own) => appendLiveEvent(own, change));
}

/** Calls `listener` for every change from now on; resolves to the function that stops it. */
export function subscribe(listener: LiveListener): Promise<() => void> {
  return getLiveBus().subscribe(listener);
}

/** What a client that last saw `lastEventId` has missed (see Replay). */
export function eventsSince(lastEventId: number): Promise<Replay> {
  return getLiveBus().eventsSince(lastEventId);
}

/** The newest event id: the layout hands it to the browser so its first connection misses nothing. */
export function currentEventId(): Promise<number> {
  return getLiveBus().lastEventId();
}
