// A small load balancer for the two-instance tests (e2e/two-instances.spec.ts, the two-instance
// load run): one public address in front of several instances of the app, taking them in turn,
// as a production load balancer would. Bodies are piped both ways, never buffered, so an event
// stream reaches the client chunk by chunk.
//
// A test that must show which instance did something pins a request with the `x-vd-instance`
// header (an instance's name, e.g. `a`), or pins every request under a path with `pin(path, name)`
// (for callers it cannot give a header, e.g. the service's webhook sender); every answer names the
// instance that served it in the same header, and `history()` lists who served what. An instance that refuses connections (stopped, killed) is skipped for unpinned
// requests, as a balancer's passive health check would; a pinned request to it gets a 502.
import http from 'node:http';
import type net from 'node:net';

export const INSTANCE_HEADER = 'x-vd-instance';

export type Instances = Record<string, { port: number }>;

export type Exchange = { method: string; path: string; instance: string; status: number };

export type RoundRobinProxy = {
  url: string;
  port: number;
  /** Every request answered so far, in order: which instance answered it, and how. */
  history(): Exchange[];
  /** Sends every request whose path starts with `pathPrefix` to `instance`; null lifts the pin. */
  pin(pathPrefix: string, instance: string | null): void;
  stop(): Promise<void>;
};

// Connection-level headers describe one hop, not the request: never forwarded.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function forwardable(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && name !== INSTANCE_HEADER) out[name] = value;
  }
  return out;
}

export async function startRoundRobinProxy({ port, instances }: { port: number; instances: Instances }): Promise<RoundRobinProxy> {
  const names = Object.keys(instances);
  const history: Exchange[] = [];
  const pins = new Map<string, string>();
  // Idle connections end after 4 s, before the instances' 5 s keep-alive does, so a request (a
  // POST included, which cannot be resent) is never written to a connection being closed.
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, timeout: 4_000 });
  const sockets = new Set<net.Socket>();
  let turn = 0;

  /** The order to try instances in: the pinned one alone, or all of them starting at the next turn. */
  const candidates = (pinned: string | undefined): string[] => {
    if (pinned !== undefined) return [pinned];
    const start = turn++ % names.length;
    return [...names.slice(start), ...names.slice(0, start)];
  };

  const server = http.createServer((request, response) => {
    const pinnedHeader = request.headers[INSTANCE_HEADER];
    const pinnedByPath = [...pins].find(([prefix]) => request.url?.startsWith(prefix))?.[1];
    const pinned = typeof pinnedHeader === 'string' ? pinnedHeader.toLowerCase() : pinnedByPath;
    if (pinned !== undefined && !Object.hasOwn(instances, pinned)) {
      response
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: `${INSTANCE_HEADER}: no instance "${pinned}"` }));
      return;
    }
    // The body is held only until an instance accepts the connection; then it flows through.
    request.pause();
    const order = candidates(pinned);

    const attempt = (index: number) => {
      const name = order[index]!;
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: instances[name]!.port,
          method: request.method,
          path: request.url,
          headers: forwardable(request.headers),
          agent,
        },
        (answer) => {
          history.push({ method: request.method ?? '', path: request.url ?? '', instance: name, status: answer.statusCode ?? 0 });
          response.writeHead(answer.statusCode ?? 502, { ...forwardable(answer.headers), [INSTANCE_HEADER]: name });
          // Event streams: every chunk as it comes, no buffering in between.
          response.flushHeaders();
          answer.pipe(response);
          answer.once('error', () => response.destroy());
        },
      );
      // The body is sent only once the connection stands, so a refused one can still go elsewhere.
      let connected = false;
      const sendBody = () => {
        connected = true;
        request.pipe(upstream);
        request.resume();
      };
      upstream.once('socket', (socket) => {
        if (socket.connecting) socket.once('connect', sendBody);
        else sendBody();
      });
      upstream.once('error', (error: NodeJS.ErrnoException) => {
        // Refused before anything was sent: the instance is down, another may take the request.
        if (!connected && error.code === 'ECONNREFUSED' && index + 1 < order.length) {
          attempt(index + 1);
          return;
        }
        history.push({ method: request.method ?? '', path: request.url ?? '', instance: name, status: 502 });
        if (!response.headersSent) {
          response
            .writeHead(502, { 'content-type': 'application/json', [INSTANCE_HEADER]: name })
            .end(JSON.stringify({ error: `instance ${name} did not answer (${error.code ?? error.message})` }));
        } else response.destroy();
      });
      // The client went away (a closed event stream): end the upstream request too.
      response.once('close', () => upstream.destroy());
    };
    attempt(0);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Every interface, as the instances behind it listen: `localhost` may be either address family.
    server.listen(port, () => resolve());
  });
  return {
    url: `http://localhost:${port}`,
    port,
    history: () => [...history],
    pin: (pathPrefix, instance) => {
      if (instance === null) pins.delete(pathPrefix);
      else if (Object.hasOwn(instances, instance)) pins.set(pathPrefix, instance);
      else throw new Error(`no instance "${instance}"`);
    },
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
