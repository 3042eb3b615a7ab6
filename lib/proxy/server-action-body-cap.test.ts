// The server-action body cap on a real Node HTTP server and real sockets. The handler stands in
// for Next.js: it starts reading the body a little later, reads all of it, and answers 413 when
// it got more than the limit (as the proxy's gate does). What must hold: an oversized body is
// answered after about the limit was sent, not after all of it, the connection is then closed,
// and bodies within the limit (or not for a server action) arrive whole.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slowUpload } from '@/test/support/slow-upload';
import { installServerActionBodyCap } from './server-action-body-cap';
import { SERVER_ACTION_BODY_LIMIT_BYTES } from './server-action-gate';

const MB = 1024 * 1024;
const LIMIT = SERVER_ACTION_BODY_LIMIT_BYTES;
const ACTION_ID = '7f'.repeat(21);

let server: http.Server;
let port = 0;
/** Body bytes the handler received, per request path. */
const received = new Map<string, number>();

beforeAll(async () => {
  installServerActionBodyCap();
  server = http.createServer(async (request, response) => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    let bytes = 0;
    for await (const chunk of request) bytes += (chunk as Buffer).byteLength;
    received.set(request.url ?? '', bytes);
    // Like the gate: only server actions are held to the limit; route handlers set their own.
    const isAction = !request.url?.startsWith('/api/');
    const tooLarge = isAction && (bytes > LIMIT || Number(request.headers['content-length'] ?? 0) > LIMIT);
    response.writeHead(tooLarge ? 413 : 200, { 'content-type': 'text/plain' });
    response.end(tooLarge ? 'too large' : `received ${bytes}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const actionHeaders = { 'Next-Action': ACTION_ID, 'Content-Type': 'text/plain;charset=UTF-8' };

describe('installServerActionBodyCap', () => {
  it('answers a 12 MB chunked server-action body after about 1 MB, reads no further, and closes the connection', async () => {
    const result = await slowUpload({
      host: '127.0.0.1',
      port,
      path: '/chunked',
      headers: actionHeaders,
      framing: 'chunked',
      total: 12 * MB,
    });
    expect(result.status).toBe(413);
    // The server stopped reading past the limit: the client could only fill the kernel's buffers.
    expect(result.sentWhenAnswered).toBeGreaterThan(LIMIT);
    expect(result.sentWhenAnswered).toBeLessThan(6 * MB);
    expect(result.sent).toBeLessThan(6 * MB);
    expect(result.closed).toBe(true);
    // What reached the handler: the limit and at most one more piece, never the rest.
    expect(received.get('/chunked')).toBeGreaterThan(LIMIT);
    expect(received.get('/chunked')).toBeLessThanOrEqual(LIMIT + 64 * 1024);
  });

  it('answers a declared Content-Length over 1 MB before the body is read', async () => {
    const result = await slowUpload({
      host: '127.0.0.1',
      port,
      path: '/declared',
      headers: actionHeaders,
      framing: 'content-length',
      total: 12 * MB,
    });
    expect(result.status).toBe(413);
    expect(result.sentWhenAnswered).toBeLessThan(6 * MB);
    expect(result.closed).toBe(true);
    expect(received.get('/declared')).toBe(0);
  });

  it('caps a no-JavaScript form post (multipart to a page) too', async () => {
    const result = await slowUpload({
      host: '127.0.0.1',
      port,
      path: '/verifications/new',
      headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
      framing: 'chunked',
      total: 12 * MB,
    });
    expect(result.status).toBe(413);
    expect(result.sent).toBeLessThan(6 * MB);
    expect(received.get('/verifications/new')).toBeLessThanOrEqual(LIMIT + 64 * 1024);
  });

  it('lets a server-action body of exactly the limit through whole, and keeps the connection', async () => {
    const result = await slowUpload({
      host: '127.0.0.1',
      port,
      path: '/at-limit',
      headers: actionHeaders,
      framing: 'chunked',
      total: LIMIT,
      pauseMs: 0,
      closeWaitMs: 200,
    });
    expect(result.status).toBe(200);
    expect(result.answer).toContain(`received ${LIMIT}`);
    expect(result.closed).toBe(false);
  });

  it('leaves other requests alone: a route handler gets its 3 MB body whole', async () => {
    const result = await slowUpload({
      host: '127.0.0.1',
      port,
      path: '/api/webhooks/verification-service',
      headers: { 'Content-Type': 'application/json' },
      framing: 'chunked',
      total: 3 * MB,
      pauseMs: 0,
      closeWaitMs: 200,
    });
    expect(result.status).toBe(200);
    expect(received.get('/api/webhooks/verification-service')).toBe(3 * MB);
  });

  it('a keep-alive client that sends whole bodies before reading gets each 413, and a fresh connection for the next request', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const post = (size: number) =>
      new Promise<string>((resolve) => {
        const request = http.request(
          {
            host: '127.0.0.1',
            port,
            path: `/agent-${size}`,
            method: 'POST',
            agent,
            headers: { ...actionHeaders, 'Content-Length': String(size) },
          },
          (response) => {
            let text = '';
            response.on('data', (data) => {
              text += data;
            });
            response.on('end', () => resolve(`${response.statusCode} ${response.headers.connection} ${text}`));
          },
        );
        request.on('error', (error) => resolve(`error ${(error as NodeJS.ErrnoException).code}`));
        request.end(Buffer.alloc(size, 'a'));
      });
    try {
      for (const size of [2 * MB, 4 * MB, 2 * MB, 12 * MB]) expect(await post(size)).toBe('413 close too large');
    } finally {
      agent.destroy();
    }
  });

  it('the server keeps serving afterwards', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(`http://127.0.0.1:${port}/health`, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        })
        .on('error', reject);
    });
    expect(status).toBe(200);
  });
});
