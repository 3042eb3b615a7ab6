import { describe, expect, it } from 'vitest';
import { systemErrorCode } from './system-error-code';

describe('systemErrorCode', () => {
  it('finds the code on the error or down its cause chain, as fetch wraps it', () => {
    expect(systemErrorCode(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe('ECONNRESET');
    const refused = new TypeError('fetch failed', {
      cause: new Error('inner', { cause: Object.assign(new Error('sys'), { code: 'ECONNREFUSED' }) }),
    });
    expect(systemErrorCode(refused)).toBe('ECONNREFUSED');
  });

  it('returns only code-shaped tokens, and nothing for other values', () => {
    expect(systemErrorCode(Object.assign(new Error('x'), { code: 'connect to 10.0.0.1 failed' }))).toBeUndefined();
    expect(systemErrorCode(new Error('no code'))).toBeUndefined();
    expect(systemErrorCode('ECONNREFUSED')).toBeUndefined();
    expect(systemErrorCode(null)).toBeUndefined();
  });
});
