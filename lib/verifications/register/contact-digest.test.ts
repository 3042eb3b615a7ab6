// Which search terms are an address or a number, and how both are normalised before hashing (the
// lookups themselves, on both stores: queries.test.ts and search-index.test.ts).
import { describe, expect, it } from 'vitest';
import { contactDigest, contactInTerm, contactKeyFrom, contactsOfRequest } from './contact-digest.server';

const SECRET = 'a server secret of at least thirty-two characters';

describe('contactInTerm', () => {
  it('takes a whole e-mail address, trimmed and in lowercase', () => {
    expect(contactInTerm('  Joelle.Verhaeghe@Example.BE ', undefined)).toEqual({ kind: 'email', value: 'joelle.verhaeghe@example.be' });
  });

  it('takes a possible phone number in E.164, a national one only with a default region', () => {
    expect(contactInTerm('+32 470 12 34 56', undefined)).toEqual({ kind: 'phone', value: '+32470123456' });
    expect(contactInTerm('0032 470-12-34-56', undefined)).toEqual({ kind: 'phone', value: '+32470123456' });
    expect(contactInTerm('0470 12 34 56', 'BE')).toEqual({ kind: 'phone', value: '+32470123456' });
    expect(contactInTerm('0470 12 34 56', undefined)).toBeUndefined();
    expect(contactInTerm('+32 470', 'BE')).toBeUndefined();
  });

  it('leaves names, ids and parts of an address to the names and ids', () => {
    for (const term of ['Joëlle Verhaeghe', 'verhaeghe@', '@example.be', '3f1c0a52-aaaa', '0470', '12345678', 'a b@c.d']) {
      expect(contactInTerm(term, 'BE'), term).toBeUndefined();
    }
  });
});

describe('contactDigest', () => {
  it('depends on the secret, and never takes an address for a number', () => {
    const key = contactKeyFrom(SECRET);
    const phone = { kind: 'phone', value: '+32470123456' } as const;
    expect(contactDigest(key, phone)).toBe(contactDigest(contactKeyFrom(SECRET), phone));
    expect(contactDigest(key, phone)).not.toBe(contactDigest(contactKeyFrom(`${SECRET}!`), phone));
    expect(contactDigest(key, phone)).not.toBe(contactDigest(key, { kind: 'email', value: '+32470123456' }));
    expect(contactDigest(key, phone)).toMatch(/^[\w-]{43}$/);
  });

  it('hashes what a request was sent to, normalised as a search term is', () => {
    expect(contactsOfRequest({ email: 'A@B.example', phonenumber: '+32470123456' }, 'BE')).toEqual([
      { kind: 'email', value: 'a@b.example' },
      { kind: 'phone', value: '+32470123456' },
    ]);
    expect(contactsOfRequest({}, 'BE')).toEqual([]);
  });
});
