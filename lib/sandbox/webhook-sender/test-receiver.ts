// Test support only: a real webhook receiver on 127.0.0.1 that checks every delivery with the
// standardwebhooks package and answers as the test programs it (a status, a hang, a reset).
// Real sockets, because timeouts, refusals and resets are what a mocked fetch cannot show.
// (The dashboard's fake upstream is not reused: nothing under lib/sandbox imports the dashboard.)
import 'server-only';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export type ReceivedWebhook = {
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The raw body, exactly as it arrived. */
  body: string;
  /** `Webhook.verify` passed with the receiver's secret (signature and a fresh timestamp). */
  verified: boolean;
  verifyError?: string;
};

/** A status code, or a fault: never answer, send headers then stall, or drop the connection. */
export type Answer = number | 'hang' | 'headers-then-hang' | 'reset';

export type TestReceiver = {
  url: string;
  hits: ReceivedWebhook[];
  /** Answers the following requests in order; the last answer repeats. */
  answer(...answers: Answer[]): void;
  setSecret(secret: string): void;
  close(): Promise<void>;
};

export async function startTestReceiver(secret?: string): Promise<TestReceiver> {
  let verifier = secret ? new Webhook(secret) : undefined;
  let queue: Answer[] = [200];
  const hits: ReceivedWebhook[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified = false;
      let verifyError: string | undefined;
      try {
        if (!verifier) throw new Error('no secret set');
        verifier.verify(body, {
          'webhook-id': String(req.headers['webhook-id'] ?? ''),
          'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
          'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
        });
        verified = true;
      } catch (error) {
        verifyError = (error as Error).message;
      }
      hits.push({ path: req.url ?? '', headers: req.headers, body, verified, verifyError });

      const answer = queue.length > 1 ? queue.shift()! : queue[0]!;
      if (answer === 'hang') return;
      if (answer === 'reset') {
        req.socket.destroy();
        return;
      }
      if (answer === 'headers-then-hang') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('partial');
        return;
      }
      res.writeHead(answer, { 'Content-Type': 'text/plain' });
      res.end(answer >= 200 && answer <= 299 ? 'ok' : 'receiver says no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/hooks`,
    hits,
    answer(...answers) {
      if (answers.length === 0) throw new Error('answer() needs at least one answer');
      queue = [...answers];
    },
    setSecret(value) {
      verifier = new Webhook(value);
    },
    async close() {
      // Hanging answers would otherwise keep close() waiting forever.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An address where nothing listens: a port that was just bound and released. */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks`;
}
