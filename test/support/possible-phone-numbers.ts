// Phone numbers the create form accepts: E.164 and possible for their country. A digit string
// that merely fits the contract's pattern ("+1234") is not one any more (lib/verifications/create/phone-number.ts), so
// tests that need valid numbers take libphonenumber-js's example mobile number of each country.
import fc from 'fast-check';
import { getCountries, getExampleNumber } from 'libphonenumber-js/min';
import mobileExamples from 'libphonenumber-js/mobile/examples';

export const POSSIBLE_PHONE_NUMBERS: string[] = getCountries()
  .map((country) => getExampleNumber(country, mobileExamples)?.number)
  .filter((phone) => phone !== undefined)
  .map(String);

/** One of them, in E.164. */
export const possiblePhone = fc.constantFrom(...POSSIBLE_PHONE_NUMBERS);
