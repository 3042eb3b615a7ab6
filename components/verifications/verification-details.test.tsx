// What the detail page's record says, rendered on the server as the page does: a finished
// request's closed link and its status shown once, "None yet" only while pending, and a
// completion with another name flagged beside the status with both names as written.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Language } from '@/lib/i18n/languages';
import type { VerificationRecord } from '@/lib/verification-service/schemas';
import { completedNameComparison } from '@/lib/verifications/review/comparison';
import { inLanguage } from '@/test/support/in-language';
import { expiresInText } from './recent-requests';
import { DetailsView, type DetailsViewProps, VerificationDetails } from './verification-details';

const NOW = Date.parse('2030-06-15T12:00:00.000Z');

function record(overrides: Partial<VerificationRecord> = {}): VerificationRecord {
  return {
    verification_id: 'id-1',
    inputted_name: 'Élodie Martin',
    identified_name: null,
    identified_date: null,
    verification_method: null,
    status: 'pending',
    failed_reason: null,
    purpose: 'legal_obligations',
    access_expires_at: '2030-06-22T12:00:00.000Z',
    kept_until: '2030-07-15T12:00:00.000Z',
    ...overrides,
  } as VerificationRecord;
}

// The names are compared as the page does (on the server, or in the live part) and handed over.
const comparisonOf = (shown: VerificationRecord, requestedName?: string) =>
  completedNameComparison(shown.status, requestedName ?? shown.inputted_name, shown.identified_name);
const render = async ({
  requestedName,
  language = 'en',
  ...props
}: Partial<DetailsViewProps> & { record: VerificationRecord; requestedName?: string; language?: Language }) =>
  renderToStaticMarkup(
    await inLanguage(
      <DetailsView
        id="id-1"
        now={NOW}
        refreshing={false}
        onRefresh={() => undefined}
        nameComparison={comparisonOf(props.record, requestedName)}
        {...props}
      />,
      language,
    ),
  );
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
const occurrences = (html: string, word: string) => text(html).split(word).length - 1;

const COMPLETED = {
  status: 'completed',
  identified_name: 'ÉLISE MARTIN',
  identified_date: '2030-06-15T11:00:00.000Z',
  verification_method: 'passport',
};

describe('DetailsView', () => {
  it('while pending: the link’s deadline and "None yet" for the method', async () => {
    const html = text(await render({ record: record() }));
    expect(html).toContain('Link valid until');
    expect(html).toContain('expires in');
    expect(html).toContain('None yet');
  });

  it('phrases the link’s deadline as the register does, rounding the same way', async () => {
    // 23 h 40 min left: rounded to the nearest hour this read "in 24 hours" here and "23 h" there.
    const expiresAt = new Date(NOW + 23 * 3_600_000 + 40 * 60_000);
    const html = text(await render({ record: record({ access_expires_at: expiresAt.toISOString() }) }));
    expect(html).toContain('(expires in 23 hours)');
    expect(html).toContain(`(${expiresInText(expiresAt, new Date(NOW))})`);
    expect(html).toContain('16 Jun 2030, 11:40 UTC');
  });

  it.each(['completed', 'failed', 'expired'])('once %s: the link is closed, with no deadline to read', async (status) => {
    const html = text(
      await render({ record: record({ status, ...(status === 'completed' ? COMPLETED : {}) } as Partial<VerificationRecord>) }),
    );
    expect(html).not.toContain('Link valid until');
    expect(html).not.toContain('expires in');
    expect(html).toContain(`Closed: the request is ${status}, so the link no longer opens.`);
    expect(html).not.toContain('None yet');
  });

  it('shows the status once', async () => {
    const html = await render({ record: record({ status: 'failed', failed_reason: 'document_expired' } as Partial<VerificationRecord>) });
    expect(occurrences(html, 'Failed')).toBe(1);
    expect((html.match(/data-status=/g) ?? []).length).toBe(1);
  });

  it('flags a completion with another name beside the status, both names as written', async () => {
    const completed = record(COMPLETED as Partial<VerificationRecord>);
    const html = renderToStaticMarkup(
      await inLanguage(
        <VerificationDetails
          id="id-1"
          initialRecord={completed}
          requestedName="Élodie Martin"
          nameComparison={comparisonOf(completed, 'Élodie Martin')}
        />,
      ),
    );
    // As the browser reads it (no space is added between elements).
    expect(html.replace(/<[^>]+>/g, '')).toContain('Status: Completed — name differs, review needed');
    expect(html).toMatch(/data-testid="requested-name"[^>]*>Élodie Martin</);
    expect(html).toMatch(/data-testid="identified-name"[^>]*>ÉLISE MARTIN</);
    expect(text(html)).toContain('Requested “Élodie”, identified “ÉLISE”');
  });

  it('says what was decided once a decision is recorded', async () => {
    const html = text(
      await render({
        record: record(COMPLETED as Partial<VerificationRecord>),
        requestedName: 'Élodie Martin',
        reviewDecision: 'different_person',
      }),
    );
    expect(html).toContain('Completed — name differs, reviewed: not the same person');
    expect(html).not.toContain('review needed');
  });

  it('does not flag a name that differs only in case and accents', async () => {
    const html = text(
      await render({
        record: record({ ...COMPLETED, identified_name: 'ELODIE MARTIN' } as Partial<VerificationRecord>),
        requestedName: 'Élodie Martin',
      }),
    );
    expect(html).not.toContain('name differs');
  });

  it('reads in French and in Dutch: the closed link names the status in the reader’s words, the deadline in their language', async () => {
    const fr = text(await render({ record: record({ status: 'expired' } as Partial<VerificationRecord>), language: 'fr' }));
    expect(fr).toContain('Fermé : la demande est expirée, le lien ne s’ouvre donc plus.');
    expect(fr).toContain('Finalité du traitement Obligation légale');
    const nl = text(await render({ record: record(), language: 'nl' }));
    expect(nl).toContain('Link geldig tot');
    expect(nl).toContain('(verloopt over 7 dagen)');
    expect(nl).toContain('Verificatiemethode Nog geen');
  });

  it('flags a name mismatch in French: the status words and why the names differ, the names as written', async () => {
    const completed = record(COMPLETED as Partial<VerificationRecord>);
    const html = renderToStaticMarkup(
      await inLanguage(
        <VerificationDetails
          id="id-1"
          initialRecord={completed}
          requestedName="Élodie Martin"
          nameComparison={comparisonOf(completed, 'Élodie Martin')}
        />,
        'fr',
      ),
    );
    expect(html.replace(/<[^>]+>/g, '')).toContain('Statut\u00a0: Terminée — divergence de nom, à contrôler');
    expect(html).toContain('Nom indiqué «\u00a0Élodie\u00a0», nom identifié «\u00a0ÉLISE\u00a0»');
  });
});
