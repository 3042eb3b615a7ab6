// Random secrets (API keys, the person's access tokens) and the one-way hash they are stored as.
// Only hashes reach the database, so a leaked copy of it opens nothing.
import 'server-only';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes (256 bits) as base64url: 43 URL-safe characters. */
export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256, hex. A plain (unsalted) hash suffices: the inputs are 256-bit random values, not passwords. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Compares two hex hashes without leaking, through timing, how many leading characters match. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** What a generated secret looks like; anything else is refused before touching the database. */
export const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;
