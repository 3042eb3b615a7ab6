// The audit trail page's words for the stored details: every kind the dashboard records, and
// anything unknown shown as stored rather than dropped.

import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerInLanguage } from '@/test/support/next-intl-server';
import { auditDetailsDescriber, type DescribeAuditDetails } from './details';

describe('describeAuditDetails', () => {
  let describeAuditDetails: DescribeAuditDetails;
  beforeAll(async () => {
    describeAuditDetails = await auditDetailsDescriber();
  });
  it('says a status change and a review decision with what they replaced, in the page’s words', () => {
    expect(describeAuditDetails('verification.status_changed', { status: 'completed', previous: 'pending' })).toBe(
      'Status: Completed (was Pending)',
    );
    expect(describeAuditDetails('verification.reviewed', { decision: 'same_person', previous: 'different_person' })).toBe(
      'Decision: Same person (was Not the same person)',
    );
    expect(describeAuditDetails('verification.reviewed', { decision: 'different_person' })).toBe('Decision: Not the same person');
  });

  it('names roles and refusal reasons instead of their codes', () => {
    expect(describeAuditDetails('staff.created', { role: 'admin' })).toBe('Role: Administrator');
    expect(describeAuditDetails('staff.role_changed', { from: 'viewer', to: 'operator' })).toBe('Role: Operator (was Viewer)');
    expect(describeAuditDetails('sso.refused', { reason: 'unverified' })).toBe('Reason: the provider has not verified the e-mail address');
    expect(describeAuditDetails('verification.removed', { reason: 'retention' })).toBe('Reason: its retention period ended');
    expect(describeAuditDetails('sessions.others_ended', { count: 1 })).toBe('1 other session ended');
    expect(describeAuditDetails('sessions.others_ended', { count: 3 })).toBe('3 other sessions ended');
    expect(describeAuditDetails('sessions.oldest_ended', { count: 1 })).toBe(
      '1 oldest session ended: a new sign-in went past the limit of live sessions',
    );
  });

  it('sums up an export: rows, whether it finished, and its filters, with no search text to show', () => {
    expect(
      describeAuditDetails('register.exported', {
        status: 'pending',
        purpose: 'legal_obligations',
        view: 'review',
        createdBy: 'mine',
        from: '2030-01-01',
        search: true,
        rows: 1234,
        complete: true,
      }),
    ).toBe(
      '1,234 rows · Filters: status Pending, purpose Legal obligation, view Needs review, created by the exporter, from 2030-01-01, a search',
    );
    expect(describeAuditDetails('audit.exported', { from: '2030-01-01', timeZone: 'Europe/Brussels', rows: 5, complete: true })).toBe(
      '5 rows · Filters: from 2030-01-01, days in Europe/Brussels',
    );
    expect(describeAuditDetails('audit.exported', { verification: 'abc', rows: 1, complete: false })).toBe(
      '1 row, then the download was stopped · Filters: verification abc',
    );
    expect(describeAuditDetails('register.exported', { rows: 0, complete: true })).toBe('0 rows · No filters');
    expect(
      describeAuditDetails('overview.exported', {
        period: 'custom',
        from: '2030-01-01',
        to: '2030-01-31',
        days: 31,
        timeZone: 'UTC',
        language: 'fr',
        channel: 'sms',
        rows: 140,
        complete: true,
      }),
    ).toBe('140 rows · Filters: period custom, from 2030-01-01, to 2030-01-31, 31 days, days in UTC, person’s language fr, sent by sms');
  });

  it('keeps a detail it has no words for, as stored, and says nothing when there are none', () => {
    expect(describeAuditDetails('sso.refused', { reason: 'brand_new', attempt: 2 })).toBe('Reason: brand_new · attempt: 2');
    expect(describeAuditDetails('sign_in.failed', null)).toBeNull();
    expect(describeAuditDetails('sign_in.failed', {})).toBeNull();
  });
});

describe('the details in the reader’s language', () => {
  afterEach(() => answerInLanguage('en'));

  it('says changes, reasons, plurals and an export’s rows in French', async () => {
    answerInLanguage('fr');
    const inWords = await auditDetailsDescriber();
    expect(inWords('verification.status_changed', { status: 'completed', previous: 'pending' })).toBe(
      'Statut\u00a0: Terminée (auparavant\u00a0: En attente)',
    );
    expect(inWords('staff.role_changed', { from: 'viewer', to: 'admin' })).toBe('Rôle\u00a0: Administrateur (auparavant\u00a0: Lecteur)');
    expect(inWords('sessions.others_ended', { count: 1 })).toBe('1 autre session fermée');
    expect(inWords('sessions.others_ended', { count: 3 })).toBe('3 autres sessions fermées');
    expect(inWords('audit.exported', { verification: 'abc', rows: 1234, complete: false })).toBe(
      '1\u202f234 lignes, puis le téléchargement a été interrompu · Filtres\u00a0: vérification abc',
    );
  });

  it('says them in Dutch, codes it does not know kept as stored', async () => {
    answerInLanguage('nl');
    const inWords = await auditDetailsDescriber();
    expect(inWords('verification.reviewed', { decision: 'different_person', previous: 'same_person' })).toMatch(
      /^Beslissing: .+ \(voorheen .+\)$/,
    );
    expect(inWords('verification.removed', { reason: 'retention' })).toBe('Reden: de bewaartermijn is verstreken');
    expect(inWords('sessions.oldest_ended', { count: 2 })).toMatch(/^2 oudste sessies beëindigd: /);
    expect(inWords('register.exported', { purpose: 'custom', view: 'stuck', rows: 1, complete: true })).toBe(
      '1 rij · Filters: doeleinde ander doeleinde, weergave Stilgevallen',
    );
    expect(inWords('sso.refused', { reason: 'brand_new' })).toBe('Reden: brand_new');
  });
});
