// The signature check on its own: the Standard Webhooks vectors, the timestamp window, rotation,
// the body cap. State (no receipt, register unchanged) is checked through the route in
// app/api/webhooks/verification-service/route.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { delivery, event, nowSeconds, SECRET_A, SECRET_B, SECRET_OTHER, sign, toRequest } from '@/test/support/webhook-receiver';
import { MAX_WEBHOOK_BODY_BYTES, verifyWebhookRequest, WEBHOOK_TOLERANCE_SECONDS } from './verify';

const SECRETS = [SECRET_A];

afterEach(() => {
  vi.useRealTimers();
});

describe('verifyWebhookRequest', () => {
  it('accepts the Standard Webhooks specification test vector', async () => {
    // From the specification's reference libraries: secret, id, timestamp, payload, signature.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1614265330 * 1000);
    const request = toRequest({
      headers: {
        'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        'webhook-timestamp': '1614265330',
        'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
      },
      body: '{"test": 2432232314}',
    });
    expect(await verifyWebhookRequest(request, ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'])).toEqual({
      ok: true,
      webhookId: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: 1614265330,
      body: '{"test": 2432232314}',
    });
  });

  it('accepts a valid delivery and hands back the body exactly as sent', async () => {
    // Odd spacing and key order: a re-serialised body would no longer match the signature.
    const body = '{ "type":"verification.completed",  "data": {"verificationId":"v-1","status":"completed"} }';
    const d = delivery(null, { body });
    const result = await verifyWebhookRequest(toRequest(d), SECRETS);
    expect(result).toMatchObject({ ok: true, webhookId: d.id, body });
  });

  it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])('refuses a delivery without %s (400)', async (header) => {
    const d = delivery(event('verification.completed', 'v-1'), { overrides: { [header]: undefined } });
    expect(await verifyWebhookRequest(toRequest(d), SECRETS)).toEqual({ ok: false, reason: 'missing_headers', status: 400 });
  });

  it.each(['abc', '1700000000abc', '17e8', '-5', '1.5', ' ', '0x6553f100'])('refuses the non-numeric timestamp %j', async (value) => {
    const d = delivery(event('verification.completed', 'v-1'), { overrides: { 'webhook-timestamp': value } });
    const result = await verifyWebhookRequest(toRequest(d), SECRETS);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.status).toBeGreaterThanOrEqual(400);
    if (!result.ok) expect(result.status).toBeLessThan(500);
  });

  it('refuses a timestamp more than five minutes old or ahead, even correctly signed', async () => {
    const stale = delivery(event('verification.completed', 'v-1'), { timestamp: nowSeconds() - WEBHOOK_TOLERANCE_SECONDS - 5 });
    const future = delivery(event('verification.completed', 'v-1'), { timestamp: nowSeconds() + WEBHOOK_TOLERANCE_SECONDS + 5 });
    expect(await verifyWebhookRequest(toRequest(stale), SECRETS)).toEqual({ ok: false, reason: 'stale_timestamp', status: 401 });
    expect(await verifyWebhookRequest(toRequest(future), SECRETS)).toEqual({ ok: false, reason: 'future_timestamp', status: 401 });
  });

  it('accepts timestamps just inside the window on either side', async () => {
    for (const offset of [-(WEBHOOK_TOLERANCE_SECONDS - 5), WEBHOOK_TOLERANCE_SECONDS - 5]) {
      const d = delivery(event('verification.completed', 'v-1'), { timestamp: nowSeconds() + offset });
      expect((await verifyWebhookRequest(toRequest(d), SECRETS)).ok).toBe(true);
    }
  });

  it('refuses a body with one byte changed', async () => {
    const d = delivery(event('verification.completed', 'v-1', 'completed'));
    const bytes = new TextEncoder().encode(d.body);
    for (const index of [0, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const changed = bytes.slice();
      changed[index] = changed[index]! ^ 0x01;
      expect(await verifyWebhookRequest(toRequest({ headers: d.headers, body: changed }), SECRETS)).toEqual({
        ok: false,
        reason: 'bad_signature',
        status: 401,
      });
    }
  });

  it('refuses a changed id or timestamp under the original signature', async () => {
    const d = delivery(event('verification.completed', 'v-1'));
    const otherId = { ...d.headers, 'webhook-id': `${d.id}x` };
    const otherTime = { ...d.headers, 'webhook-timestamp': String(d.timestamp - 1) };
    expect((await verifyWebhookRequest(toRequest({ headers: otherId, body: d.body }), SECRETS)).ok).toBe(false);
    expect((await verifyWebhookRequest(toRequest({ headers: otherTime, body: d.body }), SECRETS)).ok).toBe(false);
  });

  it('refuses a delivery signed with another secret', async () => {
    const d = delivery(event('verification.completed', 'v-1'), { secret: SECRET_OTHER });
    expect(await verifyWebhookRequest(toRequest(d), SECRETS)).toEqual({ ok: false, reason: 'bad_signature', status: 401 });
  });

  it('refuses garbage signatures, an unknown scheme and an empty signature list', async () => {
    const d = delivery(event('verification.completed', 'v-1'));
    const good = d.headers['webhook-signature']!.slice(3);
    for (const signature of ['v1,', 'v1', 'garbage', `v2,${good}`, `v1a,${good}`, ' ']) {
      const headers = { ...d.headers, 'webhook-signature': signature };
      expect((await verifyWebhookRequest(toRequest({ headers, body: d.body }), SECRETS)).ok, signature).toBe(false);
    }
  });

  describe('secret rotation', () => {
    it('accepts a delivery signed with any configured secret', async () => {
      for (const secret of [SECRET_A, SECRET_B]) {
        const d = delivery(event('verification.completed', 'v-1'), { secret });
        expect((await verifyWebhookRequest(toRequest(d), [SECRET_A, SECRET_B])).ok).toBe(true);
      }
    });

    it('accepts a header with several signatures when one of them matches', async () => {
      const d = delivery(event('verification.completed', 'v-1'));
      const theirs = sign(SECRET_OTHER, d.id, d.timestamp, d.body);
      const ours = sign(SECRET_B, d.id, d.timestamp, d.body);
      const headers = { ...d.headers, 'webhook-signature': `${theirs} v2,abc ${ours}` };
      expect((await verifyWebhookRequest(toRequest({ headers, body: d.body }), [SECRET_B])).ok).toBe(true);
    });

    it('refuses a header of several signatures when none matches', async () => {
      const d = delivery(event('verification.completed', 'v-1'), { secret: SECRET_OTHER });
      const headers = { ...d.headers, 'webhook-signature': `${d.headers['webhook-signature']} v1,AAAA` };
      expect((await verifyWebhookRequest(toRequest({ headers, body: d.body }), [SECRET_A, SECRET_B])).ok).toBe(false);
    });
  });

  it('answers 503 when no secret is configured (our problem: the sender should retry)', async () => {
    const d = delivery(event('verification.completed', 'v-1'));
    expect(await verifyWebhookRequest(toRequest(d), [])).toEqual({ ok: false, reason: 'not_configured', status: 503 });
  });

  it('refuses a body over the limit, declared or streamed without a length (413)', async () => {
    const big = JSON.stringify({ ...event('verification.completed', 'v-1'), pad: 'x'.repeat(MAX_WEBHOOK_BODY_BYTES) });
    const d = delivery(null, { body: big });
    expect(await verifyWebhookRequest(toRequest(d), SECRETS)).toEqual({ ok: false, reason: 'too_large', status: 413 });

    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 8192) controller.enqueue(bytes.slice(i, i + 8192));
        controller.close();
      },
    });
    const chunked = new Request('http://localhost/api/webhooks/verification-service', {
      method: 'POST',
      headers: d.headers,
      body: stream,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    expect(chunked.headers.get('content-length')).toBeNull();
    expect(await verifyWebhookRequest(chunked, SECRETS)).toEqual({ ok: false, reason: 'too_large', status: 413 });
  });

  it('refuses a body that is not UTF-8 instead of guessing at it', async () => {
    const d = delivery(event('verification.completed', 'v-1'));
    const bytes = new Uint8Array([...new TextEncoder().encode(d.body.slice(0, -1)), 0xff, 0x7d]);
    expect(await verifyWebhookRequest(toRequest({ headers: d.headers, body: bytes }), SECRETS)).toEqual({
      ok: false,
      reason: 'not_utf8',
      status: 400,
    });
  });

  it('keeps a leading byte-order mark, which is part of the signed bytes', async () => {
    const body = `\uFEFF${JSON.stringify(event('verification.completed', 'v-1'))}`;
    const d = delivery(null, { body });
    const result = await verifyWebhookRequest(toRequest(d), SECRETS);
    expect(result).toMatchObject({ ok: true, body });
  });

  it('refuses an absurdly long or control-character webhook-id', async () => {
    for (const id of ['m'.repeat(300), 'msg\u0001x', 'msg id']) {
      const d = delivery(event('verification.completed', 'v-1'), { id });
      expect(await verifyWebhookRequest(toRequest(d), SECRETS)).toEqual({ ok: false, reason: 'malformed_headers', status: 400 });
    }
  });
});
