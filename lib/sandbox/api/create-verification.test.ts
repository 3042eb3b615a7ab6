// POST /v1/verifications/new against the real route handler and an in-memory database:
// every row of contract §2.1, §2.2 and §4.1, and how bad input is answered (§7, §8).
// Simultaneous requests, which do depend on the store, are in create-verification-concurrency.test.ts.
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { POST } from '@/app/(sandbox)/v1/verifications/new/route';
import { closeDatabases, rowsOf } from '@/lib/platform/database';
import type { SandboxDb } from '@/lib/sandbox/db';
import { createVerification } from '@/lib/sandbox/records/verifications';
import { outbox, verifications, webhookDeliveries, webhookMessages } from '@/lib/sandbox/schema';
import { hashSecret } from '@/lib/sandbox/secrets';
import { addWebhookEndpoint } from '@/lib/sandbox/webhook-sender/endpoints';
import { captureLogs } from '@/test/support/logs';
import {
  createRequest,
  createTestCompany,
  expectError,
  type TestCompany,
  UUID_V4,
  useInMemorySandbox,
  validBody,
  without,
} from '@/test/support/sandbox';
import { parseCreateVerificationInput } from './create-verification-input';

let db: SandboxDb;
let company: TestCompany;

beforeAll(async () => {
  db = await useInMemorySandbox();
  company = await createTestCompany(db);
});

afterAll(async () => {
  await closeDatabases();
});

const post = (body: unknown, headers?: Record<string, string>) => POST(createRequest(body, { apiKey: company.apiKey, headers }), undefined);

async function created(body: unknown): Promise<{ message: string; verificationId: string; link?: string }> {
  const response = await post(body);
  const json = await response.json();
  expect(response.status, JSON.stringify(json)).toBe(200);
  return json;
}

async function storedRow(id: string) {
  const [row] = await db.select().from(verifications).where(eq(verifications.id, id));
  return row!;
}

async function outboxOf(id: string) {
  const rows = await db.select().from(outbox).where(eq(outbox.verificationId, id));
  return rows.map(({ channel, recipient, language, link, companyId }) => ({ channel, recipient, language, link, companyId }));
}

const LINK = /^http:\/\/localhost\/sandbox\/verify\/([A-Za-z0-9_-]{43})$/;

describe('success (contract §2.2)', () => {
  it('answers 200 with exactly the message and the id, and no link by default', async () => {
    const response = await post(validBody());
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store, no-transform');
    const body = await response.json();
    expect(Object.keys(body)).toEqual(['message', 'verificationId']);
    expect(body.message).toBe('Verification request created successfully.');
    expect(body.verificationId).toMatch(UUID_V4);
  });

  it('gives every request its own id', async () => {
    const first = await created(validBody());
    const second = await created(validBody());
    expect(first.verificationId).not.toBe(second.verificationId);
  });

  it('stores the request for the calling company, pending, with the trimmed values', async () => {
    const { verificationId } = await created(
      validBody({ name: '  Jane Doe  ', chosenPurpose: '  custom purpose  ', email: ' jane@example.com ', phonenumber: '+32470123456' }),
    );
    const row = await storedRow(verificationId);
    expect(row).toMatchObject({
      companyId: company.companyId,
      name: 'Jane Doe',
      purpose: 'custom purpose',
      email: 'jane@example.com',
      phoneNumber: '+32470123456',
      language: 'en',
      status: 'pending',
      identifiedName: null,
      identifiedDate: null,
      verificationMethod: null,
      failedReason: null,
    });
  });
});

describe('defaults (contract §2.1)', () => {
  it('smsNotification false, shareableLink false, emailNotification true when left out', async () => {
    const { verificationId, link } = await created(validBody({ phonenumber: '+32470123456' }));
    expect(link).toBeUndefined();
    const row = await storedRow(verificationId);
    expect({ sms: row.smsNotification, shareable: row.shareableLink, email: row.emailNotification }).toEqual({
      sms: false,
      shareable: false,
      email: true,
    });
    // The defaults act: an e-mail, and no SMS although a phone number was given.
    expect((await outboxOf(verificationId)).map((m) => m.channel)).toEqual(['email']);
  });

  it('keeps explicit values that differ from the defaults', async () => {
    const { verificationId } = await created(
      validBody({ phonenumber: '+32470123456', smsNotification: true, shareableLink: true, emailNotification: false }),
    );
    const row = await storedRow(verificationId);
    expect({ sms: row.smsNotification, shareable: row.shareableLink, email: row.emailNotification }).toEqual({
      sms: true,
      shareable: true,
      email: false,
    });
  });
});

describe('shareable link (contract §2.2, §4.1 rule 1)', () => {
  it('returns a link to the sandbox person page, with a token that is not the id', async () => {
    const body = await created(validBody({ shareableLink: true }));
    expect(Object.keys(body)).toEqual(['message', 'verificationId', 'link']);
    const match = LINK.exec(body.link!);
    expect(match, body.link).not.toBeNull();
    const token = match![1]!;
    expect(body.link).not.toContain(body.verificationId);
    expect(token).not.toBe(body.verificationId);
    // Only the token's hash is stored.
    const row = await storedRow(body.verificationId);
    expect(row.accessTokenHash).toBe(hashSecret(token));
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('gives each request a different token', async () => {
    const first = await created(validBody({ shareableLink: true }));
    const second = await created(validBody({ shareableLink: true }));
    expect(first.link).not.toBe(second.link);
  });

  it('does not need an e-mail address', async () => {
    const body = await created(without(validBody({ shareableLink: true }), 'email'));
    expect(body.link).toMatch(LINK);
    expect((await storedRow(body.verificationId)).email).toBeNull();
  });

  it('sends no e-mail even when an address is given and emailNotification is true', async () => {
    const body = await created(validBody({ shareableLink: true, emailNotification: true }));
    expect(await outboxOf(body.verificationId)).toEqual([]);
  });

  it('has no link when shareableLink is false', async () => {
    const body = await created(validBody({ shareableLink: false }));
    expect(body).not.toHaveProperty('link');
  });

  it('uses APP_URL (without a trailing slash) as the base when set', async () => {
    process.env.APP_URL = 'https://desk.example.com/';
    try {
      const body = await created(validBody({ shareableLink: true }));
      expect(body.link).toMatch(/^https:\/\/desk\.example\.com\/sandbox\/verify\/[A-Za-z0-9_-]{43}$/);
    } finally {
      delete process.env.APP_URL;
    }
  });

  it("uses the request's origin without APP_URL", async () => {
    const request = new Request('https://sandbox.test:8443/v1/verifications/new', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${company.apiKey}` },
      body: JSON.stringify(validBody({ shareableLink: true })),
    });
    const body = await (await POST(request, undefined)).json();
    expect(body.link).toMatch(/^https:\/\/sandbox\.test:8443\/sandbox\/verify\/[A-Za-z0-9_-]{43}$/);
  });
});

describe('notifications recorded in the outbox (contract §4.1 rules 1-3)', () => {
  const email = 'jane.doe@example.com';
  const phone = '+32470123456';
  const cases: { flags: Record<string, boolean>; channels: { channel: string; recipient: string }[] }[] = [
    { flags: {}, channels: [{ channel: 'email', recipient: email }] },
    { flags: { emailNotification: true }, channels: [{ channel: 'email', recipient: email }] },
    { flags: { emailNotification: false }, channels: [] },
    {
      flags: { smsNotification: true },
      channels: [
        { channel: 'email', recipient: email },
        { channel: 'sms', recipient: phone },
      ],
    },
    { flags: { smsNotification: true, emailNotification: false }, channels: [{ channel: 'sms', recipient: phone }] },
    { flags: { shareableLink: true }, channels: [] },
    { flags: { shareableLink: true, smsNotification: true }, channels: [{ channel: 'sms', recipient: phone }] },
    { flags: { shareableLink: true, smsNotification: true, emailNotification: true }, channels: [{ channel: 'sms', recipient: phone }] },
    { flags: { smsNotification: false }, channels: [{ channel: 'email', recipient: email }] },
  ];

  it.each(cases)('$flags → $channels', async ({ flags, channels }) => {
    const body = await created(validBody({ phonenumber: phone, language: 'nl', ...flags }));
    const messages = await outboxOf(body.verificationId);
    expect(messages.map(({ channel, recipient }) => ({ channel, recipient })).sort((a, b) => a.channel.localeCompare(b.channel))).toEqual(
      channels,
    );
    for (const message of messages) {
      expect(message.language).toBe('nl');
      expect(message.companyId).toBe(company.companyId);
      expect(message.link).toMatch(LINK);
      expect(message.link).not.toContain(body.verificationId);
      // The link in a message is the same one returned to the caller when it is shared.
      if (body.link) expect(message.link).toBe(body.link);
    }
  });

  it('records the person link, whose token matches the stored hash', async () => {
    const body = await created(validBody());
    const [message] = await outboxOf(body.verificationId);
    const token = LINK.exec(message!.link)![1]!;
    expect((await storedRow(body.verificationId)).accessTokenHash).toBe(hashSecret(token));
  });
});

describe('required fields (contract §2.1, §4.1 rule 4)', () => {
  it.each([
    ['name', 'name is required'],
    ['chosenPurpose', 'chosenPurpose is required'],
    ['language', 'language is required'],
    ['email', 'email is required unless shareableLink is true'],
  ])('without %s → 400 %j', async (field, message) => {
    await expectError(await post(without(validBody(), field)), 400, message);
  });

  it.each(['name', 'chosenPurpose', 'language'])('%s stays required with shareableLink true', async (field) => {
    const response = await post(without(validBody({ shareableLink: true }), field));
    await expectError(response, 400, `${field} is required`);
  });

  it('email is required when shareableLink is false explicitly', async () => {
    const response = await post(without(validBody({ shareableLink: false }), 'email'));
    await expectError(response, 400, 'email is required unless shareableLink is true');
  });

  it('email is required even when emailNotification is false (the contract ties it only to shareableLink)', async () => {
    const response = await post(without(validBody({ emailNotification: false }), 'email'));
    await expectError(response, 400, 'email is required unless shareableLink is true');
  });

  it('phonenumber is required when smsNotification is true', async () => {
    await expectError(await post(validBody({ smsNotification: true })), 400, 'phonenumber is required when smsNotification is true');
    await expectError(
      await post(validBody({ smsNotification: true, shareableLink: true })),
      400,
      'phonenumber is required when smsNotification is true',
    );
  });

  it('phonenumber is optional otherwise', async () => {
    await created(validBody());
    await created(validBody({ smsNotification: false }));
  });

  it('an empty object names the first missing field', async () => {
    await expectError(await post({}), 400, 'name is required');
  });

  it('stores nothing when the input is refused', async () => {
    const before = await db.select().from(verifications).where(eq(verifications.companyId, company.companyId));
    await post(without(validBody(), 'name'));
    const after = await db.select().from(verifications).where(eq(verifications.companyId, company.companyId));
    expect(after.length).toBe(before.length);
  });
});

describe('phonenumber in E.164 (contract §8)', () => {
  it.each([
    '+32470123456',
    '+12', // a first digit and one more: the shortest E.164 allows
    '+123456789012345', // 15 digits, the longest
    '+447911123456',
    '+919876543210',
  ])('accepts %s', async (phonenumber) => {
    const body = await created(validBody({ phonenumber, smsNotification: true }));
    expect((await outboxOf(body.verificationId)).find((m) => m.channel === 'sms')?.recipient).toBe(phonenumber);
  });

  it.each([
    ['+1234567890123456', '16 digits'],
    ['+0470123456', 'leading 0 after the plus'],
    ['32470123456', 'missing plus'],
    ['0032470123456', 'international prefix instead of plus'],
    ['+32abc123456', 'letters'],
    ['+32 470 12 34 56', 'spaces'],
    ['+32-470-123456', 'dashes'],
    ['+1', 'one digit only'],
    ['+', 'plus only'],
    ['', 'empty'],
    ['+32470123456 ', 'trailing space'],
    ['++32470123456', 'two plus signs'],
    ['+３２470123456', 'full-width digits'],
  ])('refuses %j (%s)', async (phonenumber) => {
    await expectError(await post(validBody({ phonenumber })), 400, 'phonenumber must be in E.164 format, e.g. +32470123456');
  });
});

describe('language (contract §8)', () => {
  it.each(['en', 'fr', 'nl'])('accepts %s', async (language) => {
    const body = await created(validBody({ language }));
    expect((await storedRow(body.verificationId)).language).toBe(language);
  });

  it.each(['de', 'EN', 'Fr', 'en-GB', 'english', '', ' en'])('refuses %j', async (language) => {
    await expectError(await post(validBody({ language })), 400, 'language must be one of en, fr, nl');
  });
});

describe('chosenPurpose is free text (contract §2.1)', () => {
  it.each(['legal_obligations', 'processing_gdpr_request', 'ensuring_compliance', 'Onboarding of a new supplier', 'x'])(
    'accepts %j and stores it as given',
    async (chosenPurpose) => {
      const body = await created(validBody({ chosenPurpose }));
      expect((await storedRow(body.verificationId)).purpose).toBe(chosenPurpose);
    },
  );
});

describe('limits on text fields', () => {
  it.each([
    ['name', '', 'name must not be empty'],
    ['name', '   ', 'name must not be empty'],
    ['name', 'a'.repeat(201), 'name must be at most 200 characters'],
    ['chosenPurpose', '', 'chosenPurpose must not be empty'],
    ['chosenPurpose', ' \t ', 'chosenPurpose must not be empty'],
    ['chosenPurpose', 'p'.repeat(501), 'chosenPurpose must be at most 500 characters'],
    ['email', `${'a'.repeat(64)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.eee.com`, 'email must be at most 254 characters'],
    ['email', 'not-an-address', 'email must be a valid e-mail address'],
    ['email', 'jane@', 'email must be a valid e-mail address'],
    ['email', '@example.com', 'email must be a valid e-mail address'],
    ['email', 'jane doe@example.com', 'email must be a valid e-mail address'],
    ['email', '', 'email must be a valid e-mail address'],
  ])('%s %j → 400 %j', async (field, value, message) => {
    await expectError(await post(validBody({ [field]: value })), 400, message);
  });

  it('accepts the longest allowed values', async () => {
    const email = `${'a'.repeat(64)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(63)}.com`;
    expect(email.length).toBe(254);
    const body = await created(validBody({ name: 'n'.repeat(200), chosenPurpose: 'p'.repeat(500), email }));
    const row = await storedRow(body.verificationId);
    expect([row.name.length, row.purpose.length, row.email]).toEqual([200, 500, email]);
  });

  it('an e-mail address is validated even with a shareable link', async () => {
    await expectError(await post(validBody({ shareableLink: true, email: 'nope' })), 400, 'email must be a valid e-mail address');
  });
});

describe('wrong types (every field)', () => {
  const wrongStrings = [42, true, null, ['x'], { value: 'x' }];
  const wrongBooleans = ['true', 1, 0, null, 'yes', [], {}];
  const rows: [string, unknown, string][] = [
    ...['email', 'name', 'chosenPurpose', 'phonenumber'].flatMap((field) =>
      wrongStrings.map((value): [string, unknown, string] => [field, value, `${field} must be a string`]),
    ),
    ...wrongStrings.map((value): [string, unknown, string] => ['language', value, 'language must be one of en, fr, nl']),
    ...['smsNotification', 'shareableLink', 'emailNotification'].flatMap((field) =>
      wrongBooleans.map((value): [string, unknown, string] => [field, value, `${field} must be a boolean`]),
    ),
  ];

  it.each(rows)('%s = %j → 400 %j', async (field, value, message) => {
    await expectError(await post(validBody({ phonenumber: '+32470123456', [field]: value })), 400, message);
  });
});

describe('unknown fields', () => {
  it.each([
    ['{"foo":1}', 'foo'],
    ['{"Email":"jane@example.com"}', 'Email'],
    ['{"phoneNumber":"+32470123456"}', 'phoneNumber'],
    ['{"__proto__":{"shareableLink":true}}', '__proto__'],
    ['{"constructor":{"prototype":{}}}', 'constructor'],
    ['{"":"empty key"}', ''],
  ])('%s → 400 naming the field', async (extra, field) => {
    const base = JSON.stringify(validBody());
    const raw = `${base.slice(0, -1)},${extra.slice(1)}`;
    await expectError(await post(raw), 400, `Unknown field: ${field}`);
  });

  it('a __proto__ key does not change defaults for the request', async () => {
    const raw = `{"__proto__":{"shareableLink":true},"name":"Jane","chosenPurpose":"x","language":"en"}`;
    await expectError(await post(raw), 400, 'Unknown field: __proto__');
    expect(({} as Record<string, unknown>).shareableLink).toBeUndefined();
  });
});

describe('malformed bodies', () => {
  it.each(['{', '', ' ', '{"name": "Jane",}', "{'name':'Jane'}", 'undefined', '{"name":"Jane"} trailing'])(
    '%j → 400 not valid JSON',
    async (raw) => {
      await expectError(await post(raw), 400, 'Request body is not valid JSON');
    },
  );

  it('bytes that are not UTF-8 → 400 not valid JSON', async () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]); // {"n":"\xff\xfe"}
    const request = new Request('http://localhost/v1/verifications/new', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${company.apiKey}` },
      body: bytes,
    });
    await expectError(await POST(request, undefined), 400, 'Request body is not valid JSON');
  });

  it.each(['[]', '[{"name":"Jane"}]', 'null', '42', '"text"', 'true'])('%s → 400 not an object', async (raw) => {
    await expectError(await post(raw), 400, 'Request body must be a JSON object');
  });
});

describe('body size limit: 64 KB → 413', () => {
  const LIMIT = 64 * 1024;
  /** A valid body padded with JSON whitespace to exactly `size` bytes. */
  const padded = (size: number) => {
    const json = JSON.stringify(validBody());
    return `${json.slice(0, -1)}${' '.repeat(size - json.length)}}`;
  };

  it('accepts a body of exactly 64 KB', async () => {
    const body = padded(LIMIT);
    expect(new TextEncoder().encode(body).length).toBe(LIMIT);
    expect((await post(body)).status).toBe(200);
  });

  it('refuses one byte more (no Content-Length header)', async () => {
    await expectError(await post(padded(LIMIT + 1)), 413, 'Request body is too large (limit 64 KB)');
  });

  it('refuses on a declared Content-Length without reading the body', async () => {
    await expectError(await post(validBody(), { 'Content-Length': String(LIMIT + 1) }), 413, 'Request body is too large (limit 64 KB)');
  });

  it('caps a chunked (streamed) body while reading, and stops reading it', async () => {
    let pulled = 0;
    let cancelled = false;
    const chunk = new TextEncoder().encode(' '.repeat(16 * 1024));
    // 1 MB of valid JSON, delivered in chunks with no declared length.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(JSON.stringify(validBody()).slice(0, -1)));
      },
      pull(controller) {
        pulled += 1;
        if (pulled <= 64) controller.enqueue(chunk);
        else {
          controller.enqueue(new TextEncoder().encode('}'));
          controller.close();
        }
      },
      cancel() {
        cancelled = true;
      },
    });
    const request = new Request('http://localhost/v1/verifications/new', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${company.apiKey}` },
      body: stream,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    await expectError(await POST(request, undefined), 413, 'Request body is too large (limit 64 KB)');
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThan(10);
  });

  it('reads a small streamed body normally', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify(validBody()));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 10));
        controller.enqueue(bytes.slice(10));
        controller.close();
      },
    });
    const request = new Request('http://localhost/v1/verifications/new', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${company.apiKey}` },
      body: stream,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    expect((await POST(request, undefined)).status).toBe(200);
  });
});

describe('content type → 415 unless JSON', () => {
  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/jsonp',
    'application/json-patch+json',
    'application/json; charset=iso-8859-1',
  ])('%j → 415', async (contentType) => {
    await expectError(await post(validBody(), { 'Content-Type': contentType }), 415, /^Content-Type /);
  });

  it('no Content-Type → 415', async () => {
    const request = new Request('http://localhost/v1/verifications/new', {
      method: 'POST',
      headers: { Authorization: `Bearer ${company.apiKey}` },
      body: new TextEncoder().encode(JSON.stringify(validBody())),
    });
    expect(request.headers.get('content-type')).toBeNull();
    await expectError(await POST(request, undefined), 415, 'Content-Type must be application/json');
  });

  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"', 'application/json ; charset=UTF8'])(
    '%j is accepted',
    async (contentType) => {
      expect((await post(validBody(), { 'Content-Type': contentType })).status).toBe(200);
    },
  );
});

describe('authentication comes first (contract §5)', () => {
  it.each([
    ['no key, bad JSON', undefined, '{'],
    ['no key, wrong content type', undefined, 'text/plain'],
    ['bad key, invalid input', 'vd_sk_wrong', '{}'],
  ])('%s → 403', async (_case, apiKey, bodyOrType) => {
    const headers: Record<string, string> = bodyOrType === 'text/plain' ? { 'Content-Type': 'text/plain' } : {};
    const request = createRequest(bodyOrType === 'text/plain' ? validBody() : bodyOrType, { apiKey, headers });
    const response = await POST(request, undefined);
    expect(response.status).toBe(403);
  });
});

describe('server errors → 500 without details', () => {
  it('answers 500 Internal server error, logs no personal data, and leaves no half-created request', async () => {
    const other = await createTestCompany(db, { name: 'Failing company' });
    const logs = captureLogs();
    let logged = '';
    // Break the second insert of the transaction: the verification row must not survive alone.
    await db.execute('ALTER TABLE sandbox.outbox RENAME TO outbox_broken');
    try {
      const response = await POST(
        createRequest(validBody({ name: 'Very Private Person', email: 'private.person@example.com' }), { apiKey: other.apiKey }),
        undefined,
      );
      await expectError(response, 500, 'Internal server error');
      expect(logs.records().filter((record) => record.level === 'error')).toHaveLength(1);
      logged = logs.text();
    } finally {
      await db.execute('ALTER TABLE sandbox.outbox_broken RENAME TO outbox');
      logs.restore();
    }
    expect(logs.records()[0]).toMatchObject({ level: 'error', method: 'POST', path: '/v1/verifications/new' });
    expect(logged).not.toContain('Very Private Person');
    expect(logged).not.toContain('private.person@example.com');
    expect(logged).toContain('outbox'); // the database's own message is kept
    const rows = await db.select().from(verifications).where(eq(verifications.companyId, other.companyId));
    expect(rows).toEqual([]);
  });
});

describe('sandbox switched off', () => {
  afterEach(() => {
    process.env.SANDBOX = 'on';
    delete process.env.VERIFICATION_API_URL;
  });

  it('answers 404 Not found with SANDBOX=off, even to a valid request', async () => {
    process.env.SANDBOX = 'off';
    await expectError(await post(validBody()), 404, 'Not found');
  });

  it('answers 404 when a real service is configured and SANDBOX is unset', async () => {
    delete process.env.SANDBOX;
    process.env.VERIFICATION_API_URL = 'https://verify.example.com';
    await expectError(await post(validBody()), 404, 'Not found');
  });
});

describe('the created event', () => {
  it('is recorded for every create, with a delivery per active endpoint and none without one', async () => {
    const withoutEndpoint = await createTestCompany(db);
    const withEndpoint = await createTestCompany(db);
    await addWebhookEndpoint(db, { companyId: withEndpoint.companyId, url: 'https://hooks.example.com/verifications' });
    const input = parseCreateVerificationInput(validBody());
    if (!input.ok) throw new Error(input.error);

    const quiet = await createVerification(db, { companyId: withoutEndpoint.companyId, input: input.value, baseUrl: 'http://localhost' });
    const heard = await createVerification(db, { companyId: withEndpoint.companyId, input: input.value, baseUrl: 'http://localhost' });
    expect([quiet.deliveries, heard.deliveries]).toEqual([0, 1]);

    const eventsOf = (verificationId: string) =>
      db
        .select({ id: webhookMessages.id })
        .from(webhookMessages)
        .where(sql`${webhookMessages.payload} -> 'data' ->> 'verificationId' = ${verificationId}`);
    const [quietEvent] = await eventsOf(quiet.verificationId);
    const [heardEvent] = await eventsOf(heard.verificationId);
    expect(quietEvent && heardEvent).toBeTruthy();
    expect(await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.messageId, quietEvent!.id))).toHaveLength(0);
    expect(await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.messageId, heardEvent!.id))).toHaveLength(1);
  });
});

describe("the company's settings, read inside the creating statement", () => {
  it("sets access expiry and retention from the company's periods, and hands the SMTP e-mail the company's name", async () => {
    const custom = await createTestCompany(db, {
      name: 'Periods & Co',
      tokenValiditySeconds: 3_600,
      verificationRetentionSeconds: 2 * 86_400,
    });
    const input = parseCreateVerificationInput(
      validBody({ email: 'periods@example.com', smsNotification: true, phonenumber: '+32470123456' }),
    );
    if (!input.ok) throw new Error(input.error);
    const now = new Date('2026-03-01T10:00:00.123Z');

    const made = await createVerification(db, {
      companyId: custom.companyId,
      input: input.value,
      baseUrl: 'http://localhost',
      now,
      emailBySmtp: true,
    });

    const row = await storedRow(made.verificationId);
    expect(row.accessExpiresAt.toISOString()).toBe('2026-03-01T11:00:00.123Z');
    expect(row.keptUntil.toISOString()).toBe('2026-03-03T10:00:00.123Z');
    // The SMS lands in the outbox; the e-mail is left to SMTP, with what its text needs.
    expect((await outboxOf(made.verificationId)).map((message) => message.channel)).toEqual(['sms']);
    expect(made.outboxRows).toBe(1);
    expect(made.emails).toEqual([
      expect.objectContaining({
        recipient: 'periods@example.com',
        companyName: 'Periods & Co',
        accessExpiresAt: new Date('2026-03-01T11:00:00.123Z'),
      }),
    ]);
  });

  it('creates nothing at all for a company that does not exist', async () => {
    const input = parseCreateVerificationInput(validBody({ smsNotification: true, phonenumber: '+32470123456' }));
    if (!input.ok) throw new Error(input.error);
    const unknownCompany = '00000000-0000-4000-8000-000000000000';
    const [before] = await db
      .execute(sql`select count(*)::int as messages from ${webhookMessages}`)
      .then((result) => rowsOf<{ messages: number }>(result));

    await expect(createVerification(db, { companyId: unknownCompany, input: input.value, baseUrl: 'http://localhost' })).rejects.toThrow();

    expect(await db.select().from(verifications).where(eq(verifications.companyId, unknownCompany))).toEqual([]);
    expect(await db.select().from(outbox).where(eq(outbox.companyId, unknownCompany))).toEqual([]);
    const [after] = await db
      .execute(sql`select count(*)::int as messages from ${webhookMessages}`)
      .then((result) => rowsOf<{ messages: number }>(result));
    expect(after!.messages).toBe(before!.messages);
  });
});
