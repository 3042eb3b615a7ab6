import { describe, expect, it } from 'vitest';
import { languageFromAcceptLanguage } from './accept-language';

describe('languageFromAcceptLanguage', () => {
  it.each([
    ['nl-BE,nl;q=0.9,en;q=0.8', 'nl'],
    ['fr-BE,fr;q=0.9', 'fr'],
    ['fr-CA', 'fr'],
    ['de-DE,de;q=0.9,fr;q=0.5', 'fr'],
    ['en-GB;q=0.4,nl;q=0.8', 'nl'],
    ['de-DE', 'en'],
    ['*', 'en'],
    ['', 'en'],
    [';;;q=x,', 'en'],
  ])('%j → %s: the best of en, fr and nl, else English', (header, language) => {
    expect(languageFromAcceptLanguage(header)).toBe(language);
  });
});
