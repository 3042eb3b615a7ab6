// The detail page of a request the service has purged: when (kept_until, in the reader's zone),
// under which policy, and what the register still holds, labelled as the register's copy, names
// marked as user data. The history is the page's own (VerificationTimeline), handed in.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Language } from '@/lib/i18n/languages';
import type { PurgedRequest } from '@/lib/verifications/record/purged.server';
import { inLanguage } from '@/test/support/in-language';
import { PurgedVerification } from './purged-verification';

const REQUEST: PurgedRequest = {
  purgedOn: '2030-06-13T12:00:00.000Z',
  requestedName: 'Zoë Ørsted-Müller',
  purpose: 'ensuring_compliance',
  createdAt: '2030-05-05T09:30:00.000Z',
  createdByName: 'Ada Admin',
  lastStatus: 'failed',
  identifiedName: null,
  completedAt: null,
  method: null,
  failureReason: 'document_expired',
};

const render = async (request: PurgedRequest, language: Language = 'en') =>
  renderToStaticMarkup(
    await inLanguage(<PurgedVerification id="v-1" request={request} timeZone="Europe/Brussels" history={<p>the history</p>} />, language),
  );
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('PurgedVerification', () => {
  it('says when it was purged and under which policy, shows the register’s copy as such, and keeps the history', async () => {
    const html = await render(REQUEST);
    expect(text(html)).toContain('Purged on 13 Jun 2030 under the retention policy');
    expect(html).toMatch(/<h2[^>]*>The register’s copy<\/h2>/);
    expect(text(html)).toContain('Last known status Failed');
    expect(text(html)).toContain('Purpose Ensuring compliance');
    expect(text(html)).toContain('Created 5 May 2030, 11:30 CEST');
    expect(html).toMatch(/<dd[^>]*translate="no"[^>]*>Ada Admin<\/dd>/);
    expect(html).toMatch(/<h1[^>]*translate="no"[^>]*>Zoë Ørsted-Müller<\/h1>/);
    expect(text(html)).toContain('document_expired');
    expect(html).toContain('the history');
    expect(html).not.toContain('not found');
  });

  it('says "Deleted account" when the creator’s account is gone, and words it all in French and Dutch', async () => {
    expect(text(await render({ ...REQUEST, createdByName: null }))).toContain('Created by Deleted account');
    expect(text(await render(REQUEST, 'fr'))).toContain(
      'Supprimée définitivement le 13 juin 2030 conformément à la politique de conservation',
    );
    expect(text(await render(REQUEST, 'nl'))).toContain('Op 13 jun 2030 definitief verwijderd volgens het bewaarbeleid');
  });
});
