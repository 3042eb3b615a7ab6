// The proxy's gate in front of Next's server-action decoder: which requests it looks at, and
// which it refuses (413 over the limit, 400 for bodies the decoder would fail on with a 500).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checkServerActionRequest,
  isServerActionRequest,
  MALFORMED_MESSAGE,
  MALFORMED_ORIGIN_MESSAGE,
  SERVER_ACTION_BODY_LIMIT,
  SERVER_ACTION_BODY_LIMIT_BYTES,
  TOO_LARGE_MESSAGE,
  UNREADABLE_FORM_MESSAGE,
} from './server-action-gate';

const ACTION_ID = '7f'.repeat(21);

function fetchCall(body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request('http://localhost/verifications/new', {
    method: 'POST',
    headers: { 'next-action': ACTION_ID, 'content-type': 'text/plain;charset=UTF-8', ...headers },
    body,
  });
}

function multipart(fields: Record<string, string>, headers: Record<string, string> = {}): Request {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  // No content type of our own: the Request sets multipart/form-data with its boundary.
  return new Request('http://localhost/verifications/new', { method: 'POST', headers, body: form });
}

describe('isServerActionRequest', () => {
  it('covers fetch calls and multipart posts to pages, not route handlers or reads', () => {
    expect(isServerActionRequest(fetchCall('[]'), '/verifications/new')).toBe(true);
    expect(isServerActionRequest(multipart({ a: 'b' }), '/staff')).toBe(true);
    expect(isServerActionRequest(multipart({ a: 'b' }), '/api/webhooks/verification-service')).toBe(false);
    expect(isServerActionRequest(multipart({ a: 'b' }), '/v1/verifications/new')).toBe(false);
    expect(isServerActionRequest(multipart({ a: 'b' }), '/sign-out')).toBe(false);
    // Below /sign-out is a page path: Next takes a multipart POST there for a form action.
    expect(isServerActionRequest(multipart({ a: 'b' }), '/sign-out/x')).toBe(true);
    expect(isServerActionRequest(new Request('http://localhost/'), '/')).toBe(false);
  });
});

describe('checkServerActionRequest', () => {
  it('lets well-formed calls through', async () => {
    expect(await checkServerActionRequest(fetchCall('["a", {"b": 1}]'))).toBeUndefined();
    expect(await checkServerActionRequest(fetchCall('[]'))).toBeUndefined();
    expect(await checkServerActionRequest(multipart({ '0': '[{},"$K1"]', _1_name: 'Jane' }, { 'next-action': ACTION_ID }))).toBeUndefined();
    // A no-JavaScript form post carries no "0" field.
    expect(await checkServerActionRequest(multipart({ [`$ACTION_ID_${ACTION_ID}`]: '', name: 'Jane' }))).toBeUndefined();
  });

  it.each([
    ['an empty body', ''],
    ['text that is not JSON', 'not json{'],
    ['a JSON object', '{"a":1}'],
    ['a number', '42'],
    ['null', 'null'],
  ])('refuses %s as the arguments of a fetch call with 400', async (_case, body) => {
    expect(await checkServerActionRequest(fetchCall(body))).toEqual({ status: 400, message: MALFORMED_MESSAGE });
  });

  it('refuses a multipart fetch call without a JSON array in field "0"', async () => {
    for (const fields of <Record<string, string>[]>[{ _1_name: 'Jane' }, { '0': 'nope' }, { '0': '{"a":1}' }]) {
      expect(await checkServerActionRequest(multipart(fields, { 'next-action': ACTION_ID }))).toEqual({
        status: 400,
        message: MALFORMED_MESSAGE,
      });
    }
  });

  it('refuses an Origin header that is not a URL with 403 (Next would throw on it: a 500), and lets "null" through to Next', async () => {
    for (const origin of ['http://[bad', '::::', 'http://', '//localhost']) {
      expect(await checkServerActionRequest(fetchCall('[]', { origin }))).toEqual({ status: 403, message: MALFORMED_ORIGIN_MESSAGE });
      expect(await checkServerActionRequest(multipart({ a: 'b' }, { origin }))).toEqual({ status: 403, message: MALFORMED_ORIGIN_MESSAGE });
    }
    for (const origin of ['http://localhost', 'https://evil.example', 'null']) {
      expect(await checkServerActionRequest(fetchCall('[]', { origin }))).toBeUndefined();
    }
  });

  it('refuses a multipart body that does not parse', async () => {
    const request = new Request('http://localhost/staff', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      body: 'this is not multipart',
    });
    expect(await checkServerActionRequest(request)).toEqual({ status: 400, message: UNREADABLE_FORM_MESSAGE });
  });

  it('refuses more than the limit with 413, by the declared length or by the bytes read', async () => {
    const big = `["${'a'.repeat(SERVER_ACTION_BODY_LIMIT_BYTES)}"]`;
    expect(await checkServerActionRequest(fetchCall(big))).toEqual({ status: 413, message: TOO_LARGE_MESSAGE });
    expect(await checkServerActionRequest(fetchCall('[]', { 'content-length': String(2 * 1024 * 1024) }))).toEqual({
      status: 413,
      message: TOO_LARGE_MESSAGE,
    });
    // Exactly at the limit is fine.
    const atLimit = `["${'a'.repeat(SERVER_ACTION_BODY_LIMIT_BYTES - 4)}"]`;
    expect(Buffer.byteLength(atLimit)).toBe(SERVER_ACTION_BODY_LIMIT_BYTES);
    expect(await checkServerActionRequest(fetchCall(atLimit))).toBeUndefined();
  });

  it('stops reading a chunked body once past the limit, rather than reading all of it', async () => {
    // A 12 MB body arriving in 64 KB pieces, as the socket delivers it; the stream counts what was pulled.
    const piece = new Uint8Array(64 * 1024).fill(0x61);
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 12 * 1024 * 1024) return controller.close();
        pulled += piece.byteLength;
        controller.enqueue(piece);
      },
    });
    const request = new Request('http://localhost/verifications/new', {
      method: 'POST',
      headers: { 'next-action': ACTION_ID, 'content-type': 'text/plain;charset=UTF-8' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(await checkServerActionRequest(request)).toEqual({ status: 413, message: TOO_LARGE_MESSAGE });
    expect(pulled).toBeGreaterThan(SERVER_ACTION_BODY_LIMIT_BYTES);
    expect(pulled).toBeLessThanOrEqual(SERVER_ACTION_BODY_LIMIT_BYTES + 4 * piece.byteLength);
  });

  it("agrees with next.config.mjs, so the gate answers before Next's own limit does", () => {
    // Read as text: the config is plain JavaScript without types.
    const config = readFileSync(new URL('../../next.config.mjs', import.meta.url), 'utf8');
    expect(config).toContain(`serverActions: { bodySizeLimit: '${SERVER_ACTION_BODY_LIMIT}' }`);
    expect(SERVER_ACTION_BODY_LIMIT_BYTES).toBe(1024 * 1024);
    // Next's copy of the body for the proxy: just over the limit (by one 64 KiB socket read), so
    // it stops buffering there yet still shows the gate a body that is over the limit.
    expect(config).toContain('proxyClientMaxBodySize: 1024 * 1024 + 64 * 1024,');
  });
});
