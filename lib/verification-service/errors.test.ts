// The error class keeps upstream text only where staff need it (kind 'invalid'), and bounded.
import { describe, expect, it } from 'vitest';
import { MAX_DETAIL_LENGTH, VerificationServiceError, verificationServiceErrorKinds } from './errors';

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
