// The service client against a real local HTTP server: what it sends, what it accepts, how each
// upstream fault maps to a kind, and when it retries.
import net, { type AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  createVerificationServiceClient,
  MAX_RESPONSE_BYTES,
  normalizeVerificationId,
  parseRetryAfter,
  readDeadlineMs,
  type VerificationServiceClientConfig,
} from './client';
import { VerificationServiceError } from './errors';
import {
  after,
  chunked,
  closedPortUrl,
  cutOffMidBody,
  type FakeUpstream,
  hang,
  headersThenHang,
  json,
  reset,
  startFakeUpstream,
  text,
} from './fake-upstream';
import type { CreateVerificationRequest } from './types';

const API_KEY = 'test-key-5b1f0c9e-do-not-leak';
const TIMEOUT_MS = 300;

const createBody: CreateVerificationRequest = {
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  chosenPurpose: 'legal_obligations',
  phonenumber: '+32470123456',
  smsNotification: true,
  language: 'en',
  shareableLink: true,
  emailNotification: false,
};

const createdResult = {
  message: 'Verification request created successfully.',
  verificationId: 'ver_01J9ZK3',
  link: 'https://verify.example.com/v/abc123',
};

const pendingRecord = {
  inputted_name: 'Ada Lovelace',
  status: 'pending',
  purpose: 'legal_obligations',
  access_expires_at: '2030-01-08T10:00:00.000Z',
  identified_name: null,
  identified_date: null,
  verification_method: null,
  failed_reason: null,
  kept_until: '2030-07-01T10:00:00+02:00',
};

const completedRecord = {
  ...pendingRecord,
  status: 'completed',
  identified_name: 'ADA KING LOVELACE',
  identified_date: '2030-01-02T09:30:00Z',
  verification_method: 'some_new_identity_app',
};

let upstream: FakeUpstream;

beforeEach(async () => {
  upstream = await startFakeUpstream();
});

afterEach(async () => {
  await upstream.close();
});

function client(overrides: Partial<VerificationServiceClientConfig> = {}) {
  return createVerificationServiceClient({
    baseUrl: upstream.baseUrl,
    apiKey: API_KEY,
    timeoutMs: TIMEOUT_MS,
    sleep: async () => {},
    ...overrides,
  });
}

/** The VerificationServiceError a call rejects with (fails the test if it resolves or throws something else). */
async function failure(promise: Promise<unknown>): Promise<VerificationServiceError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(VerificationServiceError);
    const serviceError = error as VerificationServiceError;
    // Whatever went wrong, the message is ours: never the key, never the upstream's words.
    expect(serviceError.message).not.toContain(API_KEY);
    expect(serviceError.message).not.toContain('UPSTREAM-BODY');
    return serviceError;
  }
  throw new Error('expected the call to fail');
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

describe('createVerification', () => {
  it('POSTs the body as given with the Bearer key and JSON headers, and returns the result', async () => {
    upstream.program(json(200, createdResult));

    const result = await client().createVerification(createBody);

    expect(result).toEqual(createdResult);
    expect(upstream.requests).toHaveLength(1);
    const [request] = upstream.requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/v1/verifications/new');
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.headers.accept).toBe('application/json');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request!.body)).toEqual(createBody);
  });

  it('sends a minimal body without adding defaults', async () => {
    upstream.program(json(200, { message: 'ok', verificationId: 'v1' }));
    const minimal: CreateVerificationRequest = { email: 'a@b.example', name: 'A', chosenPurpose: 'audit', language: 'fr' };

    await client().createVerification(minimal);

    expect(JSON.parse(upstream.requests[0]!.body)).toEqual(minimal);
  });

  it('ignores a trailing slash on the base URL', async () => {
    upstream.program(json(200, createdResult));
    await client({ baseUrl: `${upstream.baseUrl}//` }).createVerification(createBody);
    expect(upstream.requests[0]!.url).toBe('/v1/verifications/new');
  });

  it('accepts a result without a link, or with link null, and drops unknown fields', async () => {
    upstream.program(
      json(200, { message: 'Verification request created successfully.', verificationId: 'abc' }),
      json(200, { message: 'Verification request created successfully.', verificationId: 'abc', link: null, extra: 1 }),
    );

    const withoutLink = await client().createVerification({ ...createBody, shareableLink: false });
    const withNull = await client().createVerification({ ...createBody, shareableLink: false });

    expect(withoutLink).toEqual({ message: 'Verification request created successfully.', verificationId: 'abc' });
    expect(withNull).toEqual({ message: 'Verification request created successfully.', verificationId: 'abc' });
    expect(withNull).not.toHaveProperty('extra');
  });

  it.each([
    [400, 'invalid'],
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [404, 'not_found'],
    [409, 'invalid'],
    [422, 'invalid'],
    [429, 'unavailable'],
    [500, 'unavailable'],
    [502, 'unavailable'],
    [503, 'unavailable'],
    [504, 'unavailable'],
  ] as const)('maps HTTP %i to %s and never retries', async (status, kind) => {
    upstream.program(json(status, { error: 'UPSTREAM-BODY something happened' }));

    const error = await failure(client().createVerification(createBody));

    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(upstream.requests).toHaveLength(1);
  });

  it('keeps the upstream message as detail for invalid, and only for invalid', async () => {
    upstream.program(json(400, { error: 'language must be one of en, fr, nl' }));
    const invalid = await failure(client().createVerification(createBody));
    expect(invalid.detail).toBe('language must be one of en, fr, nl');

    for (const status of [401, 403, 404, 429, 500, 503]) {
      upstream.program(json(status, { error: 'UPSTREAM-BODY internal detail' }));
      const other = await failure(client().createVerification(createBody));
      expect(other.detail).toBeUndefined();
    }
  });

  it('trims a long invalid detail to 300 characters and flattens control characters', async () => {
    upstream.program(json(422, { error: `name\n\tis wrong: ${'x'.repeat(1000)}` }));
    const error = await failure(client().createVerification(createBody));
    expect(error.detail!.length).toBeLessThanOrEqual(300);
    expect(error.detail!.startsWith('name is wrong: xxx')).toBe(true);
    expect(error.detail!.endsWith('…')).toBe(true);
  });

  it('reports invalid without detail when the error body is not the usual JSON', async () => {
    upstream.program(text(400, '<html>UPSTREAM-BODY bad request</html>', 'text/html'));
    const error = await failure(client().createVerification(createBody));
    expect(error.kind).toBe('invalid');
    expect(error.detail).toBeUndefined();
  });

  it('reads Retry-After of a 429, in seconds or as an HTTP date', async () => {
    upstream.program(
      json(429, { error: 'slow down' }, { 'Retry-After': '30' }),
      json(429, { error: 'slow down' }, { 'Retry-After': new Date(Date.now() + 120_000).toUTCString() }),
      json(429, { error: 'slow down' }),
    );
    expect((await failure(client().createVerification(createBody))).retryAfterSeconds).toBe(30);
    const fromDate = (await failure(client().createVerification(createBody))).retryAfterSeconds!;
    expect(fromDate).toBeGreaterThanOrEqual(118);
    expect(fromDate).toBeLessThanOrEqual(121);
    expect((await failure(client().createVerification(createBody))).retryAfterSeconds).toBeUndefined();
  });

  it('is not retried after a timeout: the request may have been created', async () => {
    upstream.program(hang);

    const { result: error, ms } = await timed(() => failure(client().createVerification(createBody)));

    expect(error.kind).toBe('timeout');
    expect(error.status).toBeUndefined();
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(ms).toBeLessThan(TIMEOUT_MS + 700);
    expect(upstream.requests).toHaveLength(1);
  });

  it('times out when the server sends headers and then stalls', async () => {
    upstream.program(headersThenHang());

    const { result: error, ms } = await timed(() => failure(client().createVerification(createBody)));

    expect(error.kind).toBe('timeout');
    expect(ms).toBeLessThan(TIMEOUT_MS + 700);
    expect(upstream.requests).toHaveLength(1);
  });

  it.each([
    ['HTML', text(200, '<html><body>UPSTREAM-BODY</body></html>', 'text/html')],
    ['an empty body', text(200, '')],
    ['an empty body announced as JSON', text(200, '', 'application/json')],
    ['JSON of the wrong shape', json(200, { id: 'abc', ok: true })],
    ['an empty verificationId', json(200, { message: 'ok', verificationId: '' })],
    ['a non-http link', json(200, { ...createdResult, link: 'javascript:alert(1)' })],
    ['invalid UTF-8', text(200, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), 'application/json')],
  ])('reports a 200 with %s as a protocol error, without retrying', async (_label, behaviour) => {
    upstream.program(behaviour);
    const error = await failure(client().createVerification(createBody));
    expect(error.kind).toBe('protocol');
    expect(upstream.requests).toHaveLength(1);
  });

  it('does not follow a redirect (it would turn the POST into a GET)', async () => {
    upstream.program(text(302, '', 'text/plain', { Location: '/elsewhere' }), json(200, createdResult));
    const error = await failure(client().createVerification(createBody));
    expect(error.kind).toBe('protocol');
    expect(error.status).toBe(302);
    expect(upstream.requests).toHaveLength(1);
  });
});

describe('getVerification', () => {
  it('GETs the record by its encoded id with the Bearer key', async () => {
    upstream.program(json(200, pendingRecord));

    const record = await client().getVerification('ver 42?x=1#frag');

    expect(record).toEqual(pendingRecord);
    expect(upstream.requests).toHaveLength(1);
    const [request] = upstream.requests;
    expect(request!.method).toBe('GET');
    expect(request!.url).toBe('/v1/verifications/ver%2042%3Fx%3D1%23frag');
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.headers.accept).toBe('application/json');
    expect(request!.body).toBe('');
  });

  it('trims whitespace around a pasted id', async () => {
    upstream.program(json(200, pendingRecord));
    await client().getVerification('  abc-123 \n');
    expect(upstream.requests[0]!.url).toBe('/v1/verifications/abc-123');
  });

  it('passes unknown verification methods through and ignores extra fields', async () => {
    upstream.program(json(200, { ...completedRecord, risk_score: 0.2, nested: { a: 1 } }));

    const record = await client().getVerification('abc');

    expect(record).toEqual(completedRecord);
    expect(record.verification_method).toBe('some_new_identity_app');
    expect(record).not.toHaveProperty('risk_score');
  });

  it('reads absent nullable fields as null', async () => {
    const { identified_name: _n, identified_date: _d, failed_reason: _f, verification_method: _m, ...rest } = pendingRecord;
    upstream.program(json(200, rest));
    const record = await client().getVerification('abc');
    expect(record).toEqual(pendingRecord);
  });

  it.each([
    ['an unknown status', { ...pendingRecord, status: 'archived' }],
    ['a timestamp without offset', { ...pendingRecord, kept_until: '2030-07-01T10:00:00' }],
    ['a date that is not a timestamp', { ...pendingRecord, access_expires_at: 'next tuesday' }],
    ['a missing required field', { ...pendingRecord, inputted_name: undefined }],
    ['a number where a string belongs', { ...pendingRecord, purpose: 7 }],
    ['an array instead of an object', [pendingRecord]],
  ])('reports %s as a protocol error, without retrying', async (_label, body) => {
    upstream.program(json(200, body));
    const error = await failure(client().getVerification('abc'));
    expect(error.kind).toBe('protocol');
    expect(error.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
  });

  it('reports non-JSON and empty bodies as protocol errors, without retrying', async () => {
    upstream.program(text(200, 'UPSTREAM-BODY not json'));
    expect((await failure(client().getVerification('abc'))).kind).toBe('protocol');
    upstream.program(text(200, ''));
    expect((await failure(client().getVerification('abc'))).kind).toBe('protocol');
    expect(upstream.requests).toHaveLength(2);
  });

  it.each([
    [400, 'invalid', 1],
    [401, 'unauthorized', 1],
    [403, 'forbidden', 1],
    [404, 'not_found', 1],
    [409, 'invalid', 1],
    [429, 'unavailable', 1],
    [500, 'unavailable', 1],
    [502, 'unavailable', 3],
    [503, 'unavailable', 3],
    [504, 'unavailable', 3],
  ] as const)('maps HTTP %i to %s after %i attempt(s)', async (status, kind, attempts) => {
    upstream.program(json(status, { error: 'UPSTREAM-BODY' }));

    const error = await failure(client().getVerification('abc'));

    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(upstream.requests).toHaveLength(attempts);
    expect(error.detail).toBe(kind === 'invalid' ? 'UPSTREAM-BODY' : undefined);
  });

  it('handles 502/503 pages in HTML like JSON ones', async () => {
    upstream.program(text(502, '<html>UPSTREAM-BODY Bad Gateway</html>', 'text/html'));
    const error = await failure(client().getVerification('abc'));
    expect(error).toMatchObject({ kind: 'unavailable', status: 502 });
    expect(upstream.requests).toHaveLength(3);
  });

  it('reports a 503 at once even when its body never ends (the body is discarded, not awaited)', async () => {
    upstream.program(headersThenHang(503));
    const { result: error, ms } = await timed(() => failure(client().getVerification('abc')));
    expect(error).toMatchObject({ kind: 'unavailable', status: 503 });
    expect(upstream.requests).toHaveLength(3);
    expect(ms).toBeLessThan(TIMEOUT_MS);
  });

  it('reports a 400 whose body stalls as invalid without detail, within the timeout', async () => {
    upstream.program(headersThenHang(400));
    const { result: error, ms } = await timed(() => failure(client().createVerification(createBody)));
    expect(error).toMatchObject({ kind: 'invalid', status: 400 });
    expect(error.detail).toBeUndefined();
    expect(ms).toBeLessThan(TIMEOUT_MS + 700);
  });

  it('succeeds when a retry succeeds', async () => {
    upstream.program(text(503, 'busy'), json(200, completedRecord));
    const record = await client().getVerification('abc');
    expect(record.status).toBe('completed');
    expect(upstream.requests).toHaveLength(2);
  });

  // All attempts share one deadline, readDeadlineMs(T) = T plus a margin (a tenth of T, 250 ms to 1 s):
  // a service that never answers costs a read about T, where three separate timeouts cost 3T.
  it('gives up on a hanging service after about one timeout, not one per attempt', async () => {
    const timeoutMs = 1_000;
    upstream.program(hang);

    const { result: error, ms } = await timed(() => failure(client({ timeoutMs, random: () => 0 }).getVerification('abc')));

    expect(error.kind).toBe('timeout');
    expect(ms).toBeGreaterThanOrEqual(timeoutMs - 50);
    expect(ms).toBeLessThan(1.5 * timeoutMs);
    // The margin leaves room for one short retry on a fresh connection, not for two.
    expect(upstream.requests.length).toBeGreaterThanOrEqual(1);
    expect(upstream.requests.length).toBeLessThanOrEqual(2);
  });

  it('caps a retry by what remains of the deadline after a slow failure', async () => {
    const timeoutMs = 1_000;
    upstream.program(after(0.8 * timeoutMs, text(503, 'busy')), hang);

    const { result: error, ms } = await timed(() => failure(client({ timeoutMs, random: () => 0 }).getVerification('abc')));

    // The 503 came after 0.8 T; the retry that hangs got the rest of the deadline, not another T.
    expect(error.kind).toBe('timeout');
    expect(upstream.requests).toHaveLength(2);
    expect(ms).toBeLessThan(1.5 * timeoutMs);
  });

  it('retries quick transient failures with a real backoff, within the deadline', async () => {
    upstream.program(text(503, 'busy'), text(502, 'bad gateway'), json(200, completedRecord));
    // The client's own sleep and jitter: the backoff is spent from the same deadline.
    const record = await client({ sleep: undefined, random: undefined, timeoutMs: 2_000 }).getVerification('abc');
    expect(record.status).toBe('completed');
    expect(upstream.requests).toHaveLength(3);
  });

  it('readDeadlineMs: the timeout plus a tenth of it, between 250 ms and 1 s', () => {
    expect(readDeadlineMs(10_000)).toBe(11_000);
    expect(readDeadlineMs(4_000)).toBe(4_400);
    expect(readDeadlineMs(1_000)).toBe(1_250);
    expect(readDeadlineMs(60_000)).toBe(61_000);
  });

  it('recovers when the attempt after a timeout answers', async () => {
    upstream.program(hang, json(200, pendingRecord));
    await expect(client({ random: () => 0 }).getVerification('abc')).resolves.toEqual(pendingRecord);
    expect(upstream.requests).toHaveLength(2);
  });

  it('times out (and retries within the deadline) when headers arrive but the body stalls', async () => {
    upstream.program(headersThenHang());
    const error = await failure(client({ random: () => 0 }).getVerification('abc'));
    expect(error.kind).toBe('timeout');
    expect(upstream.requests).toHaveLength(2);
  });

  it('reports a refused connection as unavailable, without retrying', async () => {
    const nowhere = createVerificationServiceClient({
      baseUrl: await closedPortUrl(),
      apiKey: API_KEY,
      timeoutMs: TIMEOUT_MS,
      sleep: async () => {},
    });
    const error = await failure(nowhere.getVerification('abc'));
    expect(error.kind).toBe('unavailable');
    expect(error.status).toBeUndefined();
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.unreachable).toBe(true);
  });

  it('reports a reset connection as unavailable', async () => {
    upstream.program(reset);
    const read = await failure(client().getVerification('abc'));
    expect(read.kind).toBe('unavailable');
    expect(read.status).toBeUndefined();
    // A reset is not one of the retried faults (a broken proxy would otherwise be hit three times).
    expect(upstream.requests).toHaveLength(1);

    const create = await failure(client().createVerification(createBody));
    expect(create.kind).toBe('unavailable');
    expect(upstream.requests).toHaveLength(2);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['with a slash', 'abc/../../admin'],
    ['a dot segment', '..'],
    ['a single dot', '.'],
    ['too long', 'x'.repeat(201)],
    ['with a control character', 'abc\u0000def'],
  ])('refuses an id that is %s without calling the service', async (_label, id) => {
    upstream.program(json(200, pendingRecord));
    const error = await failure(client().getVerification(id));
    expect(error.kind).toBe('invalid');
    expect(error.status).toBeUndefined();
    expect(error.detail).toBeUndefined();
    expect(upstream.requests).toHaveLength(0);
  });

  it('accepts an id of exactly 200 characters', async () => {
    upstream.program(json(200, pendingRecord));
    await client().getVerification('y'.repeat(200));
    expect(upstream.requests).toHaveLength(1);
  });

  it('refuses an answer over 1 MB, declared or streamed', async () => {
    const huge = JSON.stringify({ ...pendingRecord, padding: 'x'.repeat(MAX_RESPONSE_BYTES) });
    upstream.program(text(200, huge, 'application/json'));
    expect((await failure(client().getVerification('abc'))).kind).toBe('protocol');

    const half = 'x'.repeat(MAX_RESPONSE_BYTES / 2);
    upstream.program(chunked(200, ['{"padding":"', half, half, half, '"}']));
    expect((await failure(client().getVerification('abc'))).kind).toBe('protocol');
    expect(upstream.requests).toHaveLength(2);
  });

  it('waits a jittered, growing backoff between attempts', async () => {
    const delays: number[] = [];
    const sleep = async (ms: number) => {
      delays.push(ms);
    };
    upstream.program(text(503, 'busy'));

    await failure(client({ sleep, random: () => 0.5 }).getVerification('abc'));
    expect(delays).toEqual([100, 200]);

    delays.length = 0;
    await failure(client({ sleep, random: () => 0.999 }).getVerification('abc'));
    expect(delays[0]).toBeLessThan(200);
    expect(delays[1]).toBeLessThan(400);
    expect(delays[1]).toBeGreaterThan(delays[0]!);

    delays.length = 0;
    await failure(client({ sleep, random: () => 0 }).getVerification('abc'));
    expect(delays).toEqual([0, 0]);
  });
});

describe('the connection', () => {
  it('keeps one connection alive for calls one after another', async () => {
    upstream.program(json(200, pendingRecord));
    for (let i = 0; i < 3; i += 1) await client().getVerification('abc');
    expect(upstream.requests).toHaveLength(3);
    expect(upstream.connections).toBe(1);
  });

  it('refuses an answer cut off in the middle of its body', async () => {
    upstream.program(cutOffMidBody);
    const error = await failure(client().createVerification(createBody));
    expect(error.kind).toBe('unavailable');
    expect(error.status).toBeUndefined();
  });

  it('speaks TLS to an https:// service, and a server that does not is unavailable', async () => {
    // A plain TCP listener: it records the first byte it gets, then hangs up. A TLS client
    // starts with a handshake record (content type 22); plain HTTP would start with "GET".
    const firstBytes: number[] = [];
    const server = net.createServer((socket) => {
      socket.once('data', (data) => {
        firstBytes.push(data[0]!);
        socket.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const error = await failure(client({ baseUrl: `https://127.0.0.1:${port}` }).getVerification('abc'));
      expect(error.kind).toBe('unavailable');
      expect(firstBytes).toEqual([22]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('backoffDelayMs', () => {
  it('stays within [0, min(1 s, 200 ms·2^retry))', () => {
    for (let retry = 0; retry < 8; retry += 1) {
      const ceiling = Math.min(1_000, 200 * 2 ** retry);
      expect(backoffDelayMs(retry, () => 0)).toBe(0);
      expect(backoffDelayMs(retry, () => 0.999_999)).toBeLessThan(ceiling);
      expect(backoffDelayMs(retry, () => 0.999_999)).toBeGreaterThanOrEqual(ceiling - 1);
    }
    expect(backoffDelayMs(10, () => 1)).toBeLessThanOrEqual(1_000);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  it('reads delta-seconds and HTTP dates, and nothing else', () => {
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:01:30 GMT', now)).toBe(90);
    expect(parseRetryAfter('Mon, 31 Dec 2029 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});

describe('normalizeVerificationId', () => {
  it('keeps opaque ids as they are, apart from surrounding whitespace', () => {
    expect(normalizeVerificationId(' 0b6f-ÄÖ%2F+=~ ')).toBe('0b6f-ÄÖ%2F+=~');
  });
});

describe('getSandboxWebhooks', () => {
  const log = {
    endpoints: [
      {
        id: 'ep-1',
        url: 'http://127.0.0.1:3000/api/webhooks/verification-service',
        createdAt: '2030-01-01T10:00:00.000Z',
        disabledAt: null,
      },
    ],
    messages: [
      {
        id: 'msg_1',
        type: 'verification.completed',
        verificationId: 'ver-1',
        status: 'completed',
        createdAt: '2030-01-01T10:05:00.000Z',
        deliveries: [
          {
            endpointId: 'ep-1',
            url: 'http://127.0.0.1:3000/api/webhooks/verification-service',
            status: 'pending',
            attemptCount: 1,
            nextAttemptAt: '2030-01-01T10:05:30.000Z',
            attempts: [{ attemptedAt: '2030-01-01T10:05:00.000Z', responseStatus: null, error: 'timeout', durationMs: 10_000 }],
          },
        ],
      },
    ],
  };

  it('GETs /v1/sandbox/webhooks with the Bearer key and returns the log', async () => {
    upstream.program(json(200, log));
    expect(await client().getSandboxWebhooks()).toEqual(log);
    expect(upstream.requests.map((r) => `${r.method} ${r.url} ${r.headers.authorization}`)).toEqual([
      `GET /v1/sandbox/webhooks Bearer ${API_KEY}`,
    ]);
  });

  it('reports an answer of the wrong shape as a protocol error', async () => {
    upstream.program(json(200, { endpoints: [], messages: [{ id: 'msg_1' }] }));
    const error = await failure(client().getSandboxWebhooks());
    expect(error.kind).toBe('protocol');
  });
});
