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
//
// The words come from the create.schema catalog, through the translate function the caller
// passes: the browser's client catalog or the server's translator, in the reader's language.
// i18n: t = create.schema
import { type CountryCode, getCountryCallingCode, parsePhoneNumberFromString, validatePhoneNumberLength } from 'libphonenumber-js/min';
import type { Translate } from '@/lib/i18n/translate';

export type { CountryCode };

/** Contract §8: a plus sign, a first digit 1-9, then 1 to 14 further digits. Always the floor. */
const E164 = /^\+[1-9]\d{1,14}$/;

/** Why a number cannot be sent: a message key of create.schema and its arguments. */
type PhoneProblem = { key: string; values?: Record<string, string> };

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

/** How the messages are written: the catalog's words, and the language country names are given in. */
export type PhoneWords = { t: Translate; language: string };

/**
 * The number to send for what was typed, in E.164, or why it cannot be sent: it must match the
 * contract's pattern, and be possible for its country (the right number of digits, under a
 * country code in use), so "+32 470" or "+1 555 0100" never reach the service. With a default
 * region, a number without a country code is read as one of that region's.
 */
export function checkPhoneNumber(input: string, defaultRegion: CountryCode | undefined, { t, language }: PhoneWords): PhoneCheck {
  const read = readPhoneNumber(input, defaultRegion);
  if ('phone' in read) return read;
  const { problem } = read;
  // The country's name in the reader's language, filled in here: the catalog only places it.
  const values = problem.values?.country
    ? { ...problem.values, region: phoneRegionName(problem.values.country as CountryCode, language) }
    : problem.values;
  switch (problem.key) {
    case 'phoneRequired':
      return { error: t('phoneRequired') };
    case 'phoneNotInternational':
      return { error: t('phoneNotInternational') };
    case 'phoneNotInternationalOrNational':
      return { error: t('phoneNotInternationalOrNational', values) };
    case 'phoneUnknownCountryCode':
      return { error: t('phoneUnknownCountryCode') };
    case 'phoneTooShortInCountry':
      return { error: t('phoneTooShortInCountry', values) };
    case 'phoneTooShortForCode':
      return { error: t('phoneTooShortForCode', values) };
    case 'phoneTooLongInCountry':
      return { error: t('phoneTooLongInCountry', values) };
    case 'phoneTooLongForCode':
      return { error: t('phoneTooLongForCode', values) };
    case 'phoneImpossibleInCountry':
      return { error: t('phoneImpossibleInCountry', values) };
    default:
      return { error: t('phoneImpossibleForCode', values) };
  }
}

function notInternational(defaultRegion: CountryCode | undefined): { problem: PhoneProblem } {
  return {
    problem: defaultRegion
      ? { key: 'phoneNotInternationalOrNational', values: { country: defaultRegion } }
      : { key: 'phoneNotInternational' },
  };
}

/** The number to send, or the problem with it as a code: what checkPhoneNumber puts into words. */
function readPhoneNumber(input: string, defaultRegion?: CountryCode): { phone: string } | { problem: PhoneProblem } {
  const typed = normalizePhone(input);
  if (typed === '') return { problem: { key: 'phoneRequired' } };
  const national = defaultRegion !== undefined && !typed.startsWith('+');
  if (!national && !isE164(typed)) return notInternational(defaultRegion);
  if (national && !/^\d+$/.test(typed)) return notInternational(defaultRegion);
  const region = national ? defaultRegion : undefined;
  const problem = validatePhoneNumberLength(typed, region);
  const parsed = parsePhoneNumberFromString(typed, region);
  if (problem || !parsed?.isPossible()) {
    const callingCode = parsed?.countryCallingCode ?? (region ? getCountryCallingCode(region) : undefined);
    return { problem: impossibleNumberProblem(problem, callingCode, parsed?.country ?? region) };
  }
  // The library's E.164 drops a trunk zero typed after the country code (+44 020… → +44 20…),
  // and the national one before a national number (0470… → +32 470…).
  const phone = parsed.number;
  return isE164(phone) ? { phone } : notInternational(defaultRegion);
}

/**
 * The number in E.164 for what was typed, read as checkPhoneNumber reads it, or undefined when it
 * is not a possible number: how the register's contact search compares numbers.
 */
export function phoneInE164(input: string, defaultRegion?: CountryCode): string | undefined {
  const read = readPhoneNumber(input, defaultRegion);
  return 'phone' in read ? read.phone : undefined;
}

/**
 * A number as people read it, grouped the international way ("+32 470 12 34 56"): how the form
 * shows what it will send. Anything that cannot be read is returned as typed.
 */
export function displayPhone(input: string, defaultRegion?: CountryCode): string {
  const check = readPhoneNumber(input, defaultRegion);
  if ('problem' in check) return input;
  return parsePhoneNumberFromString(check.phone)?.formatInternational() ?? check.phone;
}

function impossibleNumberProblem(
  problem: string | undefined,
  callingCode: string | undefined,
  country: CountryCode | undefined,
): PhoneProblem {
  if (problem === 'INVALID_COUNTRY' || !callingCode) return { key: 'phoneUnknownCountryCode' };
  const kind = problem === 'TOO_SHORT' ? 'TooShort' : problem === 'TOO_LONG' ? 'TooLong' : 'Impossible';
  return country
    ? { key: `phone${kind}InCountry`, values: { country, code: callingCode } }
    : { key: `phone${kind}ForCode`, values: { code: callingCode } };
}

/** A region's name in the reader's language ("Belgium", "Belgique", "België"), for the phone field's hint and messages. */
export function phoneRegionName(country: CountryCode, language: string): string {
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(country) ?? country;
  } catch {
    return country;
  }
}
