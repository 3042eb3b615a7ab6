// The server's password rules for every new password (setup, invitations, changing one's own,
// the CLI): at least PASSWORD_MIN characters, and not one of the passwords people pick most
// often. No composition rules: they make passwords harder to remember, not harder to guess.
// Server-only, because the list (about 49,000 entries) has no place in the browser's bundle; the
// forms' shared schema checks the length, and the server answers this check on the field.
import 'server-only';
import { dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MIN } from './password-length';

let common: ReadonlySet<string> | undefined;

/** The list, lower-cased, built on first use rather than when the module loads. */
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set((dictionary['passwords-common'] as readonly string[]).map((entry) => entry.toLowerCase()));
  return common;
}

/** What is wrong with `password` as a new password, in words for the form, or null when it is fine. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return `Use at least ${PASSWORD_MIN} characters.`;
  if (password.length > 256) return 'Use at most 256 characters.';
  // Case and surrounding spaces do not make a listed password any harder to guess.
  if (commonPasswords().has(password.trim().toLowerCase())) {
    return 'This password is one of the most common ones and easy to guess; choose another (a few unrelated words work well).';
  }
  return null;
}
