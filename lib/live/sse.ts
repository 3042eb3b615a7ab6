// One browser's Server-Sent Events stream of status changes: what it missed (from the durable
// log, whichever instance it last talked to), then every change as this process's feed hands it
// out, with a heartbeat comment so proxies and the
// browser do not take a quiet connection for a dead one. Everything it holds — the subscription
// and the timers — is released when the client goes away, whichever way that is noticed.
import 'server-only';
import { logger } from '@/lib/platform/log';
import { getLiveBus, type LiveBus, type LiveEvent } from './bus';
import { RESYNC_EVENT, VERIFICATION_EVENT } from './protocol';

const log = logger.child({ area: 'live' });

export const HEARTBEAT_MS = 15_000;
/** How often a long-lived stream checks that its session still exists (sign-out, disabled account). */
export const SESSION_CHECK_MS = 60_000;
/** Sent as `retry:`: how long the browser waits before reconnecting after a drop. */
export const RECONNECT_DELAY_MS = 2_000;
/**
 * Frames queued for a client that reads nothing (a stalled connection). Past this the stream is
 * closed rather than left to grow; the browser reconnects and catches up from the log.
 */
const MAX_QUEUED_FRAMES = 1_000;

export const EVENT_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  // no-transform: compression middleware (and proxies honouring it) would buffer the stream.
  'Cache-Control': 'no-store, no-transform',
  // nginx buffers responses unless told not to.
  'X-Accel-Buffering': 'no',
} as const;

export type EventStreamOptions = {
  /** Aborted when the client disconnects (Next.js aborts request.signal then). */
  signal: AbortSignal;
  /** The last event id the client saw (Last-Event-ID); undefined for a first connection. */
  lastEventId?: number;
  /** Resolves false once the stream's session is no longer valid; the stream then ends. */
  sessionStillValid?: () => Promise<boolean>;
  heartbeatMs?: number;
  sessionCheckMs?: number;
  /** Called once when the stream ends, whichever way (e.g. to free its slot: stream-slots.ts). */
  onClose?: () => void;
  /** The feed to follow: the process's (the default), or a test's second instance. */
  bus?: LiveBus;
};

/** The last event id a client reports: the Last-Event-ID header, else `?lastEventId=` (first connect). */
export function readLastEventId(request: Request): number | undefined {
  const raw = request.headers.get('last-event-id') ?? new URL(request.url).searchParams.get('lastEventId');
  if (raw === null || !/^\d{1,15}$/.test(raw.trim())) return undefined;
  return Number(raw.trim());
}

export function verificationFrame(event: LiveEvent): string {
  // JSON.stringify keeps the data on one line (a newline in an id would otherwise split the frame).
  return `id: ${event.id}\nevent: ${VERIFICATION_EVENT}\ndata: ${JSON.stringify({ verificationId: event.verificationId, status: event.status })}\n\n`;
}

export function createEventStream(options: EventStreamOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let release: () => void = () => {};

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      let unsubscribe: () => void = () => {};
      let heartbeat: ReturnType<typeof setInterval> | undefined;
      let sessionCheck: ReturnType<typeof setInterval> | undefined;

      const close = () => {
        if (closed) return;
        closed = true;
        unsubscribe();
        clearInterval(heartbeat);
        clearInterval(sessionCheck);
        options.signal.removeEventListener('abort', close);
        try {
          controller.close();
        } catch {
          // Already closed or errored by the runtime: nothing left to release.
        }
        options.onClose?.();
      };
      release = close;

      const send = (text: string) => {
        if (closed) return;
        if ((controller.desiredSize ?? 0) < -MAX_QUEUED_FRAMES) {
          close();
          return;
        }
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close();
        }
      };

      if (options.signal.aborted) {
        close();
        return;
      }
      options.signal.addEventListener('abort', close, { once: true });

      // Every event goes out once, in id order: the replay and the live feed overlap (an event
      // committed while the replay is read reaches both), so anything at or below the last id
      // sent is dropped, and live events wait until the replay has gone out.
      let lastSent = options.lastEventId ?? 0;
      let waiting: LiveEvent[] | null = [];
      const deliver = (event: LiveEvent) => {
        if (event.id <= lastSent) return;
        lastSent = event.id;
        send(verificationFrame(event));
      };

      try {
        const stop = await (options.bus ?? getLiveBus()).subscribe((event) => {
          if (waiting) waiting.push(event);
          else deliver(event);
        });
        if (closed) {
          stop();
          return;
        }
        unsubscribe = stop;
        startTimers();
        send(`retry: ${RECONNECT_DELAY_MS}\n: connected\n\n`);
        if (options.lastEventId !== undefined) {
          const replay = await (options.bus ?? getLiveBus()).eventsSince(options.lastEventId);
          if (replay.missed) {
            // The id moves the browser's Last-Event-ID forward, so the next reconnect does not
            // ask for the same unrecoverable gap again.
            send(`id: ${replay.newestId}\nevent: ${RESYNC_EVENT}\ndata: {}\n\n`);
            lastSent = replay.newestId;
          }
          for (const event of replay.events) deliver(event);
        }
      } catch (error) {
        // The database is unreachable: end the stream; the browser reconnects after its delay.
        log.warn({ err: error }, 'a live stream could not start');
        close();
        return;
      }
      const held = waiting;
      waiting = null;
      for (const event of held) deliver(event);

      function startTimers() {
        heartbeat = setInterval(() => send(': heartbeat\n\n'), options.heartbeatMs ?? HEARTBEAT_MS);
        const check = options.sessionStillValid;
        if (check) {
          sessionCheck = setInterval(() => {
            check().then(
              (valid) => {
                if (!valid) close();
              },
              // Cannot tell (database busy): keep the stream; the next check decides.
              () => undefined,
            );
          }, options.sessionCheckMs ?? SESSION_CHECK_MS);
        }
      }
    },
    cancel() {
      // The consumer went away (the runtime cancels the body when the socket closes).
      release();
    },
  });
}
