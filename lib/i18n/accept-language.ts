// Which of our languages a browser asks for, from its Accept-Language header. Server-only: the
// header parser and the matcher would otherwise travel to every page (~2.5 KB gzip).
import 'server-only';
import { match } from '@formatjs/intl-localematcher';
import Negotiator from 'negotiator';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from './languages';

/**
 * The best of our languages for an Accept-Language header ("nl-BE,nl;q=0.9,en;q=0.8" → nl), or
 * the default. Regional forms match their language; an unknown or malformed header is the default.
 */
export function languageFromAcceptLanguage(header: string | null | undefined): Language {
  if (!header) return DEFAULT_LANGUAGE;
  const requested = new Negotiator({ headers: { 'accept-language': header } }).languages();
  try {
    const chosen = match(requested, [...LANGUAGES], DEFAULT_LANGUAGE);
    return isLanguage(chosen) ? chosen : DEFAULT_LANGUAGE;
  } catch {
    // A tag Intl cannot read ("*", "x-klingon-"): nothing usable was asked for.
    return DEFAULT_LANGUAGE;
  }
}
