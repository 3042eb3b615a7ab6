// The staff accounts every browser test run starts with, one per role.
import path from 'node:path';

export const STAFF = {
  admin: { email: 'ada.admin@example.com', name: 'Ada Admin', password: 'admin-password-123' },
  operator: { email: 'otto.operator@example.com', name: 'Otto Operator', password: 'operator-password-123' },
  viewer: { email: 'vera.viewer@example.com', name: 'Vera Viewer', password: 'viewer-password-123' },
} as const;

export type Role = keyof typeof STAFF;

/**
 * Where the signed-in browser state of each role is kept between the setup and the tests; one
 * folder per port, so runs on different ports do not overwrite each other's sessions.
 */
export const storageStateOf = (role: Role) => path.resolve('e2e/.auth', process.env.E2E_PORT ?? '3100', `${role}.json`);

/**
 * Accounts a spec uses on the shared server instead of making one through the Staff page first:
 * created with the main staff before the server starts (playwright.config.ts), one set per
 * attempt, since a test changes its account (a second factor, spent limits) and a retry needs a
 * fresh one. Specs whose subject is adding a colleague still do it through the page.
 */
export const SEEDED = {
  throttled: { name: 'Tom Throttle', role: 'operator' },
  stranger: { name: 'Lou Lockout', role: 'operator' },
  liveReader: { name: 'Rita Reader', role: 'operator' },
  liveOther: { name: 'Oscar Other', role: 'operator' },
  twoFactorEnrol: { name: 'Tia Twofactor Enrol', role: 'operator' },
  twoFactorNoScript: { name: 'Tia Twofactor Noscript', role: 'viewer' },
  twoFactorReset: { name: 'Tia Twofactor Reset', role: 'viewer' },
  // Work in French and in Dutch (languages.spec.ts): their choice is their account's, so they
  // must not be the accounts the English tests share. Administrators, to read the audit trail.
  frenchOfficer: { name: 'Françoise Lambert', role: 'admin' },
  dutchOfficer: { name: 'Joke Peeters', role: 'admin' },
} as const satisfies Record<string, { name: string; role: Role }>;

export type SeededKey = keyof typeof SEEDED;

/** Attempts the seeded accounts cover: the first run of a test and CI's one retry. */
export const SEEDED_ATTEMPTS = 2;

export type SeededAccount = { name: string; email: string; password: string; role: Role };

/** The account `key` for attempt `retry` (test.info().retry). */
export function seededAccount(key: SeededKey, retry: number): SeededAccount {
  if (retry >= SEEDED_ATTEMPTS) throw new Error(`No seeded account ${key} for retry ${retry}: raise SEEDED_ATTEMPTS`);
  const slug = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return { ...SEEDED[key], email: `${slug}.${retry}@example.com`, password: `${slug} password, attempt ${retry}` };
}

/** Every seeded account, for the setup. */
export const allSeededAccounts = (): SeededAccount[] =>
  (Object.keys(SEEDED) as SeededKey[]).flatMap((key) => Array.from({ length: SEEDED_ATTEMPTS }, (_, retry) => seededAccount(key, retry)));
