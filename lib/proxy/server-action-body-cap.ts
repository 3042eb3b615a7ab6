// The server-action body limit, enforced where the bytes arrive: on Node's HTTP server, below
// Next.js. The proxy's gate (./server-action-gate.ts) reads at most the limit, but it cannot stop
// the reading: Next clones the request body for the proxy and, before it sends the proxy's
// answer, waits until the whole body has been received (body-streams.ts `finalize()`). A 12 MB
// chunked POST with a Next-Action header was therefore received whole before its 413.
//
// This cap watches each server-action request through Node's diagnostics channel
// 'http.server.request.start' (published by every http.Server of the process, so it holds however
// the server was started). Once more than the limit has arrived, or at once when Content-Length
// already says so, it stops reading from the connection and ends the body there. Next then sees
// the end of the body, the gate sees more than the limit and answers 413 ("Connection: close"),
// and once that answer is sent the connection is closed (the rest of the body is never read).
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { processSingleton } from '@/lib/platform/process-singleton';
import { looksLikeServerAction, SERVER_ACTION_BODY_LIMIT_BYTES } from './server-action-gate';

/**
 * After the 413 is sent, how long the connection stays half-open before it is dropped: closing
 * a socket with unread data makes the kernel send a reset, which can make a client lose the
 * answer it has not read yet. A client that reads while it sends (curl, browsers) has it by then.
 */
export const CLOSE_AFTER_ANSWER_MS = 2_000;

type RequestStart = { request: IncomingMessage; response: ServerResponse; socket: Socket };

/** Installs the cap once per process (instrumentation calls it at start-up). */
export function installServerActionBodyCap(limit: number = SERVER_ACTION_BODY_LIMIT_BYTES): void {
  processSingleton('server-action-body-cap', () => {
    subscribe('http.server.request.start', (message) => {
      const { request, response, socket } = message as RequestStart;
      const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
      if (looksLikeServerAction(request.method, pathname, (name) => headerValue(request, name))) {
        capRequestBody(request, response, socket, limit);
      }
    });
    return true;
  });
}

/** Ends `request`'s body once more than `limit` bytes have arrived, and stops reading the connection. */
export function capRequestBody(request: IncomingMessage, response: ServerResponse, socket: Socket, limit: number): void {
  let received = 0;
  let cut = false;
  // Node's HTTP parser hands every piece of the body to request.push(); wrapping it on this one
  // request is the only way to count the bytes without consuming them ahead of Next.
  const push = request.push.bind(request);

  const stopReading = () => {
    cut = true;
    socket.pause();
    // The body ends here. Marked complete, or Node would take the early end for an aborted request
    // and destroy the connection before the answer could be sent.
    request.complete = true;
    // The answer says "Connection: close", so that no client sends its next request on a
    // connection whose unread body is still in the way.
    response.shouldKeepAlive = false;
    // Node then closes the socket as soon as the answer is written (destroySoon), which with the
    // body's unread bytes still queued sends a reset that can make the client lose the answer.
    // Instead: a half-close, so the client sees the answer's end, and the drop a little later.
    socket.destroySoon = () => {
      socket.end();
      setTimeout(() => socket.destroy(), CLOSE_AFTER_ANSWER_MS).unref();
    };
    push(null);
  };

  request.push = (chunk: unknown, encoding?: BufferEncoding): boolean => {
    if (cut) return false; // past the end: dropped, and Node stops reading
    if (chunk === null) return push(null);
    received += (chunk as Uint8Array).byteLength;
    if (received <= limit) return push(chunk, encoding);
    // This last piece goes through, so that what follows sees more than the limit and answers 413.
    push(chunk, encoding);
    stopReading();
    return false;
  };

  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) stopReading();
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
