// Signals between the instances that share a database, over PostgreSQL's LISTEN/NOTIFY: the one
// channel all of them already have, so no broker is needed. A writer notifies a channel (in its
// transaction: delivered at commit); every instance listening on it hears it.
//
// On the embedded store PGlite delivers notifications in-process, before the writer's `await`
// returns. On a server each instance keeps one connection of its own for listening, outside its
// pool (the connection budget counts it). node-postgres does not reconnect a listening client:
// when the server restarts or the backend is terminated, this module reconnects with a growing
// delay and listens again. Notifications sent while it was away are lost for good, so each
// subscriber is told when the connection drops and when it is back (`onListening`), and a
// subscriber that must not miss anything reads what it missed from a table (lib/live/bus.ts);
// a cache stops trusting itself while nobody listens.
import 'server-only';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, onCloseDatabases } from '@/lib/platform/database';
import { logger } from '@/lib/platform/log';
import { processSingleton } from '@/lib/platform/process-singleton';

const log = logger.child({ area: 'db-signals' });

export type SignalHandlers = {
  /** A notification on the channel, with its payload ('' when none). */
  onSignal: (payload: string) => void;
  /**
   * The listening connection was lost (false) or is listening again (true). Notifications sent
   * between the two are never delivered: catch up from the database on true.
   */
  onListening?: (listening: boolean) => void;
};

export type SignalSubscription = {
  /** True while notifications on the channel reach this process. */
  listening(): boolean;
  stop(): Promise<void>;
};

/** Reconnect delays: quick at first (a terminated backend), then every 2 s while the server is down. */
export const RECONNECT_DELAYS_MS = [50, 100, 250, 500, 1_000, 2_000] as const;

/** A listening connection that answers nothing within this is taken as lost (a silent network). */
const HEARTBEAT_EVERY_MS = 10_000;

type Subscriber = { channel: string; handlers: SignalHandlers };

type ServerListener = {
  subscribers: Set<Subscriber>;
  client: pg.Client | undefined;
  connected: boolean;
  closed: boolean;
  /** Settles when the first attempt to connect has finished, whatever its outcome. */
  firstAttempt: Promise<void>;
  ensureChannel(channel: string): Promise<void>;
  close(): Promise<void>;
};

function listeners(): WeakMap<pg.Pool, ServerListener> {
  return processSingleton('db-signal-listeners', () => new WeakMap<pg.Pool, ServerListener>());
}

function clientOf(db: Database<Record<string, unknown>>): pg.Pool | PGlite {
  return (db as unknown as { $client: pg.Pool | PGlite }).$client;
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function safeCall(run: () => void): void {
  try {
    run();
  } catch (error) {
    log.error({ err: error }, 'a signal subscriber failed');
  }
}

function startServerListener(pool: pg.Pool): ServerListener {
  const channels = new Set<string>();
  let attempt = 0;
  let heartbeat: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let resolveFirst: () => void = () => {};

  const listener: ServerListener = {
    subscribers: new Set(),
    client: undefined,
    connected: false,
    closed: false,
    firstAttempt: new Promise<void>((resolve) => {
      resolveFirst = resolve;
    }),
    async ensureChannel(channel) {
      if (channels.has(channel)) return;
      channels.add(channel);
      if (listener.connected && listener.client) await listener.client.query(`LISTEN ${quoteIdentifier(channel)}`);
    },
    async close() {
      listener.closed = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const client = listener.client;
      listener.client = undefined;
      listener.connected = false;
      await client?.end().catch(() => undefined);
    },
  };

  const setConnected = (connected: boolean) => {
    if (listener.connected === connected) return;
    listener.connected = connected;
    for (const subscriber of [...listener.subscribers]) safeCall(() => subscriber.handlers.onListening?.(connected));
  };

  const lost = (client: pg.Client, error?: unknown) => {
    if (listener.client !== client) return; // an older connection, already replaced
    listener.client = undefined;
    clearInterval(heartbeat);
    client.removeAllListeners('notification');
    client.end().catch(() => undefined);
    if (listener.closed) return;
    if (listener.connected) log.warn({ err: error }, 'lost the connection that listens for signals from other instances; reconnecting');
    setConnected(false);
    schedule();
  };

  const connect = async () => {
    if (listener.closed) return;
    const client = new pg.Client({ ...pool.options, keepAlive: true, application_name: 'verification-desk-listener' });
    listener.client = client;
    client.on('error', (error) => lost(client, error));
    client.on('end', () => lost(client));
    client.on('notification', (message) => {
      for (const subscriber of [...listener.subscribers]) {
        if (subscriber.channel === message.channel) safeCall(() => subscriber.handlers.onSignal(message.payload ?? ''));
      }
    });
    try {
      await client.connect();
      for (const channel of channels) await client.query(`LISTEN ${quoteIdentifier(channel)}`);
      if (listener.client !== client) return;
      if (attempt > 0) log.info({ attempts: attempt }, 'listening for signals from other instances again');
      attempt = 0;
      heartbeat = setInterval(() => {
        client.query('select 1').catch((error: unknown) => lost(client, error));
      }, HEARTBEAT_EVERY_MS);
      heartbeat.unref();
      setConnected(true);
    } catch (error) {
      lost(client, error);
      if (listener.client === undefined && !listener.connected && attempt === 1) {
        log.warn({ err: error }, 'cannot listen for signals from other instances yet; retrying');
      }
    } finally {
      resolveFirst();
    }
  };

  const schedule = () => {
    if (listener.closed || retry) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    attempt += 1;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, delay);
    retry.unref();
  };

  void connect();
  return listener;
}

function serverListener(pool: pg.Pool): ServerListener {
  const all = listeners();
  let listener = all.get(pool);
  if (!listener || listener.closed) {
    const started = startServerListener(pool);
    all.set(pool, started);
    onCloseDatabases(() => started.close());
    listener = started;
  }
  return listener;
}

/**
 * Calls `handlers.onSignal` for every notification on `channel` from any instance (this one
 * included), until `stop`. Resolves once the first attempt to listen has finished: on a server
 * that is down it resolves not listening, and `onListening(true)` follows when it is back.
 */
export async function listenForSignals(
  db: Database<Record<string, unknown>>,
  channel: string,
  handlers: SignalHandlers,
): Promise<SignalSubscription> {
  const client = clientOf(db);
  if (client instanceof pg.Pool) {
    const listener = serverListener(client);
    const subscriber: Subscriber = { channel, handlers };
    listener.subscribers.add(subscriber);
    await listener.ensureChannel(channel).catch(() => undefined); // a lost connection listens again on reconnect
    await listener.firstAttempt;
    return {
      listening: () => listener.connected && !listener.closed,
      stop: async () => {
        listener.subscribers.delete(subscriber);
      },
    };
  }
  // The embedded store: in-process, never disconnected while open.
  const unlisten = await client.listen(channel, (payload) => handlers.onSignal(payload ?? ''));
  let stopped = false;
  return {
    listening: () => !stopped && !client.closed,
    stop: async () => {
      stopped = true;
      await unlisten();
    },
  };
}

/** Notifies `channel`; inside a transaction (pass it as `db`) it is delivered when that commits. Payloads stay under 8,000 bytes. */
export async function sendSignal(db: Pick<Database<Record<string, unknown>>, 'execute'>, channel: string, payload = ''): Promise<void> {
  await db.execute(sql`select pg_notify(${channel}, ${payload})`);
}
