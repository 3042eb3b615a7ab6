import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Translate } from '@/lib/i18n/translate';
import { translatorFor } from '@/lib/i18n/translator';
import {
  type CreateVerificationFormValues,
  createVerificationSchemaFor,
  emptyCreateVerificationForm,
  formValuesFromFormData,
  normalizePhone,
} from './schema';

// The schema speaks the reader's language: these tests read it in English, as the form's first users did.
const english = { t: (await translatorFor('en', 'create.schema')) as Translate, language: 'en' };
const createVerificationSchema = createVerificationSchemaFor(english);
const SMS_NEEDS_EMAIL_OR_LINK = english.t('smsNeedsEmailOrLink');

const valid: CreateVerificationFormValues = {
  ...emptyCreateVerificationForm,
  name: 'Alice Martin',
  email: 'alice@example.com',
  purpose: 'legal_obligations',
};

function errorsOf(values: Partial<CreateVerificationFormValues>) {
  const result = createVerificationSchema.safeParse({ ...valid, ...values });
  return (result.success ? {} : z.flattenError(result.error).fieldErrors) as Record<string, string[] | undefined>;
}

describe('createVerificationSchema', () => {
  it('turns the form into the exact service body', () => {
    expect(createVerificationSchema.parse(valid)).toEqual({
      name: 'Alice Martin',
      email: 'alice@example.com',
      chosenPurpose: 'legal_obligations',
      language: 'en',
      shareableLink: false,
      emailNotification: true,
      smsNotification: false,
    });
  });

  it('trims the name and refuses an empty or overlong one', () => {
    expect(createVerificationSchema.parse({ ...valid, name: '  Bo  ' }).name).toBe('Bo');
    expect(errorsOf({ name: '   ' }).name).toEqual(["Enter the person's full name."]);
    expect(errorsOf({ name: 'x'.repeat(201) }).name?.[0]).toMatch(/at most 200/);
    // PostgreSQL cannot store NUL; a pasted name with control characters is caught at the field.
    expect(errorsOf({ name: 'Ann\u0000a' }).name?.[0]).toMatch(/control characters/);
    expect(errorsOf({ purpose: 'other', customPurpose: 'Audit\u0000' }).customPurpose?.[0]).toMatch(/control characters/);
  });

  it('requires an e-mail unless a shareable link is asked for', () => {
    expect(errorsOf({ email: '' }).email?.[0]).toMatch(/Enter an e-mail address/);
    const body = createVerificationSchema.parse({ ...valid, email: '', shareableLink: true });
    expect(body).not.toHaveProperty('email');
    expect(body.shareableLink).toBe(true);
    // With a shareable link the service sends no e-mail, whatever the switch said.
    expect(body.emailNotification).toBe(false);
  });

  it('refuses a malformed e-mail even when it is optional', () => {
    expect(errorsOf({ email: 'not-an-address' }).email?.[0]).toMatch(/valid e-mail/);
    expect(errorsOf({ email: 'not-an-address', shareableLink: true }).email?.[0]).toMatch(/valid e-mail/);
  });

  it('uses the custom purpose for "Other…" and requires it', () => {
    expect(errorsOf({ purpose: 'other', customPurpose: ' ' }).customPurpose).toEqual(['Describe the purpose of the verification.']);
    expect(createVerificationSchema.parse({ ...valid, purpose: 'other', customPurpose: ' Supplier onboarding ' }).chosenPurpose).toBe(
      'Supplier onboarding',
    );
    expect(errorsOf({ purpose: '' }).purpose).toEqual(['Choose the purpose of the verification.']);
    expect(errorsOf({ purpose: 'bribery' }).purpose).toBeDefined();
  });

  it('accepts only en, fr and nl', () => {
    for (const language of ['en', 'fr', 'nl']) expect(errorsOf({ language })).toEqual({});
    expect(errorsOf({ language: 'de' }).language).toEqual(['Choose English, Français or Nederlands.']);
  });

  it('takes a national number under the default phone region, and sends it in E.164', () => {
    const belgian = createVerificationSchemaFor({ ...english, defaultPhoneRegion: 'BE' });
    expect(belgian.parse({ ...valid, smsNotification: true, phone: '0470 12 34 56' }).phonenumber).toBe('+32470123456');
    expect(belgian.safeParse({ ...valid, smsNotification: true, phone: '0470 12' }).success).toBe(false);
    expect(createVerificationSchemaFor({ ...english, defaultPhoneRegion: 'BE' })).toBe(belgian);
  });

  it('needs a phone in E.164 for SMS, accepting spaces and 00', () => {
    expect(errorsOf({ smsNotification: true }).phone).toEqual(['Enter a mobile number to send the SMS to.']);
    expect(errorsOf({ smsNotification: true, phone: '0470 12 34 56' }).phone?.[0]).toMatch(/international format/);
    expect(errorsOf({ smsNotification: true, phone: '+0470123456' }).phone?.[0]).toMatch(/international format/);
    expect(errorsOf({ smsNotification: true, phone: '+1234567890123456' }).phone?.[0]).toMatch(/international format/);
    expect(createVerificationSchema.parse({ ...valid, smsNotification: true, phone: '+32 470 12 34 56' }).phonenumber).toBe('+32470123456');
    expect(createVerificationSchema.parse({ ...valid, smsNotification: true, phone: '0032 (470) 12-34-56' }).phonenumber).toBe(
      '+32470123456',
    );
    // Without SMS the phone is neither checked nor sent.
    expect(createVerificationSchema.parse({ ...valid, phone: 'garbage' })).not.toHaveProperty('phonenumber');
  });

  // Each number matches the contract's E.164 pattern; only its country's lengths tell them apart.
  it.each([
    ['+32 470', 'Too few digits for a number in Belgium (+32). Check that none is missing.'],
    ['+1 555 0100', 'Too few digits for a number starting +1. Check that none is missing.'],
    ['+32 470 12 34 56 78', 'Too many digits for a number in Belgium (+32). Check for an extra one.'],
    ['+999 123 4567', 'No country uses the code at the start of this number. Check the digits after the +, e.g. +32 for Belgium.'],
    ['+33 6 12', 'Too few digits for a number in France (+33). Check that none is missing.'],
  ])('refuses %j on the phone field, saying why', (phone, message) => {
    expect(errorsOf({ smsNotification: true, phone })).toEqual({ phone: [message] });
  });

  it.each([
    ['+32 470 12 34 56', '+32470123456'],
    ['0032 470/12.34.56', '+32470123456'],
    ['+33 6 12 34 56 78', '+33612345678'],
    ['+31 6 1234 5678', '+31612345678'],
    ['+1 (202) 555-0123', '+12025550123'],
    // A trunk zero typed after the country code is not dialled from abroad: it is dropped.
    ['+44 020 7946 0958', '+442079460958'],
    ['+44 (0)20 7946 0958', '+442079460958'],
    ['\u00a0+49 1512 3456789 ', '+4915123456789'],
  ])('accepts %j and sends it as %j', (phone, sent) => {
    expect(createVerificationSchema.parse({ ...valid, smsNotification: true, phone }).phonenumber).toBe(sent);
  });

  it('says at the SMS switch, not at the e-mail field, that an SMS cannot go alone', () => {
    const errors = errorsOf({ email: '', smsNotification: true, phone: '+32 470 12 34 56' });
    expect(errors).toEqual({ smsNotification: [SMS_NEEDS_EMAIL_OR_LINK] });
    expect(SMS_NEEDS_EMAIL_OR_LINK).toMatch(/e-mail address unless you use a shareable link/);
    // With an e-mail address or a shareable link, the same SMS is fine.
    expect(createVerificationSchema.parse({ ...valid, smsNotification: true, phone: '+32 470 12 34 56' }).smsNotification).toBe(true);
    const linkOnly = createVerificationSchema.parse({
      ...valid,
      email: '',
      shareableLink: true,
      smsNotification: true,
      phone: '+32470123456',
    });
    expect(linkOnly).toMatchObject({ shareableLink: true, smsNotification: true, phonenumber: '+32470123456' });
    expect(linkOnly).not.toHaveProperty('email');
  });

  it('reports every problem at once', () => {
    const errors = errorsOf({ name: '', email: '', purpose: '', smsNotification: true });
    expect(Object.keys(errors).sort()).toEqual(['name', 'phone', 'purpose', 'smsNotification']);
    expect(Object.keys(errorsOf({ name: '', email: '', purpose: '' })).sort()).toEqual(['email', 'name', 'purpose']);
  });

  it('normalizePhone strips what people type around the digits', () => {
    expect(normalizePhone(' +44 (0)20 7946-0958 ')).toBe('+442079460958');
    expect(normalizePhone('+1 (415) 555.0100')).toBe('+14155550100');
    expect(normalizePhone('00 31 6 1234 5678')).toBe('+31612345678');
  });
});

describe('createVerificationSchema in French and Dutch', () => {
  const errorsIn = async (language: 'fr' | 'nl', values: Partial<CreateVerificationFormValues>, defaultPhoneRegion?: 'BE') => {
    const t = (await translatorFor(language, 'create.schema')) as Translate;
    const result = createVerificationSchemaFor({ t, language, defaultPhoneRegion }).safeParse({ ...valid, ...values });
    return (result.success ? {} : z.flattenError(result.error).fieldErrors) as Record<string, string[] | undefined>;
  };

  it('says what is wrong in the reader’s language, with the limits filled in', async () => {
    expect((await errorsIn('fr', { name: '   ' })).name).toEqual(['Indiquez le nom complet de la personne.']);
    expect((await errorsIn('nl', { name: 'x'.repeat(201) })).name).toEqual(['De naam mag maximaal 200 tekens bevatten.']);
    expect((await errorsIn('fr', { email: '', smsNotification: true, phone: '+32 470 12 34 56' })).smsNotification?.[0]).toMatch(
      /^Un SMS ne peut pas être le seul moyen/,
    );
  });

  it('names the phone number’s country in the reader’s language', async () => {
    expect((await errorsIn('fr', { smsNotification: true, phone: '+32 470' })).phone).toEqual([
      'Trop peu de chiffres pour un numéro de ce pays (Belgique, +32). Vérifiez qu’aucun chiffre ne manque.',
    ]);
    expect((await errorsIn('nl', { smsNotification: true, phone: '0470 12 3x' }, 'BE')).phone?.[0]).toMatch(/nationaal nummer uit België/);
  });
});

describe('formValuesFromFormData', () => {
  it('reads checkboxes as the browser posts them and never throws on odd input', () => {
    const data = new FormData();
    data.set('name', 'Alice');
    data.set('shareableLink', 'on');
    data.append('purpose', 'legal_obligations');
    data.set('email', new Blob(['x']) as unknown as string);
    const values = formValuesFromFormData(data);
    expect(values).toMatchObject({ name: 'Alice', shareableLink: true, emailNotification: false, smsNotification: false, email: '' });
  });
});
