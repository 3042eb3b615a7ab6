// A stand-in for the identity-verification service that counts every request it receives. The
// access-control tests point a dashboard at it to prove that refused callers cost the service
// nothing: the dashboard's own server-side fetches cannot be seen by `page.route`, so only a
// real listener can tell whether a request left the dashboard.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pendingRecord } from './service-record';

export interface UpstreamCall {
  method: string;
  path: string;
  authorization: string | undefined;
  body: string;
}

export interface CountingUpstream {
  /** http://127.0.0.1:<port>, no trailing slash. */
  baseUrl: string;
  /** Every request received, in order, whatever its path. */
  calls: UpstreamCall[];
  close(): Promise<void>;
}

/** Answers like the service does for a valid key: a create result, or a pending record. */
export async function startCountingUpstream(): Promise<CountingUpstream> {
  const calls: UpstreamCall[] = [];
  const names = new Map<string, string>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '';
      // Counted before answering, so a caller that gives up early is still seen.
      calls.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });

      const answer = (status: number, payload: unknown) => {
        const text = JSON.stringify(payload);
        res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
        res.end(text);
      };

      if (req.method === 'POST' && path === '/v1/verifications/new') {
        let request: { name?: string; shareableLink?: boolean } = {};
        try {
          request = JSON.parse(body) as typeof request;
        } catch {
          return answer(400, { error: 'Body is not JSON' });
        }
        const verificationId = randomUUID();
        names.set(verificationId, request.name ?? 'Unknown');
        return answer(200, {
          message: 'Verification request created successfully.',
          verificationId,
          ...(request.shareableLink ? { link: `https://verify.example.test/v/${randomUUID()}` } : {}),
        });
      }
      const read = /^\/v1\/verifications\/([^/?]+)$/.exec(path);
      if (req.method === 'GET' && read) {
        const id = decodeURIComponent(read[1]!);
        return answer(200, pendingRecord(names.get(id) ?? 'Someone'));
      }
      return answer(404, { error: 'Not found' });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    calls,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
