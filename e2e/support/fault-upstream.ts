// A stand-in for the identity-verification service whose behaviour can be switched while a
// dashboard is pointed at it, so one `next start` can be walked through every upstream fault.
// It is a real listener (not `page.route`): the dashboard calls the service from its server,
// which the browser never sees, and only a real socket can be reset or left hanging.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pendingRecord } from './service-record';

export type FaultMode =
  | 'ok'
  | '500-json'
  | '502-html'
  | '503-html'
  | '200-not-json'
  | '200-empty'
  | '200-wrong-shape'
  | '429'
  | 'reset'
  | 'hang'
  /** The contract's 404 for an unknown id: not a fault, but what a slow service may answer too. */
  | 'not-found';

/**
 * Text the faulty answers carry. Tests assert none of it ever reaches a page: staff must get
 * the dashboard's own words, never the upstream's body.
 */
export const UPSTREAM_TEXT = {
  jsonError: 'internal kaboom: db pool exhausted at worker-7',
  htmlMarker: 'upstream-gateway-banner',
  notJson: 'definitely not json <<< upstream-garbage',
  wrongShapeField: 'totally_unexpected_field',
} as const;

export interface FaultUpstream {
  /** http://127.0.0.1:<port>, no trailing slash. */
  baseUrl: string;
  setMode(mode: FaultMode): void;
  /** Holds every answer (of any mode) back this long: a slow service rather than a broken one. */
  setDelay(ms: number): void;
  /** Requests received per HTTP method since the last reset(). */
  count(method: 'GET' | 'POST'): number;
  resetCounts(): void;
  /**
   * Closes the listener (and every open connection), so connecting to its port is refused, as
   * when the service is down or VERIFICATION_API_URL points at nothing. The port stays reserved
   * for `acceptConnections`, which listens on it again.
   */
  refuseConnections(): Promise<void>;
  acceptConnections(): Promise<void>;
  close(): Promise<void>;
}

const html = (status: number) =>
  `<!DOCTYPE html><html><head><title>${status}</title></head><body><h1 class="${UPSTREAM_TEXT.htmlMarker}">${status} Bad Gateway</h1><p>nginx</p></body></html>`;

export async function startFaultUpstream(): Promise<FaultUpstream> {
  let mode: FaultMode = 'ok';
  let delayMs = 0;
  const counts = new Map<string, number>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      // Counted before answering, so a request the dashboard gives up on is still seen.
      const method = req.method ?? '';
      counts.set(method, (counts.get(method) ?? 0) + 1);
      const path = req.url ?? '';
      if (delayMs > 0) {
        const timer = setTimeout(answer, delayMs);
        // A dashboard that gave up closed the connection: nothing is left to answer.
        res.on('close', () => clearTimeout(timer));
      } else answer();

      function answer() {
        const send = (status: number, body: string, headers: Record<string, string> = {}) => {
          res.writeHead(status, { 'Content-Length': Buffer.byteLength(body), ...headers });
          res.end(body);
        };
        const json = (status: number, payload: unknown, headers: Record<string, string> = {}) =>
          send(status, JSON.stringify(payload), { 'Content-Type': 'application/json', ...headers });

        switch (mode) {
          case '500-json':
            return json(500, { error: UPSTREAM_TEXT.jsonError });
          case '502-html':
            return send(502, html(502), { 'Content-Type': 'text/html' });
          case '503-html':
            return send(503, html(503), { 'Content-Type': 'text/html' });
          case '429':
            return json(429, { error: UPSTREAM_TEXT.jsonError }, { 'Retry-After': '30' });
          case '200-not-json':
            return send(200, UPSTREAM_TEXT.notJson, { 'Content-Type': 'application/json' });
          case '200-empty':
            return send(200, '', { 'Content-Type': 'application/json' });
          case '200-wrong-shape':
            return json(200, { [UPSTREAM_TEXT.wrongShapeField]: UPSTREAM_TEXT.jsonError });
          case 'reset':
            // No HTTP answer at all: the connection just dies, as when a proxy or the service crashes.
            return req.socket.destroy();
          case 'hang':
            // Never answers; the dashboard's own timeout must end the wait. close() frees the socket.
            return;
          case 'not-found':
            return json(404, { error: 'Verification not found' });
          case 'ok':
            break;
        }

        if (method === 'POST' && path === '/v1/verifications/new') {
          return json(200, { message: 'Verification request created successfully.', verificationId: randomUUID() });
        }
        const read = /^\/v1\/verifications\/([^/?]+)$/.exec(path);
        if (method === 'GET' && read) {
          return json(200, pendingRecord('Someone'));
        }
        return json(404, { error: 'Not found' });
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    setMode(next) {
      mode = next;
    },
    setDelay(ms) {
      delayMs = ms;
    },
    count: (method) => counts.get(method) ?? 0,
    resetCounts: () => counts.clear(),
    async refuseConnections() {
      // Pooled keep-alive sockets would otherwise still reach the old listener's handler.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async acceptConnections() {
      if (server.listening) return;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
    },
    async close() {
      if (!server.listening) return;
      // Hanging requests would otherwise keep close() waiting forever.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
