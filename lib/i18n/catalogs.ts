// The message catalogs: one JSON file per feature per language, messages/<language>/<feature>.json,
// so that a feature's words travel with it. Each file is one namespace of the messages (register
// → t('register.…')). catalogs.test.ts holds every language to the same keys and arguments.
import type { Language } from './languages';

/** The catalog files each language has, one per feature. A new feature adds its name here. */
export const CATALOGS = [
  'common', // words of the domain many screens share: statuses, purposes, methods, languages
  'shell', // the frame of every page: header, menu, language switcher, error and not-found pages
  'forms', // the form kit: filters, password fields, submit buttons, form-level errors
  'auth', // sign-in, first-run setup, invitations, two-factor, sign-out and refusals
  'account', // a staff member's own account: password, sessions, second factor
  'staff', // managing staff: the list, invitations, roles, disabling
  'register', // the list of requests: filters, quick views, search, export link
  'create', // creating a request: the form, its checks, the result
  'detail', // one request: its facts, live status, history, name review, assignment, look-up
  'queue', // needs attention: what needs a person now, and who is on it
  'overview', // the team's figures for a period: charts and their tables
  'audit', // the audit trail: actions, details, filters
  'exports', // CSV files: column headers and labels
  'evidence', // a verification's evidence pack: its PDF's words, the download links, refusals
  'service', // what staff read when a read from the verification service fails
  'sandbox', // the embedded service's staff pages: outbox and webhooks
] as const;
export type Catalog = (typeof CATALOGS)[number];

export type Messages = { [key: string]: string | Messages };

const loaded = new Map<Language, Promise<Messages>>();

/** Every catalog of a language, as one object keyed by feature. Read once per process. */
export function loadMessages(language: Language): Promise<Messages> {
  let messages = loaded.get(language);
  if (!messages) {
    messages = Promise.all(
      CATALOGS.map(async (catalog) => [catalog, (await import(`../../messages/${language}/${catalog}.json`)).default] as const),
    ).then((entries) => Object.fromEntries(entries) as Messages);
    loaded.set(language, messages);
  }
  return messages;
}
