// The notice a finished request's detail page shows in the last seven days before its kept_until:
// when its data goes, in the reader's language and zone, with the evidence pack's downloads. Not
// at eight days, not for a pending request, not once kept_until has passed.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Language } from '@/lib/i18n/languages';
import { evidencePackHref } from '@/lib/verifications/evidence/links';
import { inLanguage } from '@/test/support/in-language';
import { PurgeNotice } from './purge-notice';

const NOW = Date.parse('2030-06-15T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

const render = async (
  status: string,
  keptIn: number,
  { language = 'en', timeZone = 'UTC' }: { language?: Language; timeZone?: string } = {},
) =>
  renderToStaticMarkup(
    await inLanguage(
      <PurgeNotice id="v/1" record={{ status, kept_until: new Date(NOW + keptIn).toISOString() }} now={NOW} timeZone={timeZone} />,
      language,
    ),
  );

describe('PurgeNotice', () => {
  it('at six days before kept_until, says when a completed request’s data goes and offers the evidence pack', async () => {
    const html = await render('completed', 6 * DAY);
    expect(html).toContain('This request’s data will be purged on 21 Jun 2030');
    expect(html).toContain(`href="${evidencePackHref('v/1', 'pdf')}"`);
    expect(html).toContain(`href="${evidencePackHref('v/1', 'json')}"`);
    expect(evidencePackHref('v/1', 'pdf')).toBe('/api/verifications/v%2F1/evidence?format=pdf');
  });

  it('shows for a failed or an expired request too, and not at eight days, for a pending one, or past kept_until', async () => {
    expect(await render('failed', 6 * DAY)).toContain('data-testid="purge-notice"');
    expect(await render('expired', 6 * DAY)).toContain('data-testid="purge-notice"');
    expect(await render('completed', 8 * DAY)).toBe('');
    expect(await render('pending', 6 * DAY)).toBe('');
    expect(await render('completed', -DAY)).toBe('');
  });

  it('dates it in the reader’s zone and language', async () => {
    // 21 June 2030 at 23:30 UTC is already the 22nd in Brussels.
    const keptIn = Date.parse('2030-06-21T23:30:00.000Z') - NOW;
    expect(await render('completed', keptIn, { language: 'fr', timeZone: 'Europe/Brussels' })).toContain(
      'Les données de cette demande seront supprimées définitivement le 22 juin 2030',
    );
    expect(await render('completed', keptIn, { language: 'nl', timeZone: 'Europe/Brussels' })).toContain(
      'De gegevens van dit verzoek worden op 22 jun 2030 definitief verwijderd',
    );
  });
});
