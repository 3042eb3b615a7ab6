// The audit trail's filter in the query string: read, written back, and the link other pages use.
import { getTranslations } from 'next-intl/server';
import { describe, expect, it } from 'vitest';
import { auditExportHref, auditTrailHrefFor, auditTrailQuery, parseAuditFilter } from './filter';

describe('parseAuditFilter', () => {
  it('reads every filter, ignoring empty fields (an untouched GET form)', () => {
    expect(
      parseAuditFilter({ verification: ' v-1 ', actor: 'staff-1', action: 'link.copied', from: '2030-01-01', to: '2030-01-31', page: '2' }),
    ).toEqual({
      filter: { verification: 'v-1', actor: 'staff-1', action: 'link.copied', from: '2030-01-01', to: '2030-01-31' },
      problems: [],
    });
    expect(parseAuditFilter({ verification: '', actor: '', action: '', from: '', to: '' })).toEqual({ filter: {}, problems: [] });
  });

  it('drops and reports each value it does not understand, keeping the others', async () => {
    const { filter, problems } = parseAuditFilter({
      verification: 'a\u0000b',
      actor: 'has space',
      action: 'verification.deleted',
      from: '2030-13-01',
      to: '2030-01-31',
    });
    expect(filter).toEqual({ to: '2030-01-31' });
    expect(problems.map((p) => p.field)).toEqual(['verification', 'actor', 'action', 'from']);
    // The page says each problem in the reader's words (audit.json, problems.<field>).
    const t = await getTranslations('audit');
    expect(t(`problems.${problems[2]!.field}`, { max: 200 })).toBe('The action was not recognised, so all actions are shown.');
  });

  it('takes reversed dates to mean the same range, and the first of repeated values', () => {
    expect(parseAuditFilter({ from: '2030-02-01', to: '2030-01-01', action: ['link.copied', 'sign_out'] }).filter).toEqual({
      from: '2030-01-01',
      to: '2030-02-01',
      action: 'link.copied',
    });
  });
});

describe('links to the audit trail', () => {
  it('writes a filter back as the query string the page reads', () => {
    const filter = { verification: 'v 1/é', actor: 'staff-1', action: 'link.copied' as const, from: '2030-01-01' };
    const query = auditTrailQuery(filter);
    expect(query).toBe('?verification=v+1%2F%C3%A9&actor=staff-1&action=link.copied&from=2030-01-01');
    expect(parseAuditFilter(Object.fromEntries(new URLSearchParams(query))).filter).toEqual(filter);
    expect(auditTrailQuery({})).toBe('');
  });

  it('auditTrailHrefFor narrows the audit trail to one verification id, whatever characters it holds', () => {
    expect(auditTrailHrefFor('3f2a-b&c=d')).toBe('/audit?verification=3f2a-b%26c%3Dd');
    const search = new URL(auditTrailHrefFor('3f2a-b&c=d'), 'http://localhost').searchParams;
    expect(parseAuditFilter(Object.fromEntries(search)).filter).toEqual({ verification: '3f2a-b&c=d' });
  });

  it('auditExportHref keeps the filters for the CSV export', () => {
    expect(auditExportHref({ action: 'sign_out', to: '2030-01-01' })).toBe('/api/exports/audit?action=sign_out&to=2030-01-01');
    expect(auditExportHref({})).toBe('/api/exports/audit');
  });
});
