// The transport against a real HTTP server that closes its kept-alive connections the way a
// service does when it stops: the client's next request is handed such a connection before it
// has seen it close (the request is sent in the same tick as the close here, as it happens by
// chance on a busy machine).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { httpExchange } from './http-exchange';

type Service = { url: string; server: http.Server; requests: string[] };

let service: Service | undefined;

async function startService(): Promise<Service> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.method ?? '');
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/verifications/x`, server, requests };
}

/** One answered GET, its connection then back in the pool for the next request. */
async function poolAConnection(url: string) {
  const answer = await httpExchange(url, { method: 'GET', headers: {} }, { timeoutMs: 2_000 });
  expect((await answer.read(1_000)).toString()).toBe('{"ok":true}');
  await new Promise((resolve) => setImmediate(resolve));
}

afterEach(async () => {
  service?.server.closeAllConnections();
  await new Promise((resolve) => service?.server.close(resolve) ?? resolve(undefined));
  service = undefined;
});

describe('httpExchange over a kept-alive connection the service has closed', () => {
  it('sends a GET again on a new connection, which gets the answer', async () => {
    service = await startService();
    await poolAConnection(service.url);
    service.server.closeAllConnections();
    const answer = await httpExchange(service.url, { method: 'GET', headers: {} }, { timeoutMs: 2_000 });
    expect(answer.status).toBe(200);
    expect((await answer.read(1_000)).toString()).toBe('{"ok":true}');
    expect(service.requests).toEqual(['GET', 'GET']);
  });

  it('tells a service that stopped listening by its refusal, not by the closed connection', async () => {
    service = await startService();
    await poolAConnection(service.url);
    const { server, url } = service;
    service = undefined;
    server.closeAllConnections();
    const closed = new Promise((resolve) => server.close(resolve));
    await expect(httpExchange(url, { method: 'GET', headers: {} }, { timeoutMs: 2_000 })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await closed;
  });

  it('never sends a POST twice: the reset is the answer', async () => {
    service = await startService();
    await poolAConnection(service.url);
    service.server.closeAllConnections();
    const sent = httpExchange(service.url, { method: 'POST', headers: {}, body: '{}' }, { timeoutMs: 2_000 });
    await expect(sent).rejects.toMatchObject({ code: expect.stringMatching(/^(ECONNRESET|EPIPE)$/) });
    expect(service.requests).toEqual(['GET']);
  });
});
