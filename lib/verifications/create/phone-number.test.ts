// The SMS number check on its own: whatever it lets through is what the contract and the
// number's country allow; whatever it refuses gets a sentence that says why.
import fc from 'fast-check';
import { isPossiblePhoneNumber } from 'libphonenumber-js/min';
import { describe, expect, it } from 'vitest';
import { checkPhoneNumber } from './phone-number';

const E164 = /^\+[1-9]\d{1,14}$/;

describe('checkPhoneNumber', () => {
  it('lets through only E.164 numbers that are possible for their country', () => {
    const typed = fc
      .tuple(fc.constantFrom('+', '00', '+ ', ''), fc.string({ unit: fc.constantFrom(...'0123456789 -'), minLength: 1, maxLength: 20 }))
      .map(([prefix, digits]) => prefix + digits);
    fc.assert(
      fc.property(typed, (input) => {
        const checked = checkPhoneNumber(input);
        if ('phone' in checked) {
          expect(checked.phone).toMatch(E164);
          expect(isPossiblePhoneNumber(checked.phone)).toBe(true);
        } else {
          expect(checked.error).toMatch(/^[A-Z].*\.$/);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses the numbers that reached the service before', () => {
    expect(checkPhoneNumber('+32 470')).toEqual({ error: expect.stringMatching(/Too few digits for a number in Belgium \(\+32\)/) });
    expect(checkPhoneNumber('+1 555 0100')).toEqual({ error: expect.stringMatching(/Too few digits for a number starting \+1/) });
  });
});
