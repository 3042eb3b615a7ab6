// The "Database unavailable" state as the server renders it (no browser: the markup is the
// contract): it names the problem in words, is announced, and offers a retry.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DATABASE_UNAVAILABLE_TITLE, DatabaseUnavailable } from './database-unavailable';

describe('DatabaseUnavailable', () => {
  it('says the database is unavailable, as an alert, with a retry button and no technical detail', () => {
    const html = renderToStaticMarkup(<DatabaseUnavailable />);
    expect(html).toContain(`<h1 class="text-2xl font-semibold text-slate-900">${DATABASE_UNAVAILABLE_TITLE}</h1>`);
    expect(html).toContain('role="alert"');
    expect(html).toMatch(/<button type="button"[^>]*>Try again<\/button>/);
    expect(html).not.toMatch(/ECONNREFUSED|57P0|postgres/i);
  });
});
