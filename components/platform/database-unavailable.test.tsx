// The "Database unavailable" state as the server renders it (no browser: the markup is the
// contract): it names the problem in words, is announced, and offers a retry.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { inLanguage } from '@/test/support/in-language';
import { DatabaseUnavailable } from './database-unavailable';

describe('DatabaseUnavailable', () => {
  it('says the database is unavailable, as an alert, with a retry button and no technical detail', async () => {
    const html = renderToStaticMarkup(await inLanguage(<DatabaseUnavailable />, 'en'));
    expect(html).toContain('<h1 class="text-2xl font-semibold text-slate-900">Database unavailable</h1>');
    expect(html).toContain('role="alert"');
    expect(html).toMatch(/<button type="button"[^>]*>Try again<\/button>/);
    expect(html).not.toMatch(/ECONNREFUSED|57P0|postgres/i);
  });

  it('in French and Dutch, from the catalogs handed down to it', async () => {
    const fr = renderToStaticMarkup(await inLanguage(<DatabaseUnavailable />, 'fr'));
    expect(fr).toContain('>Base de données indisponible</h1>');
    expect(fr).toMatch(/<button type="button"[^>]*>Réessayer<\/button>/);
    const nl = renderToStaticMarkup(await inLanguage(<DatabaseUnavailable />, 'nl'));
    expect(nl).toContain('>Database niet beschikbaar</h1>');
    expect(nl).toMatch(/<button type="button"[^>]*>Opnieuw proberen<\/button>/);
  });
});
