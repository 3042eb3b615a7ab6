// The SMS number: what staff type, checked and turned into the E.164 form the service expects.
// Shared by the browser (instant checks) and the server (the check that counts), so it uses the
// library's smallest metadata ("min"): it holds each country's possible number lengths, which is
// all a "possible number" check needs. Which digits a country's operators actually hand out
// changes over time; that stricter check ("valid") would need the larger metadata and would
// refuse new ranges until the next update, so it is not made here.
import { type CountryCode, parsePhoneNumberFromString, validatePhoneNumberLength } from 'libphonenumber-js/min';

/** Contract §8: a plus sign, a first digit 1-9, then 1 to 14 further digits. Always the floor. */
const E164 = /^\+[1-9]\d{1,14}$/;

export const PHONE_REQUIRED = 'Enter a mobile number to send the SMS to.';
export const PHONE_NOT_INTERNATIONAL = 'Enter the number in international format: + and country code, e.g. +32 470 12 34 56.';

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
 * country code in use), so "+32 470" or "+1 555 0100" never reach the service.
 */
export function checkPhoneNumber(input: string): PhoneCheck {
  const typed = normalizePhone(input);
  if (typed === '') return { error: PHONE_REQUIRED };
  if (!isE164(typed)) return { error: PHONE_NOT_INTERNATIONAL };
  const problem = validatePhoneNumberLength(typed);
  const parsed = parsePhoneNumberFromString(typed);
  if (problem || !parsed?.isPossible()) return { error: impossibleNumberMessage(problem, parsed?.countryCallingCode, parsed?.country) };
  // The library's E.164 drops a trunk zero typed after the country code (+44 020… → +44 20…).
  const phone = parsed.number;
  return isE164(phone) ? { phone } : { error: PHONE_NOT_INTERNATIONAL };
}

function impossibleNumberMessage(problem: string | undefined, callingCode: string | undefined, country: CountryCode | undefined): string {
  if (problem === 'INVALID_COUNTRY' || !callingCode) {
    return 'No country uses the code at the start of this number. Check the digits after the +, e.g. +32 for Belgium.';
  }
  const where = country ? `a number in ${countryName(country)} (+${callingCode})` : `a number starting +${callingCode}`;
  if (problem === 'TOO_SHORT') return `Too few digits for ${where}. Check that none is missing.`;
  if (problem === 'TOO_LONG') return `Too many digits for ${where}. Check for an extra one.`;
  return `This is not a possible length for ${where}. Check the number.`;
}

function countryName(country: CountryCode): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(country) ?? country;
  } catch {
    return country;
  }
}
