// One HTTP exchange, timed with the monotonic clock: `ttfb` when the status line and headers
// have arrived (the response's first bytes), `total` when the whole body has. Sequential
// measurements share one keep-alive connection per target, so what is timed is the server's
// work, not TCP set-up; the Agent never opens more than one socket at a time.
import http from 'node:http';

export const keepAliveAgent = () => new http.Agent({ keepAlive: true, maxSockets: 1 });

export function timedRequest(url, { method = 'GET', headers = {}, body, agent, timeoutMs = 15_000 } = {}) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const request = http.request(url, { method, headers, agent }, (response) => {
      const ttfb = performance.now() - start;
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('error', fail);
      response.on('end', () => {
        clearTimeout(timer);
        resolve({
          status: response.statusCode,
          headers: response.headers,
          ttfb,
          total: performance.now() - start,
          body: Buffer.concat(chunks),
        });
      });
    });
    // A bound on the whole exchange (a socket timeout would let a trickling response run on).
    const timer = setTimeout(() => request.destroy(new Error(`${method} ${url} timed out after ${timeoutMs} ms`)), timeoutMs);
    function fail(error) {
      clearTimeout(timer);
      reject(error);
    }
    request.on('error', fail);
    request.end(body);
  });
}

/** Throws unless the status is the expected one: a bench must not time error pages by accident. */
export function expectStatus(response, expected, what) {
  if (response.status !== expected) {
    throw new Error(`${what}: expected HTTP ${expected}, got ${response.status}: ${response.body.toString('utf8').slice(0, 300)}`);
  }
  return response;
}
