// Test support only: signing deliveries the way a Standard Webhooks sender does.
import { Webhook } from 'standardwebhooks';

export const SECRET_A = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
export const SECRET_B = 'whsec_dGhlIHNlY29uZCBzZWNyZXQsIGZvciByb3RhdGlvbg==';
export const SECRET_OTHER = 'whsec_c29tZWJvZHkgZWxzZSdzIHNlY3JldA==';

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  return new Webhook(secret).sign(id, new Date(timestamp * 1000), body);
}

export type Delivery = { id: string; timestamp: number; body: string; headers: Record<string, string> };

/** A signed delivery of `event`; `overrides` replace or (with undefined) drop headers. */
export function delivery(
  event: unknown,
  {
    id = `msg_${Math.random().toString(36).slice(2)}`,
    timestamp = nowSeconds(),
    secret = SECRET_A,
    body = typeof event === 'string' ? event : JSON.stringify(event),
    overrides = {},
  }: { id?: string; timestamp?: number; secret?: string; body?: string; overrides?: Record<string, string | undefined> } = {},
): Delivery {
  const headers: Record<string, string | undefined> = {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(secret, id, timestamp, body),
    ...overrides,
  };
  const clean = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>;
  return { id, timestamp, body, headers: clean };
}

export function toRequest(
  d: { headers: Record<string, string>; body: string | Uint8Array<ArrayBuffer> },
  url = 'http://localhost:3000/api/webhooks/verification-service',
): Request {
  return new Request(url, { method: 'POST', headers: d.headers, body: d.body });
}

export function event(type: string, verificationId: string, status = 'pending') {
  return { type, timestamp: new Date().toISOString(), data: { verificationId, status } };
}
