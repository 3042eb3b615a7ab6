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

/** What is wrong with `password` as a new password, as a code (its words: auth.validation), or null when it is fine. */
export type PasswordProblem = 'passwordTooShort' | 'passwordAtMost' | 'passwordCommon';

export function passwordProblemCode(password: string): PasswordProblem | null {
  if (password.length < PASSWORD_MIN) return 'passwordTooShort';
  if (password.length > 256) return 'passwordAtMost';
  // Case and surrounding spaces do not make a listed password any harder to guess.
  if (commonPasswords().has(password.trim().toLowerCase())) return 'passwordCommon';
  return null;
}

/**
 * The same in English, for the command line and the forms not yet in the reader's language; a
 * form of the pages before sign-in says passwordProblemCode's code in the reader's language.
 */
export function passwordProblem(password: string): string | null {
  switch (passwordProblemCode(password)) {
    case 'passwordTooShort':
      return `Use at least ${PASSWORD_MIN} characters.`;
    case 'passwordAtMost':
      return 'Use at most 256 characters.';
    case 'passwordCommon':
      return 'This password is one of the most common ones and easy to guess; choose another (a few unrelated words work well).';
    case null:
      return null;
  }
}
