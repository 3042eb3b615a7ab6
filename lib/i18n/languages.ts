// The dashboard's languages. Adding a language is adding its code here and its catalog files
// under messages/<code>/ (README, "Adding a language"). Client-safe: the browser's code reads
// these too, so how a header picks one (accept-language.ts) lives apart.
export const LANGUAGES = ['en', 'fr', 'nl'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language in its own words, for the switcher: a reader finds theirs whatever is shown. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', fr: 'Français', nl: 'Nederlands' };

/**
 * The locale dates and numbers are written in. Day before month in all three; the Belgian forms
 * of French and Dutch, the dashboard's first users ("24/11/2026", "24 nov. 2026").
 */
export const FORMAT_LOCALES: Record<Language, string> = { en: 'en-GB', fr: 'fr-BE', nl: 'nl-BE' };

/** The cookie that remembers the choice of someone not signed in (and mirrors a signed-in one's). */
export const LANGUAGE_COOKIE = 'vd-language';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
