// The SMS number: what staff type, checked and turned into the E.164 form the service expects.
// Shared by the browser (instant checks) and the server (the check that counts), so it uses the
// library's smallest metadata ("min"): it holds each country's possible number lengths, which is
// all a "possible number" check needs. Which digits a country's operators actually hand out
// changes over time; that stricter check ("valid") would need the larger metadata and would
// refuse new ranges until the next update, so it is not made here.
//
// A team may set a default region (DEFAULT_PHONE_REGION, e.g. BE): numbers typed the national way
// ("0470 12 34 56") are then read as that country's, which is how a Belgian officer copies them
// from a file. Without one, only international numbers are taken: nobody can know whose "0470…"
// it is.
import { type CountryCode, getCountryCallingCode, parsePhoneNumberFromString, validatePhoneNumberLength } from 'libphonenumber-js/min';

export type { CountryCode };

/** Contract §8: a plus sign, a first digit 1-9, then 1 to 14 further digits. Always the floor. */
const E164 = /^\+[1-9]\d{1,14}$/;

export const PHONE_REQUIRED = 'Enter a mobile number to send the SMS to.';
export const PHONE_NOT_INTERNATIONAL = 'Enter the number in international format: + and country code, e.g. +32 470 12 34 56.';

/** What the field asks for when a national number cannot be read, with or without a default region. */
export function phoneNotInternationalMessage(defaultRegion?: CountryCode): string {
  if (!defaultRegion) return PHONE_NOT_INTERNATIONAL;
  return `Enter the number with its country code (+ and the code, e.g. +31 6 12 34 56 78), or as a national number of ${phoneRegionName(defaultRegion)}.`;
}

export function isE164(phone: string): boolean {
  return E164.test(phone);
}

/**
 * Turns what people type ("+32 470 12 34 56", "0032 470-12-34-56", "+44 (0)20 7946 0958")
 * into E.164 digits. Anything that is still not E.164 afterwards is left for the check to refuse.
 */
export function normalizePhone(input: string): string {
  // "+44 (0)20 …": the bracketed trunk zero is dialled only inside the country, never after +44.
  let phone = input
    .trim()
    .replace(/\(0\)/g, '')
    .replace(/[\s\-.()/\u00a0]/g, '');
  if (phone.startsWith('00')) phone = `+${phone.slice(2)}`;
  return phone;
}

export type PhoneCheck = { phone: string } | { error: string };

/**
 * The number to send for what was typed, in E.164, or why it cannot be sent: it must match the
 * contract's pattern, and be possible for its country (the right number of digits, under a
 * country code in use), so "+32 470" or "+1 555 0100" never reach the service. With a default
 * region, a number without a country code is read as one of that region's.
 */
export function checkPhoneNumber(input: string, defaultRegion?: CountryCode): PhoneCheck {
  const typed = normalizePhone(input);
  if (typed === '') return { error: PHONE_REQUIRED };
  const national = defaultRegion !== undefined && !typed.startsWith('+');
  if (!national && !isE164(typed)) return { error: phoneNotInternationalMessage(defaultRegion) };
  if (national && !/^\d+$/.test(typed)) return { error: phoneNotInternationalMessage(defaultRegion) };
  const region = national ? defaultRegion : undefined;
  const problem = validatePhoneNumberLength(typed, region);
  const parsed = parsePhoneNumberFromString(typed, region);
  if (problem || !parsed?.isPossible()) {
    const callingCode = parsed?.countryCallingCode ?? (region ? getCountryCallingCode(region) : undefined);
    return { error: impossibleNumberMessage(problem, callingCode, parsed?.country ?? region) };
  }
  // The library's E.164 drops a trunk zero typed after the country code (+44 020… → +44 20…),
  // and the national one before a national number (0470… → +32 470…).
  const phone = parsed.number;
  return isE164(phone) ? { phone } : { error: phoneNotInternationalMessage(defaultRegion) };
}

/**
 * A number as people read it, grouped the international way ("+32 470 12 34 56"): how the form
 * shows what it will send. Anything that cannot be read is returned as typed.
 */
export function displayPhone(input: string, defaultRegion?: CountryCode): string {
  const check = checkPhoneNumber(input, defaultRegion);
  if ('error' in check) return input;
  return parsePhoneNumberFromString(check.phone)?.formatInternational() ?? check.phone;
}

function impossibleNumberMessage(problem: string | undefined, callingCode: string | undefined, country: CountryCode | undefined): string {
  if (problem === 'INVALID_COUNTRY' || !callingCode) {
    return 'No country uses the code at the start of this number. Check the digits after the +, e.g. +32 for Belgium.';
  }
  const where = country ? `a number in ${phoneRegionName(country)} (+${callingCode})` : `a number starting +${callingCode}`;
  if (problem === 'TOO_SHORT') return `Too few digits for ${where}. Check that none is missing.`;
  if (problem === 'TOO_LONG') return `Too many digits for ${where}. Check for an extra one.`;
  return `This is not a possible length for ${where}. Check the number.`;
}

/** A region's name in the dashboard's words ("Belgium"), for the phone field's hint and messages. */
export function phoneRegionName(country: CountryCode): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(country) ?? country;
  } catch {
    return country;
  }
}
