// The detail page's evidence pack section: for a finished request, two plain download links (they
// work without JavaScript) to the pack's route; nothing for a request still pending.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { evidencePackHref } from '@/lib/verifications/evidence/links';
import { EvidencePackLinks } from './evidence-pack-links';

const render = async (status: string) => {
  const element = await EvidencePackLinks({ id: 'v/1', status });
  return element ? renderToStaticMarkup(element) : '';
};

describe('EvidencePackLinks', () => {
  it('offers the PDF and the signed JSON of a completed, failed or expired request as plain downloads', async () => {
    const html = await render('completed');
    expect(html).toContain(`<a href="${evidencePackHref('v/1', 'pdf')}" download=""`);
    expect(html).toContain(`<a href="${evidencePackHref('v/1', 'json')}" download=""`);
    expect(html).toContain('Download PDF');
    expect(html).toContain('Download signed JSON');
    expect(await render('failed')).toContain('data-testid="evidence-pack"');
    expect(await render('expired')).toContain('data-testid="evidence-pack"');
  });

  it('offers nothing while the request is pending: its story is not over', async () => {
    expect(await render('pending')).toBe('');
  });
});
