// JSON answers of the app's APIs, dashboard and sandbox alike: a body with its length, kept by
// no cache (they carry records and one-time links), never sniffed as another type, and not
// compressed: Next.js's compression honours `no-transform`, and for answers of a few hundred
// bytes compressing and inflating cost more CPU than they save on loopback or a LAN.

const HEADERS = {
  'Cache-Control': 'no-store, no-transform',
  'X-Content-Type-Options': 'nosniff',
} as const;

/** A JSON answer with the headers above; `headers` may add to or override them. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  return new Response(bytes, {
    status,
    headers: {
      'Content-Type': 'application/json',
      'Content-Length': String(bytes.byteLength),
      ...HEADERS,
      ...headers,
    },
  });
}

/** A failure as `{ "error": "<message>" }` and nothing else (the service contract's shape, §7). */
export function jsonError(status: number, message: string, headers: Record<string, string> = {}): Response {
  return jsonResponse({ error: message }, status, headers);
}
