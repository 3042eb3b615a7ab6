// The SMS number check on its own: whatever it lets through is what the contract and the
// number's country allow; whatever it refuses gets a sentence that says why.
import fc from 'fast-check';
import { isPossiblePhoneNumber } from 'libphonenumber-js/min';
import { describe, expect, it } from 'vitest';
import type { Translate } from '@/lib/i18n/translate';
import { translatorFor } from '@/lib/i18n/translator';
import { type CountryCode, checkPhoneNumber as checkIn, displayPhone } from './phone-number';

// The messages are the reader's language's: read here in English.
const english = { t: (await translatorFor('en', 'create.schema')) as Translate, language: 'en' };
const checkPhoneNumber = (input: string, region?: CountryCode) => checkIn(input, region, english);

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

describe('checkPhoneNumber with a default region (DEFAULT_PHONE_REGION)', () => {
  it.each([
    ['0470 12 34 56', 'BE', '+32470123456'],
    ['0470/12.34.56', 'BE', '+32470123456'],
    ['06 12 34 56 78', 'NL', '+31612345678'],
    ['+31 6 12 34 56 78', 'BE', '+31612345678'],
    ['0031 6 12345678', 'BE', '+31612345678'],
  ] as const)('reads %j in %s as %j', (typed, region, sent) => {
    expect(checkPhoneNumber(typed, region)).toEqual({ phone: sent });
  });

  it("says what is wrong with a national number in the region's own terms", () => {
    expect(checkPhoneNumber('0470 12', 'BE')).toEqual({ error: expect.stringMatching(/Too few digits for a number in Belgium \(\+32\)/) });
    expect(checkPhoneNumber('0470 12 34 56 78 90', 'BE')).toEqual({ error: expect.stringMatching(/Too many digits/) });
    expect(checkPhoneNumber('0470 12 34 5x', 'BE')).toEqual({
      error: 'Enter the number with its country code (+ and the code, e.g. +31 6 12 34 56 78), or as a national number of Belgium.',
    });
  });

  it('takes no national number without a region: nobody can tell whose it is', () => {
    expect(checkPhoneNumber('0470 12 34 56')).toEqual({ error: expect.stringMatching(/international format/) });
  });
});

describe('displayPhone', () => {
  it('shows a number that can be sent as it will be sent, grouped the international way', () => {
    expect(displayPhone('0470123456', 'BE')).toBe('+32 470 12 34 56');
    expect(displayPhone('+32470123456')).toBe('+32 470 12 34 56');
  });

  it('leaves what cannot be sent as it was typed', () => {
    expect(displayPhone('0470 12', 'BE')).toBe('0470 12');
    expect(displayPhone('0470 12 34 56')).toBe('0470 12 34 56');
  });
});
