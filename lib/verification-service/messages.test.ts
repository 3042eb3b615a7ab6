// Staff-facing descriptions of failures, produced from real upstream faults: each says what
// happened and what to do, and none carries the upstream body (except an invalid create's
// detail), a stack, a URL or the key.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeCreateError } from '@/lib/verifications/create/service-error-words.server';
import { createVerificationServiceClient } from './client';
import { isTransient, VerificationServiceError, verificationServiceErrorKinds } from './errors';
import { type Behaviour, closedPortUrl, type FakeUpstream, hang, json, reset, startFakeUpstream, text } from './fake-upstream';
import { describeReadError, tryServiceRead } from './messages';

type ServiceOperation = 'create' | 'read';

/** The words staff read for a failed create or read (English: the tests' language). */
const describeServiceError = (error: unknown, operation: ServiceOperation) =>
  operation === 'create' ? describeCreateError(error) : describeReadError(error);

const API_KEY = 'msg-test-key-7f3a';
const MARKER = 'UPSTREAM-SECRET-BODY';

let upstream: FakeUpstream;

beforeEach(async () => {
  upstream = await startFakeUpstream();
});

afterEach(async () => {
  await upstream.close();
});

async function errorFrom(operation: ServiceOperation, behaviour: Behaviour, baseUrl = upstream.baseUrl): Promise<unknown> {
  upstream.program(behaviour);
  const client = createVerificationServiceClient({ baseUrl, apiKey: API_KEY, timeoutMs: 200, sleep: async () => {} });
  try {
    if (operation === 'create') {
      await client.createVerification({ email: 'a@b.example', name: 'A', chosenPurpose: 'audit', language: 'en' });
    } else {
      await client.getVerification('abc');
    }
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

const faults: Array<[string, Behaviour]> = [
  ['401', json(401, { error: MARKER })],
  ['403', json(403, { error: MARKER })],
  ['404', json(404, { error: MARKER })],
  ['429', json(429, { error: MARKER }, { 'Retry-After': '30' })],
  ['500 JSON', json(500, { error: `${MARKER} at /srv/app/db.js:12` })],
  ['502 HTML', text(502, `<html>${MARKER}</html>`, 'text/html')],
  ['503 HTML', text(503, `<html>${MARKER}</html>`, 'text/html')],
  ['200 non-JSON', text(200, `${MARKER} <html>`)],
  ['200 empty', text(200, '')],
  ['200 wrong shape', json(200, { unexpected: MARKER })],
  ['reset', reset],
  ['hang', hang],
];

function expectSafe(description: { title: string; message: string }, extra: string[] = []) {
  const shown = `${description.title}\n${description.message}`;
  for (const forbidden of [MARKER, API_KEY, '127.0.0.1', 'http://', '/v1/', '/srv/', ' at ', 'Error:', ...extra]) {
    expect(shown).not.toContain(forbidden);
  }
  expect(description.title.length).toBeGreaterThan(0);
  // "What to do" is always part of it.
  expect(description.message).toMatch(/try again|check|administrator|correct/i);
}

describe('describeServiceError', () => {
  for (const operation of ['create', 'read'] as const) {
    it.each(faults)(`${operation}: %s is described without the upstream body, a stack or an address`, async (_label, behaviour) => {
      const error = await errorFrom(operation, behaviour);
      const description = await describeServiceError(error, operation);
      expect(description.kind).toBe((error as VerificationServiceError).kind);
      expectSafe(description);
    });
  }

  it('describes a refused connection as unavailable: the service cannot be reached, and what to check', async () => {
    const error = await errorFrom('read', hang, await closedPortUrl());
    const description = await describeServiceError(error, 'read');
    expect(description.kind).toBe('unavailable');
    expect(description.title).toBe('Cannot reach the service');
    expect(description.message).toContain('The dashboard cannot reach the verification service');
    expect(description.message).toContain('in a minute');
    expect(description.message).toContain('VERIFICATION_API_URL');
    expectSafe(description, ['ECONNREFUSED']);
  });

  it('tells staff a create over a refused connection was certainly not created', async () => {
    const error = await errorFrom('create', hang, await closedPortUrl());
    const description = await describeServiceError(error, 'create');
    expect(description.title).toBe('Cannot reach the service');
    expect(description.message).toMatch(/^The request was not created: the dashboard cannot reach the verification service/);
    expect(description.message).not.toContain('may have been created');
    expectSafe(description, ['ECONNREFUSED']);
  });

  it('keeps "unavailable right now" for a reset connection, which may come after the request was sent', async () => {
    const reset = new VerificationServiceError('unavailable', 'create: could not reach the service (ECONNRESET)');
    expect((await describeServiceError(reset, 'create')).title).toBe('Service unavailable');
  });

  it('quotes the service on an invalid create, so staff know which field to fix', async () => {
    const error = await errorFrom('create', json(400, { error: 'language must be one of en, fr, nl' }));
    const description = await describeServiceError(error, 'create');
    expect(description.kind).toBe('invalid');
    expect(description.message).toContain('The service refused the request: language must be one of en, fr, nl.');
  });

  it('calls an invalid read an invalid id, without the upstream words', async () => {
    const error = await errorFrom('read', json(400, { error: MARKER }));
    const description = await describeServiceError(error, 'read');
    expect(description.message).toContain('That is not a valid verification id.');
    expectSafe(description);
  });

  it('treats an id refused before sending like an invalid read', async () => {
    const description = await describeServiceError(new VerificationServiceError('invalid', 'read verification: id is empty'), 'read');
    expect(description.message).toContain('That is not a valid verification id.');
  });

  it('warns that a timed-out create may exist, and says where to look', async () => {
    const error = await errorFrom('create', hang);
    const description = await describeServiceError(error, 'create');
    expect(description.kind).toBe('timeout');
    expect(description.message).toBe(
      'The service did not answer in time. The request may have been created anyway — check Recent requests before trying again.',
    );
  });

  it('mentions how long to wait when the service said so', async () => {
    const busy = await describeServiceError(await errorFrom('read', json(429, {}, { 'Retry-After': '30' })), 'read');
    expect(busy.message).toContain('in about 30 seconds');

    const later = await describeServiceError(
      new VerificationServiceError('unavailable', 'x', { status: 503, retryAfterSeconds: 120 }),
      'create',
    );
    expect(later.message).toContain('The verification service is unavailable right now');
    expect(later.message).toContain('in about 2 minutes');
  });

  it('explains a 403 on read as another organisation or a refused key', async () => {
    const description = await describeServiceError(await errorFrom('read', json(403, { error: MARKER })), 'read');
    expect(description.message).toContain("This verification belongs to another organisation, or the dashboard's API key was refused.");
  });

  it('points an administrator at the key on unauthorized', async () => {
    for (const operation of ['create', 'read'] as const) {
      const description = await describeServiceError(new VerificationServiceError('unauthorized', 'x', { status: 401 }), operation);
      expect(description.message).toContain("The dashboard's API key was refused. An administrator needs to check VERIFICATION_API_KEY.");
    }
  });

  it('says a protocol failure was not understood', async () => {
    const description = await describeServiceError(new VerificationServiceError('protocol', 'x', { status: 200 }), 'read');
    expect(description.message).toContain('The service sent an answer the dashboard could not understand');
  });

  it('has a description for every kind and both operations', async () => {
    for (const kind of verificationServiceErrorKinds) {
      for (const operation of ['create', 'read'] as const) {
        const description = await describeServiceError(new VerificationServiceError(kind, `internal ${MARKER}`), operation);
        expect(description.kind).toBe(kind);
        expectSafe(description);
      }
    }
  });

  it('tells staff to try a read again exactly when the kind is transient', async () => {
    for (const kind of verificationServiceErrorKinds) {
      const description = await describeServiceError(new VerificationServiceError(kind, 'x'), 'read');
      expect({ kind, tryAgain: /try again/i.test(description.message) }).toEqual({ kind, tryAgain: isTransient(kind) });
    }
  });

  it('turns anything else into a generic message that reveals nothing', async () => {
    const bug = new Error(`connect to postgres://admin:${MARKER}@db/app failed at /srv/app/lib/db.ts:3`);
    for (const error of [bug, 'a string', null, { kind: 'timeout' }]) {
      const description = await describeServiceError(error, 'create');
      expect(description.kind).toBe('unknown');
      expect(description.message).toContain('Something went wrong on our side');
      expectSafe(description, ['postgres']);
    }
  });
});

describe('tryServiceRead', () => {
  it('passes a value through and turns a service failure into a problem for the page', async () => {
    expect(await tryServiceRead(async () => 42)).toEqual({ ok: true, value: 42 });
    const failed = await tryServiceRead(async () => {
      throw new VerificationServiceError('unavailable', 'read: 503', { status: 503 });
    });
    expect(failed.ok).toBe(false);
    if (!failed.ok) {
      expect(failed.problem.kind).toBe('unavailable');
      expect(failed.problem.message).not.toContain('503');
    }
  });
});
