// A client of the dashboard's live stream (GET /api/events) outside a browser: the frames as
// they arrive, each stamped with the moment it was read, so a test can wait for one, measure
// how long it took, and see when the server ends the stream.
import type { IncomingHttpHeaders } from 'node:http';

export type StreamFrame = { id?: number; event?: string; data?: string; receivedAt: number };

export type EventStream = {
  status: number;
  headers: IncomingHttpHeaders | Record<string, string>;
  frames: StreamFrame[];
  /**
   * The first frame from index `from` on that satisfies `test`, as soon as it arrives; rejects once
   * the stream ended without one, or after `timeoutMs` (default 30 s).
   */
  waitFor(test: (frame: StreamFrame) => boolean, from?: number, timeoutMs?: number): Promise<StreamFrame>;
  /** Resolves when the server ends the stream (or it fails). */
  ended: Promise<void>;
  close(): void;
};

/** Opens `${baseUrl}/api/events` with the session `cookie`, plus any `headers` (e.g. a pin to one instance, Last-Event-ID). */
export async function openEventStream(baseUrl: string, cookie: string, headers: Record<string, string> = {}): Promise<EventStream> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/api/events`, {
    headers: { cookie, accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const frames: StreamFrame[] = [];
  const waiters = new Set<() => void>();
  let done = false;
  const wake = () => {
    for (const waiter of waiters) waiter();
  };

  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        const receivedAt = performance.now();
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const frame: StreamFrame = { receivedAt };
          for (const line of block.split('\n')) {
            const colon = line.indexOf(':');
            if (colon <= 0) continue; // a comment (heartbeat) or nothing
            const [field, value] = [line.slice(0, colon), line.slice(colon + 1).replace(/^ /, '')];
            if (field === 'id') frame.id = Number(value);
            else if (field === 'event') frame.event = value;
            else if (field === 'data') frame.data = value;
          }
          if (frame.event !== undefined || frame.data !== undefined) frames.push(frame);
        }
        wake();
      }
    } catch {
      // Aborted by close(), or the connection dropped: either way the stream has ended.
    } finally {
      done = true;
      wake();
    }
  })();

  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    frames,
    waitFor(test, from = 0, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such frame within ${timeoutMs} ms (last frames: ${JSON.stringify(frames.slice(-5))})`));
        }, timeoutMs);
        const check = () => {
          const found = frames.slice(from).find(test);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          } else if (done) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`the stream ended without the frame awaited (frames: ${JSON.stringify(frames.slice(-5))})`));
          }
        };
        waiters.add(check);
        check();
      });
    },
    ended,
    close: () => abort.abort(),
  };
}

/** The verification id and status a `verification` frame carries. */
export function frameData(frame: StreamFrame): { verificationId?: string; status?: string } {
  try {
    return JSON.parse(frame.data ?? '{}');
  } catch {
    return {};
  }
}
