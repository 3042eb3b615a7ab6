// Data minimisation (GDPR Art. 5(1)(c)): the register keeps what staff need to find a request
// again, nothing more. A new column here is a decision about personal data: this test makes it a
// deliberate one (change the list below, and say in the review why the column is needed).
import { getTableColumns } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEntries, nameReviews, verificationRequests } from './schema';

describe('what the dashboard keeps about the people it verifies', () => {
  it('the register holds the request, its state and who created it; no contact details', () => {
    expect(Object.keys(getTableColumns(verificationRequests)).sort()).toEqual(
      [
        'verificationId',
        'name',
        'purpose',
        'language',
        'shareableLink',
        'emailNotification',
        'smsNotification',
        'link',
        'status',
        'identifiedName',
        // Whether the two names differ: derived from them, so "Needs review" is a query.
        'nameMismatch',
        'accessExpiresAt',
        'keptUntil',
        'createdBy',
        'createdAt',
        'refreshedAt',
      ].sort(),
    );
    const columnNames = Object.values(getTableColumns(verificationRequests)).map((column) => column.name);
    expect(columnNames.filter((name) => /mail(?!_notification)|phone|address|birth|document/i.test(name))).toEqual([]);
  });

  it('a name review holds the decision, the staff member’s note, who and when; nothing copied from the person', () => {
    expect(Object.keys(getTableColumns(nameReviews)).sort()).toEqual(
      ['verificationId', 'decision', 'note', 'decidedBy', 'decidedAt'].sort(),
    );
  });

  it('the audit trail names staff and records by id only', () => {
    const columnNames = Object.values(getTableColumns(auditEntries)).map((column) => column.name);
    expect(columnNames.filter((name) => /name|mail|phone/i.test(name))).toEqual([]);
  });
});
