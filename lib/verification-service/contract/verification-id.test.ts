import { describe, expect, it } from 'vitest';
import { canonicalVerificationId, couldStartUuid, verificationIdProblem } from './verification-id';

const UUID = '3f1c0a52-9b7e-4c1d-8a2f-0123456789ab';

describe('canonicalVerificationId', () => {
  it.each([
    ['a UUID in capitals becomes the lowercase UUID', UUID.toUpperCase(), UUID],
    ['a UUID in mixed case becomes the lowercase UUID', '3F1c0A52-9b7E-4c1d-8A2f-0123456789aB', UUID],
    ['surrounding spaces and line breaks go', `  ${UUID}\n`, UUID],
    ['a lowercase UUID stays as it is', UUID, UUID],
    // Opaque ids keep their case: for another service it may tell two requests apart.
    ['an opaque id keeps its case', 'Ver_AbC-123', 'Ver_AbC-123'],
    ['hex that is not a UUID keeps its case', 'ABCDEF0123456789', 'ABCDEF0123456789'],
    ['a UUID with braces is not a UUID here and stays', `{${UUID.toUpperCase()}}`, `{${UUID.toUpperCase()}}`],
  ])('%s', (_, input, expected) => {
    expect(canonicalVerificationId(input)).toBe(expected);
  });
});

describe('verificationIdProblem', () => {
  it('accepts what an id can be', () => {
    expect(verificationIdProblem(UUID)).toBeUndefined();
    expect(verificationIdProblem('0b6f-ÄÖ%2F+=~')).toBeUndefined();
  });

  it.each([
    ['', /Enter the verification id/],
    ['x'.repeat(201), /too long/],
    ['abc\u0000def', /control characters/],
    ['abc/def', /not a verification id/],
    ['..', /not a verification id/],
  ])('refuses %j with a message naming the problem', (id, message) => {
    expect(verificationIdProblem(id)).toMatch(message);
  });
});

describe('couldStartUuid', () => {
  it('is true for hex digits and dashes only', () => {
    expect(couldStartUuid('3F1C')).toBe(true);
    expect(couldStartUuid('3f1c0a52-9B')).toBe(true);
    expect(couldStartUuid('Élodie')).toBe(false);
    expect(couldStartUuid('ver_1')).toBe(false);
  });
});
