// Test support only: a real HTTP server on 127.0.0.1 that stands in for the verification service
// and is programmed per test (a status, a body, a reset, a hang). The client is exercised through
// real sockets and Node's real HTTP client, because timeouts, resets and half-sent bodies are
// exactly what a mocked transport cannot show.
import 'server-only';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Behaviour = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface FakeUpstream {
  /** http://127.0.0.1:<port>, no trailing slash. */
  baseUrl: string;
  /** Every request received, in order, recorded as soon as its body has arrived. */
  requests: RecordedRequest[];
  /** TCP connections accepted so far (kept-alive requests share one). */
  readonly connections: number;
  /** Answers the following requests with these behaviours in order; the last one repeats. */
  program(...behaviours: Behaviour[]): void;
  close(): Promise<void>;
}

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const requests: RecordedRequest[] = [];
  let queue: Behaviour[] = [text(500, 'fake upstream: not programmed')];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const behaviour = queue.length > 1 ? queue.shift()! : queue[0]!;
      behaviour(req, res);
    });
  });
  let connections = 0;
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    get connections() {
      return connections;
    },
    program(...behaviours) {
      if (behaviours.length === 0) throw new Error('program() needs at least one behaviour');
      queue = [...behaviours];
    },
    async close() {
      // Hanging answers would otherwise keep close() waiting forever.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Behaviour {
  return (_req, res) => {
    const payload = JSON.stringify(body);
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), ...headers });
    res.end(payload);
  };
}

export function text(
  status: number,
  body: string | Buffer,
  contentType = 'text/plain; charset=utf-8',
  headers: Record<string, string> = {},
): Behaviour {
  return (_req, res) => {
    res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), ...headers });
    res.end(body);
  };
}

/** Sends the body in chunks without a Content-Length, as a streaming server would. */
export function chunked(status: number, parts: Array<string | Buffer>): Behaviour {
  return (_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    for (const part of parts) res.write(part);
    res.end();
  };
}

/** Behaves like `behaviour`, but only after `ms`: a slow answer (or a slow failure). */
export function after(ms: number, behaviour: Behaviour): Behaviour {
  return (req, res) => {
    const timer = setTimeout(() => behaviour(req, res), ms);
    // A client that gave up closes the connection; nothing is left to answer.
    res.on('close', () => clearTimeout(timer));
  };
}

/** Accepts the request and never answers. */
export const hang: Behaviour = () => {};

/** Sends the status line, headers and the start of a body, then stalls. */
export function headersThenHang(status = 200): Behaviour {
  return (_req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': '500' });
    res.write('{"message":"Verification request ');
  };
}

/** Declares 500 bytes, sends a few, then drops the connection: an answer cut off mid-body. */
export const cutOffMidBody: Behaviour = (_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '500' });
  res.write('{"verification_id":"abc",', () => res.socket?.destroy());
};

/** Drops the connection without an answer (the client sees a reset / "other side closed"). */
export const reset: Behaviour = (req) => {
  req.socket.destroy();
};

/** A URL on which nothing listens: a port that was free a moment ago. */
export async function closedPortUrl(): Promise<string> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
