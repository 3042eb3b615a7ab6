// The error class keeps upstream text only where staff need it (kind 'invalid'), and bounded;
// each kind says whether it is worth trying again and which status the read route answers.
import { describe, expect, it } from 'vitest';
import {
  httpStatusFor,
  isRetryableRead,
  isTransient,
  MAX_DETAIL_LENGTH,
  VerificationServiceError,
  verificationServiceErrorKinds,
} from './errors';

describe('VerificationServiceError', () => {
  it('is an Error with a kind, a status and a name', () => {
    const error = new VerificationServiceError('unavailable', 'read verification: HTTP 503', { status: 503, retryAfterSeconds: 5 });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'VerificationServiceError', kind: 'unavailable', status: 503, retryAfterSeconds: 5 });
    expect(error.detail).toBeUndefined();
  });

  it('drops a detail for every kind but invalid', () => {
    for (const kind of verificationServiceErrorKinds) {
      const error = new VerificationServiceError(kind, 'x', { detail: 'upstream words' });
      expect(error.detail).toBe(kind === 'invalid' ? 'upstream words' : undefined);
    }
  });

  it('bounds and flattens the detail', () => {
    const error = new VerificationServiceError('invalid', 'x', { detail: `  a\r\n\u0007b  ${'é'.repeat(400)}` });
    expect(error.detail!.startsWith('a b éé')).toBe(true);
    expect(error.detail!.length).toBeLessThanOrEqual(MAX_DETAIL_LENGTH);

    const emoji = new VerificationServiceError('invalid', 'x', { detail: '😀'.repeat(400) });
    expect(emoji.detail!.length).toBeLessThanOrEqual(MAX_DETAIL_LENGTH);
    expect(emoji.detail).not.toMatch(/[\ud800-\udbff]…$/);
  });

  it('leaves an empty or blank detail out', () => {
    expect(new VerificationServiceError('invalid', 'x', { detail: ' \n ' }).detail).toBeUndefined();
  });
});

describe('what each kind means', () => {
  it('gives each kind the status the read route answers', () => {
    expect(Object.fromEntries(verificationServiceErrorKinds.map((kind) => [kind, httpStatusFor(kind)]))).toEqual({
      invalid: 400,
      forbidden: 403,
      not_found: 404,
      unauthorized: 502,
      protocol: 502,
      unavailable: 503,
      timeout: 504,
    });
  });

  it('calls only the passing failures transient', () => {
    expect(verificationServiceErrorKinds.filter(isTransient)).toEqual(['unavailable', 'timeout', 'protocol']);
  });

  it('retries a read only after a timeout or a gateway status', () => {
    const error = (kind: (typeof verificationServiceErrorKinds)[number], status?: number) =>
      new VerificationServiceError(kind, 'x', status === undefined ? {} : { status });
    expect(isRetryableRead(error('timeout'))).toBe(true);
    for (const status of [502, 503, 504]) expect(isRetryableRead(error('unavailable', status))).toBe(true);
    for (const status of [429, 500, undefined]) expect(isRetryableRead(error('unavailable', status))).toBe(false);
    expect(isRetryableRead(error('protocol', 200))).toBe(false);
    for (const kind of ['unauthorized', 'forbidden', 'not_found', 'invalid'] as const)
      expect(isRetryableRead(error(kind, 502))).toBe(false);
    expect(isRetryableRead(new Error('timeout'))).toBe(false);
  });
});
