// The logger's promise is that nothing secret or personal reaches a log line, whatever the calling
// code hands it. These tests drive the real pino logger into a captured stream and read the lines
// back, so a broken redaction, scrubbing rule or error serializer fails here.
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import canaries from '@/e2e/support/canaries.json' with { type: 'json' };
import { createLogger, type LogLevel, scrubText } from './log';

const API_KEY = canaries.VERIFICATION_API_KEY;
const WEBHOOK_SECRET = canaries.WEBHOOK_SECRET;
const AUTH_SECRET = canaries.BETTER_AUTH_SECRET;
// The shapes the sandbox generates at start (lib/sandbox/admin/api-keys.ts, lib/sandbox/webhook-sender/endpoints.ts).
const GENERATED_KEY = 'vd_sk_Zx8-q1_WmA3nB5cD7eF9gH1iJ3kL5mN7oP9qR1s';
const GENERATED_SECRET = 'whsec_3q2+7w8tTHl0Vd0Yt3N0a1UkQm9xZk5hT2ZpZ3ZUa1E=';
const BEARER = 'eyJhbGciOiJIUzI1NiJ9.c2Vzc2lvbg.c2lnbmF0dXJl';
const COOKIE = 'better-auth.session_token=Q0FOQVJZc2Vzc2lvbg.c2lnbmVk';
const EMAIL = 'jane.roe+kyc@example.co.uk';
const PHONE = '+4915112345678';
const PHONE_SPACED = '+49 151 1234 5678';
const ID = '0b8f6a4e-5d1c-4f7a-9e2b-3c4d5e6f7a8b';
const DIGIT_ID = '12345678-1234-4123-8123-123456789012';

const FORBIDDEN = [
  API_KEY,
  WEBHOOK_SECRET,
  AUTH_SECRET,
  GENERATED_KEY,
  GENERATED_SECRET,
  BEARER,
  COOKIE,
  EMAIL,
  PHONE,
  PHONE_SPACED,
  'jane.roe',
];

function capture(level: LogLevel = 'trace') {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString('utf8')
          .split('\n')
          .filter((line) => line !== ''),
      );
      done();
    },
  });
  const logger = createLogger({ level, destination: stream });
  return {
    logger,
    lines,
    text: () => lines.join('\n'),
    records: () => lines.map((line) => JSON.parse(line) as Record<string, any>),
    /** The first line, parsed; fails when nothing was written. */
    first: (): Record<string, any> => {
      expect(lines.length).toBeGreaterThan(0);
      return JSON.parse(lines[0]!) as Record<string, any>;
    },
  };
}

function expectClean(text: string) {
  for (const value of FORBIDDEN) expect(text, `log output contains ${value}`).not.toContain(value);
}

describe('lib/platform/log: messages', () => {
  it('scrubs keys, secrets, credentials, e-mail addresses and phone numbers from the message', () => {
    const { logger, text, first } = capture();
    logger.info(
      `calling with ${API_KEY} / ${GENERATED_KEY}, signed with ${WEBHOOK_SECRET} and ${GENERATED_SECRET}; ` +
        `Authorization: Bearer ${BEARER}; person ${EMAIL}, ${PHONE} or ${PHONE_SPACED}; verification ${ID}`,
    );
    expectClean(text());
    const record = first();
    expect(record.msg).toContain('vd_sk_[redacted]');
    expect(record.msg).toContain('whsec_[redacted]');
    expect(record.msg).toContain('Bearer [redacted]');
    expect(record.msg).toContain('person [email], [phone] or [phone]');
    expect(record.msg).toContain(`verification ${ID}`);
  });

  it('scrubs values interpolated into the message, strings and objects alike', () => {
    const { logger, text, first } = capture();
    logger.warn('sent to %s (%s), key %s, payload %j', EMAIL, PHONE, API_KEY, { email: EMAIL, note: `call ${PHONE}`, id: ID });
    expectClean(text());
    expect(first().msg).toContain(ID);
  });
});

describe('lib/platform/log: fields', () => {
  it('censors sensitive fields by name, at the top and nested, and keeps ids and ordinary fields', () => {
    const { logger, text, first } = capture();
    logger.info(
      {
        verificationId: ID,
        keyId: DIGIT_ID,
        apiKey: API_KEY,
        key: GENERATED_KEY,
        secret: AUTH_SECRET,
        webhookSecret: WEBHOOK_SECRET,
        password: 'correct horse battery staple',
        token: BEARER,
        email: EMAIL,
        phone: PHONE,
        req: { method: 'POST', headers: { authorization: `Bearer ${BEARER}`, cookie: COOKIE, 'content-type': 'application/json' } },
        res: { status: 200, headers: { 'set-cookie': [COOKIE] } },
        person: { email: EMAIL, phone: PHONE, language: 'de' },
        deep: { a: { b: { c: { d: { personEmail: EMAIL, recipientPhone: PHONE, accessToken: BEARER } } } } },
        attempts: 3,
        durationMs: 1500,
        sentAt: '2025-11-22T08:29:16.123Z',
        upstream: 'http://127.0.0.1:3200/v1/verifications/new',
      },
      'verification created',
    );
    expectClean(text());
    const record = first();
    expect(record.msg).toBe('verification created');
    expect(record.verificationId).toBe(ID);
    expect(record.keyId).toBe(DIGIT_ID);
    for (const field of ['apiKey', 'key', 'secret', 'webhookSecret', 'password', 'token', 'email', 'phone'])
      expect(record[field], field).toBe('[redacted]');
    expect(record.req.headers.authorization).toBe('[redacted]');
    expect(record.req.headers.cookie).toBe('[redacted]');
    expect(record.req.headers['content-type']).toBe('application/json');
    expect(record.res.headers['set-cookie']).toBe('[redacted]');
    expect(record.person).toEqual({ email: '[redacted]', phone: '[redacted]', language: 'de' });
    expect(record.deep.a.b.c.d).toEqual({ personEmail: '[redacted]', recipientPhone: '[redacted]', accessToken: '[redacted]' });
    expect(record).toMatchObject({
      attempts: 3,
      durationMs: 1500,
      sentAt: '2025-11-22T08:29:16.123Z',
      upstream: 'http://127.0.0.1:3200/v1/verifications/new',
    });
  });

  it('scrubs free text inside any string field, array or Headers object', () => {
    const { logger, text, first } = capture();
    logger.info({
      note: `asked ${EMAIL} to call ${PHONE_SPACED}`,
      recipients: [EMAIL, PHONE],
      headers: new Headers({ Authorization: `Bearer ${BEARER}` }),
      url: new URL(`https://x.test/?phone=%2B4915112345678&mail=${encodeURIComponent(EMAIL)}`),
    });
    expectClean(text());
    expect(text()).not.toContain('4915112345678');
    expect(first().note).toBe('asked [email] to call [phone]');
  });

  it('scrubs the bindings of a child logger and keeps its area', () => {
    const { logger, text, first } = capture();
    logger.child({ area: 'webhooks', contact: EMAIL }).info({ webhookId: 'msg_2Kq8', verificationId: ID }, 'webhook applied');
    expectClean(text());
    expect(first()).toMatchObject({ area: 'webhooks', webhookId: 'msg_2Kq8', verificationId: ID, msg: 'webhook applied', level: 'info' });
  });
});

describe('lib/platform/log: errors', () => {
  class UpstreamError extends Error {
    readonly kind = 'protocol';
    readonly status = 502;
    readonly body = JSON.stringify({ email: 'leak@example.org', secret: 'upstream-body-secret' });
    readonly request = { headers: { authorization: `Bearer ${BEARER}` } };
  }

  it('keeps type, scrubbed message, kind, status and frames of an error; never its other properties', () => {
    const { logger, text, first } = capture();
    const error = new UpstreamError(`service refused key ${API_KEY} for ${EMAIL}`);
    logger.error({ err: error, verificationId: ID }, 'read failed');
    expectClean(text());
    expect(text()).not.toContain('leak@example.org');
    expect(text()).not.toContain('upstream-body-secret');
    const record = first();
    expect(record.err).toMatchObject({
      type: 'Error',
      kind: 'protocol',
      status: 502,
      message: 'service refused key vd_sk_[redacted] for [email]',
    });
    expect(record.err.stack).toMatch(/^\s+at /);
    expect(record.err).not.toHaveProperty('body');
    expect(record.verificationId).toBe(ID);
  });

  it('scrubs the message pino takes from an error logged alone or as the only field', () => {
    const { logger, text, records } = capture();
    logger.error(new Error(`no account for ${EMAIL}`));
    logger.error({ err: new Error(`no account for ${PHONE}`) });
    logger.warn(new Error('ignored'), `retry for ${EMAIL}`);
    expectClean(text());
    expect(records().map((record) => record.msg)).toEqual(['no account for [email]', 'no account for [phone]', 'retry for [email]']);
  });

  it('scrubs causes, and withholds the parameters of a failed query (they hold names and e-mails)', () => {
    const { logger, text, first } = capture();
    const cause = new Error(`duplicate key value violates unique constraint for ${EMAIL}`);
    const failedQuery = new Error(`Failed query: insert into "register" ("name", "email") values ($1, $2)\nparams: Jane Roe,${EMAIL}`, {
      cause,
    });
    logger.error({ err: failedQuery }, 'register write failed');
    expectClean(text());
    expect(text()).not.toContain('Jane Roe');
    const record = first();
    expect(record.err.message).toBe('Failed query (parameters withheld)');
    expect(record.err.cause.message).toBe('duplicate key value violates unique constraint for [email]');
  });

  it('makes errors safe wherever they sit in the logged object', () => {
    const { logger, text } = capture();
    logger.error({ failures: [new Error(`bounce from ${EMAIL}`)], context: { error: new UpstreamError(API_KEY) } }, 'delivery failed');
    expectClean(text());
    expect(text()).not.toContain('leak@example.org');
  });
});

describe('lib/platform/log: levels', () => {
  it('writes nothing when silent and drops what is below the level', () => {
    const silent = capture('silent');
    silent.logger.error('boom');
    expect(silent.lines).toEqual([]);
    const warn = capture('warn');
    warn.logger.info('routine');
    warn.logger.warn('odd');
    expect(warn.records().map((record) => [record.level, record.msg])).toEqual([['warn', 'odd']]);
  });

  it('writes one JSON object per line with an ISO time', () => {
    const { logger, first } = capture();
    logger.child({ area: 'sandbox' }).info('sweep done');
    expect(first()).toMatchObject({
      level: 'info',
      area: 'sandbox',
      msg: 'sweep done',
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
  });
});

describe('scrubText', () => {
  it.each([
    ['+4915112345678'],
    ['+49 151 1234 5678'],
    ['+1 (555) 123-4567'],
    ['0151 1234567'],
    ['(030) 1234-5678'],
    ['555-123-4567'],
    ['01.23.45.67.89'],
    ['%2B4915112345678'],
  ])('hides the phone number %s', (phone) => {
    expect(scrubText(`call ${phone} now`)).toBe('call [phone] now');
  });

  it.each([
    [`verification ${ID}`],
    [`key ${DIGIT_ID}`],
    ['purged 1234567 entries'],
    ['took 1500 ms on port 3200'],
    ['kept until 2025-11-22 08:29:16'],
    ['listening on 192.168.100.200'],
    ['HTTP 503 after 3 attempts'],
    ['Webhook delivery refused: stale_timestamp'],
  ])('leaves %s alone', (text) => {
    expect(scrubText(text)).toBe(text);
  });

  it('hides every e-mail address, whatever surrounds it', () => {
    fc.assert(
      fc.property(fc.string(), fc.emailAddress(), fc.string(), (before, email, after) => {
        expect(scrubText(`${before} ${email} ${after}`)).not.toContain(email);
      }),
      { numRuns: 300 },
    );
  });

  it('hides every generated API key and webhook secret, also when truncated', () => {
    expect(scrubText(`${GENERATED_KEY.slice(0, 20)}…`)).toBe('vd_sk_[redacted]…');
    expect(scrubText(`secrets: ${WEBHOOK_SECRET},${GENERATED_SECRET}`)).toBe('secrets: whsec_[redacted],whsec_[redacted]');
    expect(scrubText(`Basic ${Buffer.from('user:pass').toString('base64')}`)).toBe('Basic [redacted]');
  });
});
