// Finding a person's requests by the e-mail address or phone number they were sent to, while the
// register keeps neither: at creation the register stores a keyed hash (HMAC-SHA-256) of each,
// normalised, and a search term that is a whole address or number is hashed the same way and
// looked up. Without the key a stored hash cannot be tested against guessed addresses or the few
// million numbers of a country, which a plain hash would allow in minutes.
//
// The key is derived with HKDF from the secret that signs sessions (lib/auth/auth.ts), not read
// from a setting of its own. That secret is already what this needs: the same on every instance
// sharing a PostgreSQL store (start-up refuses without BETTER_AUTH_SECRET there), and generated
// once into the data directory, readable by the server's user only, on the embedded store. A
// second setting would be one more secret to generate, share and keep, and would stop every
// existing PostgreSQL deployment from starting until set. HKDF with a label of its own makes the
// derived key independent of the session secret: neither reveals the other. The price: replacing
// BETTER_AUTH_SECRET makes the requests created before unfindable by address or number (their names
// and ids still find them), until they leave the register at kept_until.
import 'server-only';
import { createHmac, hkdfSync } from 'node:crypto';
import type { CountryCode } from 'libphonenumber-js/min';
import { getAuthSecret } from '@/lib/auth/auth';
import { getEnv } from '@/lib/env';
import { once } from '@/lib/platform/database';
import { phoneInE164 } from '@/lib/verifications/create/phone-number';

/** A contact as the register hashes it: which kind, and its normalised value. */
export type Contact = { kind: 'email' | 'phone'; value: string };

const KEY_LABEL = 'verification-desk/contact-lookup/v1';

/** The lookup's key, derived from `secret` (see above). */
export function contactKeyFrom(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, '', KEY_LABEL, 32));
}

/** This server's lookup key. */
export function getContactKey(): Promise<Buffer> {
  return once('contact-lookup-key', async () => contactKeyFrom(await getAuthSecret()));
}

/**
 * The stored form of a contact. The kind is hashed with the value, so an address can never be
 * taken for a number.
 */
export function contactDigest(key: Buffer, { kind, value }: Contact): string {
  return createHmac('sha256', key).update(`${kind}:${value}`).digest('base64url');
}

/** An address as the register compares it: its case does not tell two people apart in practice. */
export function normalisedEmail(email: string): string {
  return email.trim().toLowerCase();
}

// An address typed whole: something, one @, a domain with a dot; no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// A number typed whole: + or 0 first (international, 00…, or national with its trunk zero), then
// only digits and the separators people type; an id or a name never looks like that for long.
const PHONE = /^(\+|0)[\d\s\-.()/\u00a0]{5,}$/;

/**
 * The contact a search term is, if it is one: an e-mail address, or a phone number in E.164
 * (typed internationally, or nationally for the default region). Anything else is a name or an id.
 */
export function contactInTerm(term: string, defaultRegion: CountryCode | undefined): Contact | undefined {
  const text = term.trim();
  if (EMAIL.test(text)) return { kind: 'email', value: normalisedEmail(text) };
  if (!PHONE.test(text)) return undefined;
  const phone = phoneInE164(text, defaultRegion);
  return phone === undefined ? undefined : { kind: 'phone', value: phone };
}

/** The contacts a request was sent to, normalised as the search normalises what staff type. */
export function contactsOfRequest(request: { email?: string; phonenumber?: string }, defaultRegion: CountryCode | undefined): Contact[] {
  const contacts: Contact[] = [];
  if (request.email) contacts.push({ kind: 'email', value: normalisedEmail(request.email) });
  const phone = request.phonenumber ? phoneInE164(request.phonenumber, defaultRegion) : undefined;
  if (phone) contacts.push({ kind: 'phone', value: phone });
  return contacts;
}

/** What the register keeps for a new request: the keyed hashes of its contacts. */
export async function contactDigestsOfRequest(request: { email?: string; phonenumber?: string }): Promise<string[]> {
  const contacts = contactsOfRequest(request, getEnv().DEFAULT_PHONE_REGION);
  if (contacts.length === 0) return [];
  const key = await getContactKey();
  return contacts.map((contact) => contactDigest(key, contact));
}

/** The hash to look a search term up by, when it is an address or a number. */
export async function searchTermDigest(term: string): Promise<string | undefined> {
  const contact = contactInTerm(term, getEnv().DEFAULT_PHONE_REGION);
  return contact ? contactDigest(await getContactKey(), contact) : undefined;
}
