// The audit trail page's words for the stored details: every kind the dashboard records, and
// anything unknown shown as stored rather than dropped.

import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerInLanguage } from '@/test/support/next-intl-server';
import { type AuditDetailsPart, auditDetailsDescriber, auditDetailsText, auditNoteHref, type DescribeAuditDetails } from './details';

// The accounts the page lists: Ann and Bob still have one; 'staff-gone' has none any more.
const NAMES: ReadonlyMap<string, string> = new Map([
  ['staff-a', 'Ann Admin'],
  ['staff-b', 'Bob Operator'],
]);

/** The describer's parts as the text a reader sees. */
const inText = (describeParts: DescribeAuditDetails) => (action: string, details: Record<string, unknown> | null) =>
  auditDetailsText(describeParts(action, details, NAMES));

describe('describeAuditDetails', () => {
  let describeParts: DescribeAuditDetails;
  let describeAuditDetails: ReturnType<typeof inText>;
  beforeAll(async () => {
    describeParts = await auditDetailsDescriber();
    describeAuditDetails = inText(describeParts);
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
    expect(describeAuditDetails('evidence.downloaded', { format: 'json' })).toBe('Format: JSON');
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

  it('names an assignment’s people by their current name, each as a name part, not by their ids', () => {
    expect(describeParts('verification.assigned', { assignee: 'staff-b', previous: 'staff-a' }, NAMES)).toEqual<AuditDetailsPart[]>([
      { text: 'Assignee: ' },
      { name: 'Bob Operator' },
      { text: ' (was ' },
      { name: 'Ann Admin' },
      { text: ')' },
    ]);
    expect(describeAuditDetails('verification.assigned', { assignee: 'staff-b' })).toBe('Assignee: Bob Operator');
    expect(describeAuditDetails('verification.unassigned', { previous: 'staff-a', reason: 'staff_disabled' })).toBe(
      'Was assigned to: Ann Admin · Reason: the assignee’s account was disabled',
    );
  });

  it('says “a former colleague” for an id no account has any more, in words rather than as a name', () => {
    const parts = describeParts('verification.assigned', { assignee: 'staff-gone', previous: 'staff-a' }, NAMES);
    expect(auditDetailsText(parts)).toBe('Assignee: a former colleague (was Ann Admin)');
    // Only the name that resolved is marked as a name: the former colleague is the reader's words.
    expect(parts?.filter((part) => 'name' in part)).toEqual([{ name: 'Ann Admin' }]);
    expect(describeAuditDetails('verification.unassigned', { previous: 'staff-gone' })).toBe('Was assigned to: a former colleague');
    // A stored value cannot pose as a name: only ids the page resolved become name parts.
    const forged = describeParts('verification.assigned', { assignee: 'staff-a', odd: '\uE0000\uE001' }, NAMES);
    expect(forged?.filter((part) => 'name' in part)).toEqual([{ name: 'Ann Admin' }]);
    expect(auditDetailsText(forged)).toBe('Assignee: Ann Admin · odd: 0');
  });

  it('names the staff members an export was filtered by: actor, creator and assignee', () => {
    expect(describeAuditDetails('audit.exported', { actor: 'staff-a', rows: 2, complete: true })).toBe(
      '2 rows · Filters: staff member Ann Admin',
    );
    expect(describeAuditDetails('audit.exported', { actor: 'staff-gone', rows: 2, complete: true })).toBe(
      '2 rows · Filters: actions of a former colleague',
    );
    expect(describeParts('register.exported', { createdBy: 'staff-b', assignee: 'staff-a', rows: 1, complete: true }, NAMES)).toEqual<
      AuditDetailsPart[]
    >([{ text: '1 row · Filters: created by ' }, { name: 'Bob Operator' }, { text: ', assigned to ' }, { name: 'Ann Admin' }]);
    expect(describeAuditDetails('register.exported', { createdBy: 'staff-gone', assignee: 'mine', rows: 1, complete: true })).toBe(
      '1 row · Filters: created by a former colleague, assigned to the exporter',
    );
    expect(describeAuditDetails('register.exported', { assignee: 'unassigned', rows: 1, complete: true })).toBe(
      '1 row · Filters: not assigned',
    );
  });

  it('says whether a note is new or corrects an earlier one, never its ids, and links to the note on its request', () => {
    expect(describeAuditDetails('verification.note_added', { noteId: 'n-2' })).toBe('A new note');
    expect(describeAuditDetails('verification.note_added', { noteId: 'n-2', correctsNoteId: 'n-1' })).toBe(
      'A correction of an earlier note',
    );
    const entry = { action: 'verification.note_added', targetType: 'verification', targetId: 'req 1', details: { noteId: 'n-2' } };
    expect(auditNoteHref(entry)).toBe('/verifications/req%201#note-n-2');
    expect(auditNoteHref({ ...entry, details: null })).toBeNull();
    expect(auditNoteHref({ ...entry, action: 'verification.viewed' })).toBeNull();
    expect(auditNoteHref({ ...entry, targetId: null })).toBeNull();
  });

  it('says an invitation’s refused step, a wrong second-factor code’s method and run, and a lock’s length', () => {
    expect(describeAuditDetails('invitation.refused', { reason: 'single_sign_on', step: 'accept' })).toBe(
      'Reason: the account signs in with single sign-on · when the invitation was accepted',
    );
    expect(describeAuditDetails('two_factor.failed', { method: 'totp', inARow: 1 })).toBe(
      'Code from an authenticator app · 1 wrong code in a row',
    );
    expect(describeAuditDetails('two_factor.failed', { method: 'backup', inARow: 4 })).toBe('Backup code · 4 wrong codes in a row');
    expect(describeAuditDetails('two_factor.locked', { minutes: 15 })).toBe('Locked for 15 minutes');
  });

  it('shows no stored key and no staff id for any details the dashboard writes', () => {
    // One of each shape the writers store (recordAudit's callers), values as they write them.
    const written: [string, Record<string, string | number | boolean>][] = [
      ['verification.status_changed', { status: 'failed', previous: 'pending' }],
      ['verification.reviewed', { decision: 'same_person', previous: 'different_person' }],
      ['verification.note_added', { noteId: 'n-2', correctsNoteId: 'n-1' }],
      ['verification.assigned', { assignee: 'staff-b', previous: 'staff-a' }],
      ['verification.unassigned', { previous: 'staff-a', reason: 'staff_disabled' }],
      ['verification.assigned', { assignee: 'staff-gone', previous: 'staff-gone' }],
      ['verification.unassigned', { previous: 'staff-gone', reason: 'staff_role_changed' }],
      ['verification.removed', { reason: 'purged' }],
      ['staff.created', { role: 'operator' }],
      ['staff.role_changed', { from: 'operator', to: 'viewer' }],
      ['sso.refused', { reason: 'other_identity' }],
      ['invitation.voided', { reason: 'single_sign_on' }],
      ['invitation.refused', { reason: 'single_sign_on', step: 'issue' }],
      ['two_factor.failed', { method: 'backup', inARow: 2 }],
      ['two_factor.locked', { minutes: 15 }],
      ['sessions.others_ended', { count: 2 }],
      ['sessions.oldest_ended', { count: 2 }],
      ['register.exported', { status: 'pending', rows: 3, complete: true }],
      ['evidence.downloaded', { format: 'pdf' }],
      ['audit.exported', { actor: 'staff-a', action: 'verification.viewed', rows: 3, complete: true }],
      ['audit.exported', { actor: 'staff-gone', rows: 3, complete: true }],
      ['register.exported', { createdBy: 'staff-b', assignee: 'staff-gone', rows: 3, complete: true }],
    ];
    for (const [action, details] of written) {
      const words = describeAuditDetails(action, details) ?? '';
      for (const key of Object.keys(details)) expect(words, `${action} shows ${key}`).not.toContain(`${key}:`);
      // Staff ids are said as names or as a former colleague, never printed.
      expect(words, `${action} shows a staff id`).not.toMatch(/staff-(a|b|gone)/);
    }
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
    const inWords = inText(await auditDetailsDescriber());
    expect(inWords('verification.status_changed', { status: 'completed', previous: 'pending' })).toBe(
      'Statut\u00a0: Terminée (auparavant\u00a0: En attente)',
    );
    expect(inWords('staff.role_changed', { from: 'viewer', to: 'admin' })).toBe('Rôle\u00a0: Administrateur (auparavant\u00a0: Lecteur)');
    expect(inWords('sessions.others_ended', { count: 1 })).toBe('1 autre session fermée');
    expect(inWords('sessions.others_ended', { count: 3 })).toBe('3 autres sessions fermées');
    expect(inWords('verification.note_added', { noteId: 'n-2' })).toBe('Une nouvelle note');
    expect(inWords('verification.assigned', { assignee: 'staff-b', previous: 'staff-gone' })).toBe(
      'Attribuée à\u00a0: Bob Operator (auparavant\u00a0: un ancien collègue)',
    );
    expect(inWords('two_factor.failed', { method: 'totp', inARow: 2 })).toBe(
      'Code d’une application d’authentification · 2 codes erronés d’affilée',
    );
    expect(inWords('invitation.refused', { reason: 'single_sign_on', step: 'issue' })).toMatch(/ · lors de l’émission de l’invitation$/);
    expect(inWords('audit.exported', { verification: 'abc', rows: 1234, complete: false })).toBe(
      '1\u202f234 lignes, puis le téléchargement a été interrompu · Filtres\u00a0: vérification abc',
    );
  });

  it('says them in Dutch, codes it does not know kept as stored', async () => {
    answerInLanguage('nl');
    const inWords = inText(await auditDetailsDescriber());
    expect(inWords('verification.reviewed', { decision: 'different_person', previous: 'same_person' })).toMatch(
      /^Beslissing: .+ \(voorheen .+\)$/,
    );
    expect(inWords('verification.removed', { reason: 'retention' })).toBe('Reden: de bewaartermijn is verstreken');
    expect(inWords('sessions.oldest_ended', { count: 2 })).toMatch(/^2 oudste sessies beëindigd: /);
    expect(inWords('register.exported', { purpose: 'custom', view: 'stuck', rows: 1, complete: true })).toBe(
      '1 rij · Filters: doeleinde ander doeleinde, weergave Stilgevallen',
    );
    expect(inWords('sso.refused', { reason: 'brand_new' })).toBe('Reden: brand_new');
    expect(inWords('verification.note_added', { noteId: 'n-2', correctsNoteId: 'n-1' })).toBe('Een correctie van een eerdere notitie');
    expect(inWords('two_factor.locked', { minutes: 1 })).toBe('1 minuut geblokkeerd');
    expect(inWords('verification.unassigned', { previous: 'staff-gone' })).toBe('Was toegewezen aan: een voormalige collega');
    expect(inWords('audit.exported', { actor: 'staff-a', rows: 1, complete: true })).toBe('1 rij · Filters: medewerker Ann Admin');
  });
});
