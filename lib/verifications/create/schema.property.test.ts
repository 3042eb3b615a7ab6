// Property-based tests of the create-verification form's schema: whatever a member of staff
// types that is valid becomes a body that obeys the contract (§2.1, §4.1, §8), and each kind of
// mistake is refused on the field the form shows it next to, and on that field only.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Translate } from '@/lib/i18n/translate';
import { translatorFor } from '@/lib/i18n/translator';
import { LANGUAGES, PREDEFINED_PURPOSES } from '@/lib/verifications/labels';
import { possiblePhone } from '@/test/support/possible-phone-numbers';
import { type CreateVerificationFormValues, createVerificationSchemaFor, NAME_MAX, OTHER_PURPOSE } from './schema';

// Read in English: the properties hold in every language; the English messages are asserted.
const createVerificationSchema = createVerificationSchemaFor({
  t: (await translatorFor('en', 'create.schema')) as Translate,
  language: 'en',
});

const RUNS = { numRuns: 100 };
const E164 = /^\+[1-9]\d{1,14}$/;
const LANGUAGE_CODES: string[] = LANGUAGES.map((l) => l.value);

// ---------------------------------------------------------------------------------------------
// Generators of valid input

// Characters String.prototype.trim (and so zod's .trim()) removes: blank input must stay blank.
const whitespace = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u2003', '\u3000', '\ufeff'), maxLength: 6 });

// Right-to-left scripts and emoji are named explicitly: the default units rarely produce them.
const rtlOrEmoji = fc.constantFrom('א', 'ש', 'ם', 'ع', 'ل', 'ي', 'ـ', '\u200f', '👩🏽‍💻', '🇧🇪', '😀', 'é', '漢', 'ß');

/** A name whose trimmed length is 1-200 UTF-16 units (what zod counts), padded with blanks. */
const validName = fc
  .tuple(
    whitespace,
    fc.oneof(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }),
      fc.string({ unit: rtlOrEmoji, minLength: 1, maxLength: 40 }),
      // The boundary itself: exactly NAME_MAX units once trimmed.
      fc
        .string({ unit: fc.constantFrom('a', 'Z', 'é', 'ש', '-', ' '), minLength: NAME_MAX - 2, maxLength: NAME_MAX - 2 })
        .map((s) => `x${s}y`),
    ),
    whitespace,
  )
  .filter(([, core]) => core.trim().length >= 1 && core.trim().length <= NAME_MAX && !/[\u0000-\u001f\u007f]/.test(core.trim()))
  .map(([before, core, after]) => `${before}${core}${after}`);

/**
 * fc.emailAddress() follows RFC 5322, whose local part allows characters such as ! # { | }
 * that zod's deliberately narrow z.email() refuses; map those to ones it accepts so that the
 * generator stays valid for this schema (the narrowness itself is a product decision).
 */
const validEmail = fc.emailAddress().map((address) => {
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at).replace(/[^A-Za-z0-9_+\-.]/g, (c) => '_+-'[c.charCodeAt(0) % 3]!);
  return local + address.slice(at);
});

/** An E.164 number: + then a first digit 1-9 and 1-14 more digits (contract §8). */
const e164 = fc
  .tuple(fc.integer({ min: 1, max: 9 }), fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 14 }))
  .map(([first, rest]) => `+${first}${rest}`);

/** Digits typed the way people do: + or 00, and random spaces or dashes between them. */
function typed(digits: string) {
  return fc
    .tuple(
      fc.constantFrom('+', '00', '+ ', '00 '),
      fc.array(fc.constantFrom('', '', ' ', '-'), { minLength: digits.length, maxLength: digits.length }),
      fc.constantFrom('', ' ', '  '),
    )
    .map(
      ([prefix, separators, pad]) =>
        pad +
        prefix +
        [...digits]
          .map((d, i) => d + separators[i])
          .join('')
          .trimEnd() +
        pad,
    );
}

const typedPhone = possiblePhone.chain((phone) => typed(phone.slice(1)).map((text) => ({ text, phone })));

const purpose = fc.oneof(
  fc.constantFrom(...PREDEFINED_PURPOSES.map((p) => p.value)).map((value) => ({ purpose: value, customPurpose: '', chosen: value })),
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 80 })
    .filter((s) => s.trim() !== '' && !/[\u0000-\u001f\u007f]/.test(s))
    .map((text) => ({ purpose: OTHER_PURPOSE, customPurpose: ` ${text} `, chosen: text.trim() })),
);

type Generated = { form: CreateVerificationFormValues; phone: string | undefined; chosen: string };

const validForm: fc.Arbitrary<Generated> = fc
  .record({
    name: validName,
    email: validEmail,
    purpose,
    language: fc.constantFrom(...LANGUAGE_CODES),
    shareableLink: fc.boolean(),
    emailNotification: fc.boolean(),
    smsNotification: fc.boolean(),
    phone: typedPhone,
    // With a shareable link the e-mail is optional, so it may also be left blank.
    dropEmail: fc.boolean(),
  })
  .map(({ email, purpose: p, phone, dropEmail, ...rest }) => ({
    form: {
      ...rest,
      email: rest.shareableLink && dropEmail ? '' : email,
      purpose: p.purpose,
      customPurpose: p.customPurpose,
      phone: phone.text,
    },
    phone: phone.phone,
    chosen: p.chosen,
  }));

function fieldErrorsOf(values: unknown): Record<string, string[] | undefined> {
  const result = createVerificationSchema.safeParse(values);
  return result.success ? {} : (z.flattenError(result.error).fieldErrors as Record<string, string[] | undefined>);
}

// ---------------------------------------------------------------------------------------------

describe('createVerificationSchema: valid input (property)', () => {
  it('accepts every valid form and produces a body that obeys the contract', () => {
    fc.assert(
      fc.property(validForm, ({ form, phone, chosen }) => {
        const body = createVerificationSchema.parse(form);
        expect(body.name).toBe(form.name.trim());
        // §2.1: e-mail required unless shareableLink.
        if (!form.shareableLink) expect(body.email).toBe(form.email.trim());
        expect(LANGUAGE_CODES).toContain(body.language);
        expect(body.chosenPurpose).toBe(chosen);
        expect(body.chosenPurpose.trim()).not.toBe('');
        // §4.1 rule 1: a shareable link means no verification e-mail.
        if (body.shareableLink) expect(body.emailNotification).toBe(false);
        else expect(body.emailNotification).toBe(form.emailNotification);
        expect(body.smsNotification).toBe(form.smsNotification);
        // §8: the number sent is E.164, whatever the staff typed around the digits.
        if (form.smsNotification) {
          expect(body.phonenumber).toMatch(E164);
          expect(body.phonenumber).toBe(phone);
        } else {
          expect(body).not.toHaveProperty('phonenumber');
        }
      }),
      RUNS,
    );
  });

  it('ignores whatever is in the phone box while SMS is switched off', () => {
    fc.assert(
      fc.property(validForm, fc.string({ maxLength: 40 }), ({ form }, junk) => {
        const body = createVerificationSchema.parse({ ...form, smsNotification: false, phone: junk });
        expect(body).not.toHaveProperty('phonenumber');
      }),
      RUNS,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Invalid input: each generator below breaks exactly one rule of an otherwise valid form.

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });

const nonE164Phone = fc.oneof(
  // A leading 0 after the + (also reached by 00 then 0).
  digits(1, 14).chain((rest) => typed(`0${rest}`)),
  // A letter among the digits.
  fc.tuple(e164, fc.nat(), fc.constantFrom(...'abcxyzABCXYZ')).map(([phone, at, letter]) => {
    const i = 1 + (at % phone.length);
    return phone.slice(0, i) + letter + phone.slice(i);
  }),
  // More than 15 digits.
  fc.tuple(fc.integer({ min: 1, max: 9 }), digits(15, 20)).chain(([first, rest]) => typed(`${first}${rest}`)),
);

const malformedEmail = fc.oneof(
  validEmail.map((e) => e.replace('@', '')),
  validEmail.map((e) => `${e}@example.com`),
  validEmail.map((e) => e.replace('@', ' @ ')),
  validEmail.map((e) => e.slice(0, e.lastIndexOf('@') + 1)),
  validEmail.map((e) => `@${e.slice(e.lastIndexOf('@') + 1)}`),
);

type Breakage = { field: string; change: (form: CreateVerificationFormValues) => CreateVerificationFormValues };
const breaks = (field: string, change: Breakage['change']): Breakage => ({ field, change });

const breakage: fc.Arbitrary<Breakage> = fc.oneof(
  fc
    .string()
    .filter((s) => !LANGUAGE_CODES.includes(s))
    .map((language) => breaks('language', (f) => ({ ...f, language }))),
  whitespace.map((name) => breaks('name', (f) => ({ ...f, name }))),
  fc
    .string({ minLength: NAME_MAX + 1, maxLength: NAME_MAX + 60 })
    .filter((s) => s.trim().length > NAME_MAX)
    .map((name) => breaks('name', (f) => ({ ...f, name }))),
  whitespace.map((email) => breaks('email', (f) => ({ ...f, email, shareableLink: false, smsNotification: false }))),
  // SMS with neither an e-mail address nor a link: said at the SMS switch (contract §2.1).
  whitespace.map((email) => breaks('smsNotification', (f) => ({ ...f, email, shareableLink: false, smsNotification: true }))),
  malformedEmail.map((email) => breaks('email', (f) => ({ ...f, email }))),
  nonE164Phone.map((phone) => breaks('phone', (f) => ({ ...f, phone, smsNotification: true }))),
  whitespace.map((customPurpose) => breaks('customPurpose', (f) => ({ ...f, purpose: OTHER_PURPOSE, customPurpose }))),
);

describe('createVerificationSchema: invalid input (property)', () => {
  it('refuses each kind of mistake on its own field, and only there', () => {
    fc.assert(
      fc.property(validForm, breakage, ({ form }, { field, change }) => {
        const errors = fieldErrorsOf(change(form));
        expect(Object.keys(errors)).toEqual([field]);
        expect(errors[field]?.[0]).toEqual(expect.any(String));
      }),
      RUNS,
    );
  });

  it('names the phone field for every non-E.164 number', () => {
    fc.assert(
      fc.property(validForm, nonE164Phone, ({ form }, phone) => {
        // A long typed number may also be "too long"; the E.164 message must be there either way.
        expect(fieldErrorsOf({ ...form, smsNotification: true, phone }).phone).toContainEqual(
          expect.stringMatching(/international format/),
        );
      }),
      RUNS,
    );
  });
});
