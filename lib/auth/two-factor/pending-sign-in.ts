// Whose sign-in a second-factor code is for, read before better-auth judges the code: better-auth
// names the account only when the code is right, and a wrong one must still be audited, logged
// and checked one at a time per account (sign-in-challenge.ts). The pending sign-in is
// better-auth's signed cookie naming a verification row whose value is the account's id; it is
// read here exactly as better-auth reads it (the first cookie of that name, its HMAC signature
// with the auth secret, then the row), and better-auth is then handed that one cookie only, so
// both always speak of the same sign-in.
import 'server-only';
import { constantTimeEqual, makeSignature } from 'better-auth/crypto';
import type { Auth } from '../auth';

/** better-auth's name for the pending sign-in's cookie, before its prefix. */
const PENDING_COOKIE = 'two_factor';

export type PendingSignIn = {
  userId: string;
  /** The request's headers with the pending sign-in's cookie once: what better-auth is to read. */
  headers: Headers;
};

function decoded(value: string): string {
  const unquoted = value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  try {
    return decodeURIComponent(unquoted);
  } catch {
    return unquoted;
  }
}

/** The signed value of a cookie, or null when its signature is not the secret's (signed as better-auth signs it). */
async function verified(cookieValue: string, secret: string): Promise<string | null> {
  const dot = cookieValue.lastIndexOf('.');
  if (dot < 1) return null;
  const value = cookieValue.slice(0, dot);
  return constantTimeEqual(cookieValue.slice(dot + 1), await makeSignature(value, secret)) ? value : null;
}

export async function pendingSignIn(auth: Auth, requestHeaders: Headers): Promise<PendingSignIn | null> {
  const context = await auth.$context;
  const name = context.createAuthCookie(PENDING_COOKIE).name;
  const nameOf = (chunk: string) => {
    const eq = chunk.indexOf('=');
    return eq > 0 ? chunk.slice(0, eq).trim() : null;
  };
  const chunks = (requestHeaders.get('cookie') ?? '').split(';');
  const chosen = chunks.find((chunk) => nameOf(chunk) === name);
  if (chosen === undefined) return null;

  const identifier = await verified(decoded(chosen.slice(chosen.indexOf('=') + 1).trim()), context.secret);
  if (identifier === null) return null;
  const row = await context.internalAdapter.findVerificationValue(identifier);
  if (!row || new Date(row.expiresAt).getTime() <= Date.now()) return null;

  const headers = new Headers(requestHeaders);
  const others = chunks.filter((chunk) => nameOf(chunk) !== name);
  headers.set(
    'cookie',
    [...others, chosen]
      .map((chunk) => chunk.trim())
      .filter((chunk) => chunk !== '')
      .join('; '),
  );
  return { userId: row.value, headers };
}
