// Property-based tests of the sandbox's reading of POST /v1/verifications/new bodies (contract §2.1,
// §4.1, §7, §8): valid bodies pass, each kind of bad body is refused with a message naming the
// field, nothing a caller sends makes the parser throw, and the real route never answers 5xx.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST } from '@/app/(sandbox)/v1/verifications/new/route';
import type { Translate } from '@/lib/i18n/translate';
import { translatorFor } from '@/lib/i18n/translator';
import { closeDatabases } from '@/lib/platform/database';
import { createVerificationSchemaFor, OTHER_PURPOSE } from '@/lib/verifications/create/schema';
import { possiblePhone } from '@/test/support/possible-phone-numbers';
import { createRequest, createTestCompany, type TestCompany, useInMemorySandbox } from '@/test/support/sandbox';
import { CREATE_VERIFICATION_FIELDS, LANGUAGES, parseCreateVerificationInput } from './create-verification-input';

// The create form's schema, read in English (its messages are the reader's language's).
const formSchema = createVerificationSchemaFor({ t: (await translatorFor('en', 'create.schema')) as Translate, language: 'en' });

const RUNS = { numRuns: 100 };
const PREDEFINED = ['legal_obligations', 'processing_gdpr_request', 'ensuring_compliance'];
const STRING_FIELDS = ['email', 'name', 'chosenPurpose', 'phonenumber', 'language'] as const;
const BOOLEAN_FIELDS = ['smsNotification', 'shareableLink', 'emailNotification'] as const;

// ---------------------------------------------------------------------------------------------
// Generators

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
const e164 = fc.tuple(fc.integer({ min: 1, max: 9 }), digits(1, 14)).map(([first, rest]) => `+${first}${rest}`);

// zod's z.email() is narrower than RFC 5322 (no ! # { | } …): keep fc's addresses inside it.
const email = fc.emailAddress().map((address) => {
  const at = address.lastIndexOf('@');
  return address.slice(0, at).replace(/[^A-Za-z0-9_+\-.]/g, (c) => '_+-'[c.charCodeAt(0) % 3]!) + address.slice(at);
});

const nonBlank = (max: number) =>
  fc
    .oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: max }), fc.string({ unit: 'binary', minLength: 1, maxLength: max }))
    // Control characters are refused (PostgreSQL cannot store NUL): not part of a valid body.
    .filter((s) => s.trim().length >= 1 && !/[\u0000-\u001f\u007f]/.test(s));

type Body = Record<string, unknown>;

/** A valid API body: required fields, optional ones sometimes left out (their defaults apply). */
const validBody: fc.Arbitrary<Body> = fc
  .record(
    {
      email,
      name: nonBlank(60),
      chosenPurpose: fc.oneof(fc.constantFrom(...PREDEFINED), nonBlank(80)),
      phonenumber: e164,
      smsNotification: fc.boolean(),
      language: fc.constantFrom(...LANGUAGES),
      shareableLink: fc.boolean(),
      emailNotification: fc.boolean(),
    },
    { requiredKeys: ['name', 'chosenPurpose', 'language'] },
  )
  .map((body) => {
    // Contract §2.1/§4.1: e-mail required unless shareableLink; a phone needed when SMS is asked for.
    const fixed: Body = { ...body };
    if (fixed.shareableLink !== true && fixed.email === undefined) fixed.email = 'someone@example.com';
    if (fixed.smsNotification === true && fixed.phonenumber === undefined) fixed.phonenumber = '+32470123456';
    return fixed;
  });

const notString = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
  fc.constant(null),
  fc.boolean(),
);
const notBoolean = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.array(fc.boolean(), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
  fc.constant(null),
  fc.string(),
  fc.constantFrom('true', 'false', 0, 1),
);

const nonE164 = fc.oneof(
  digits(1, 14).map((rest) => `+0${rest}`),
  fc.tuple(e164, fc.nat(), fc.constantFrom(...'abcXYZ')).map(([p, at, letter]) => {
    const i = 1 + (at % p.length);
    return p.slice(0, i) + letter + p.slice(i);
  }),
  fc.tuple(fc.integer({ min: 1, max: 9 }), digits(15, 20)).map(([first, rest]) => `+${first}${rest}`),
  // The API, unlike the dashboard form, takes no spaces and no 00 prefix.
  e164.map((p) => `${p.slice(0, 3)} ${p.slice(3)}`),
  e164.map((p) => `00${p.slice(1)}`),
  e164.map((p) => ` ${p}`),
);

/** Defines an own enumerable key, as JSON.parse does: "__proto__" in a literal would set the prototype. */
function withKey(body: Body, key: string, value: unknown): Body {
  const copy = { ...body };
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

function without(body: Body, key: string): Body {
  const copy = { ...body };
  delete copy[key];
  return copy;
}

type Breakage = { field: string; apply: (body: Body) => Body };
const breaks = (field: string, apply: Breakage['apply']): Breakage => ({ field, apply });

const breakage: fc.Arbitrary<Breakage> = fc.oneof(
  // Missing required fields (email only counts as required without a shareable link).
  fc.constantFrom('name', 'chosenPurpose', 'language').map((field) => breaks(field, (b) => without(b, field))),
  fc.constant(breaks('email', (b) => ({ ...without(b, 'email'), shareableLink: false }))),
  fc.constant(breaks('phonenumber', (b) => ({ ...without(b, 'phonenumber'), smsNotification: true }))),
  // Wrong types, both ways.
  fc.tuple(fc.constantFrom(...STRING_FIELDS), notString).map(([field, value]) => breaks(field, (b) => ({ ...b, [field]: value }))),
  fc.tuple(fc.constantFrom(...BOOLEAN_FIELDS), notBoolean).map(([field, value]) => breaks(field, (b) => ({ ...b, [field]: value }))),
  // Bad values.
  fc
    .string()
    .filter((s) => !(LANGUAGES as readonly string[]).includes(s))
    .map((language) => breaks('language', (b) => ({ ...b, language }))),
  nonE164.map((phonenumber) => breaks('phonenumber', (b) => ({ ...b, phonenumber }))),
);

const unknownKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'Email', 'phoneNumber', 'link', ''),
  fc.string().filter((k) => !(CREATE_VERIFICATION_FIELDS as readonly string[]).includes(k)),
);

// ---------------------------------------------------------------------------------------------

describe('parseCreateVerificationInput (property)', () => {
  it('accepts every valid body, trimming text and applying the contract defaults', () => {
    fc.assert(
      fc.property(validBody, (body) => {
        const result = parseCreateVerificationInput(body);
        expect(result).toMatchObject({ ok: true });
        if (!result.ok) return;
        expect(result.value.name).toBe((body.name as string).trim());
        expect(result.value.chosenPurpose).toBe((body.chosenPurpose as string).trim());
        expect(result.value.language).toBe(body.language);
        expect(result.value.smsNotification).toBe(body.smsNotification ?? false);
        expect(result.value.shareableLink).toBe(body.shareableLink ?? false);
        expect(result.value.emailNotification).toBe(body.emailNotification ?? true);
      }),
      RUNS,
    );
  });

  it('refuses each kind of bad body with a message that starts with the field it is about', () => {
    fc.assert(
      fc.property(validBody, breakage, (body, { field, apply }) => {
        const result = parseCreateVerificationInput(apply(body));
        expect(result.ok).toBe(false);
        if (result.ok) return;
        expect(result.error.startsWith(`${field} `), result.error).toBe(true);
      }),
      RUNS,
    );
  });

  it('refuses unknown keys, "__proto__" and "constructor" included, naming the key', () => {
    fc.assert(
      fc.property(validBody, unknownKey, fc.jsonValue({ maxDepth: 1 }), (body, key, value) => {
        expect(parseCreateVerificationInput(withKey(body, key, value))).toEqual({ ok: false, error: `Unknown field: ${key}` });
      }),
      RUNS,
    );
  });

  it('also refuses "__proto__" exactly as JSON.parse delivers it', () => {
    fc.assert(
      fc.property(validBody, fc.constantFrom('__proto__', 'constructor'), (body, key) => {
        const text = JSON.stringify(body).replace(/^\{/, `{"${key}":{"polluted":true},`);
        expect(parseCreateVerificationInput(JSON.parse(text))).toEqual({ ok: false, error: `Unknown field: ${key}` });
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: 20 },
    );
  });

  // The parser's contract: a verdict, never an exception, whatever arrives.
  const verdict = (input: unknown) => {
    const result = parseCreateVerificationInput(input);
    if (result.ok) expect(result.value).toEqual(expect.any(Object));
    else expect(result.error).toEqual(expect.any(String));
  };
  const anything = fc.anything({
    withBigInt: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withObjectString: true,
    withSparseArray: true,
    withTypedArray: true,
    withUnicodeString: true,
  });

  it('never throws for fc.anything(), fc.object() or fc.json() input', () => {
    fc.assert(fc.property(anything, verdict), RUNS);
    fc.assert(fc.property(fc.object(), verdict), RUNS);
    fc.assert(
      fc.property(fc.json(), (text) => {
        verdict(text);
        verdict(JSON.parse(text));
      }),
      RUNS,
    );
  });

  it('never throws when the known fields carry arbitrary values', () => {
    const knownKeys = Object.fromEntries(CREATE_VERIFICATION_FIELDS.map((f) => [f, anything]));
    fc.assert(fc.property(fc.record(knownKeys, { requiredKeys: [] }), verdict), RUNS);
  });

  it('accepts every body the dashboard form produces, unchanged (the form/service contract)', () => {
    const form = fc.record({
      name: nonBlank(60),
      email,
      purpose: fc.constantFrom(OTHER_PURPOSE, ...PREDEFINED),
      customPurpose: nonBlank(60),
      language: fc.constantFrom(...LANGUAGES),
      shareableLink: fc.boolean(),
      emailNotification: fc.boolean(),
      smsNotification: fc.boolean(),
      // The form takes only numbers possible in their country; the sandbox reads any E.164.
      phone: possiblePhone,
    });
    fc.assert(
      fc.property(form, (values) => {
        const body = formSchema.parse(values);
        expect(parseCreateVerificationInput(body)).toEqual({ ok: true, value: body });
      }),
      RUNS,
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('POST /v1/verifications/new on an in-memory sandbox (property)', () => {
  let company: TestCompany;

  beforeAll(async () => {
    company = await createTestCompany(await useInMemorySandbox());
  });

  afterAll(async () => {
    await closeDatabases();
  });

  // Bodies the route may see: any JSON, JSON objects with the real field names, valid ones,
  // text that is not JSON, and whatever JSON.stringify makes of fc.anything() (even nothing).
  const jsonBody = fc.oneof(
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc
      .record(Object.fromEntries(CREATE_VERIFICATION_FIELDS.map((f) => [f, fc.jsonValue({ maxDepth: 1 })])), { requiredKeys: [] })
      .map((v) => JSON.stringify(v)),
    validBody.map((v) => JSON.stringify(v)),
    fc.string(),
    fc.anything().map((v) => JSON.stringify(v) as string | undefined),
  );

  it('answers 200 or 4xx, never 5xx, and a refusal is exactly { error } agreeing with the parser', async () => {
    await fc.assert(
      fc.asyncProperty(jsonBody, async (text) => {
        // createRequest sends a string as is; undefined becomes a request without a body.
        const response = await POST(createRequest(text ?? '', { apiKey: company.apiKey }), undefined);
        const body = (await response.json()) as Record<string, unknown>;
        expect(
          response.status === 200 || (response.status >= 400 && response.status < 500),
          `${response.status} ${JSON.stringify(body)}`,
        ).toBe(true);
        let parsed: unknown;
        let isJson = true;
        try {
          parsed = JSON.parse(text ?? '');
        } catch {
          isJson = false;
        }
        const expected = isJson ? parseCreateVerificationInput(parsed) : { ok: false as const };
        if (response.status === 200) {
          expect(expected.ok).toBe(true);
          expect(Object.keys(body).sort()).toEqual(
            expected.ok && expected.value.shareableLink ? ['link', 'message', 'verificationId'] : ['message', 'verificationId'],
          );
        } else {
          expect(Object.keys(body)).toEqual(['error']);
          expect(body.error).toEqual(expect.any(String));
          expect(expected.ok).toBe(false);
          if (isJson && !expected.ok && 'error' in expected)
            expect({ status: response.status, error: body.error }).toEqual({ status: 400, error: expected.error });
        }
      }),
      { numRuns: 50 },
    );
  });
});

describe('control characters', () => {
  it('a name or purpose with NUL or another control character is refused, naming the field', () => {
    for (const bad of ['\u0000', 'Ann\u0000a', 'Bo\u0007b', 'Line\nbreak']) {
      const result = parseCreateVerificationInput({
        name: bad,
        chosenPurpose: 'legal_obligations',
        language: 'en',
        email: 'a@example.com',
      });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatch(/^name /);
    }
    const purpose = parseCreateVerificationInput({ name: 'Ann', chosenPurpose: 'Audit\u0000', language: 'en', email: 'a@example.com' });
    expect(purpose.ok).toBe(false);
    if (!purpose.ok) expect(purpose.error).toMatch(/^chosenPurpose /);
    // A purpose may keep its line breaks.
    expect(parseCreateVerificationInput({ name: 'Ann', chosenPurpose: 'Audit\nof 2026', language: 'en', email: 'a@example.com' }).ok).toBe(
      true,
    );
  });
});
