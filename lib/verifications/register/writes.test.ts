// Refreshing a register row from what the service says, on a real (in-memory) PGlite database:
// nothing written when nothing changed, a change learnt once with one audit entry, and a
// finished request never moved back.
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEntries, verificationRequests } from '@/lib/db/schema';
import { at, DAY, HOUR, insert, row, setUpRegisterDatabase } from '@/test/support/register';
import { refreshRegisterEntry } from './writes.server';

setUpRegisterDatabase();

describe('refreshRegisterEntry', () => {
  const ID = 'refresh-me';
  const record = (overrides: Record<string, unknown> = {}) =>
    ({
      verification_id: ID,
      inputted_name: 'Person',
      identified_name: null,
      identified_date: null,
      verification_method: null,
      status: 'pending',
      failed_reason: null,
      purpose: 'legal_obligations',
      access_expires_at: at(7 * DAY - HOUR).toISOString(),
      kept_until: at(30 * DAY).toISOString(),
      ...overrides,
    }) as Parameters<typeof refreshRegisterEntry>[1];
  const stored = async () => {
    const db = await getDb();
    const [entry] = await db.select().from(verificationRequests).where(sql`${verificationRequests.verificationId} = ${ID}`);
    const audits = await db.select().from(auditEntries).where(sql`${auditEntries.targetId} = ${ID}`);
    return { entry, audits };
  };

  beforeEach(async () => {
    await (await getDb()).delete(auditEntries);
    await insert(row({ verificationId: ID }));
  });

  it('writes nothing when the service says what the register already knows', async () => {
    expect(await refreshRegisterEntry(ID, record())).toBe('pending');
    const { entry, audits } = await stored();
    expect(entry?.refreshedAt).toBeNull();
    expect(audits).toHaveLength(0);
  });

  it('learns a change once: status, identified name, dates, and one audit entry', async () => {
    const completed = record({ status: 'completed', identified_name: 'Person Jr', kept_until: at(40 * DAY).toISOString() });
    expect(await refreshRegisterEntry(ID, completed)).toBe('completed');
    expect(await refreshRegisterEntry(ID, completed)).toBe('completed');
    const { entry, audits } = await stored();
    expect(entry).toMatchObject({ status: 'completed', identifiedName: 'Person Jr', keptUntil: at(40 * DAY) });
    expect(entry?.refreshedAt).toBeInstanceOf(Date);
    expect(audits).toHaveLength(1);
  });

  it('never moves a finished request back, and ignores ids it does not hold', async () => {
    await refreshRegisterEntry(ID, record({ status: 'failed' }));
    expect(await refreshRegisterEntry(ID, record({ status: 'pending' }))).toBe('failed');
    expect((await stored()).entry?.status).toBe('failed');
    expect(await refreshRegisterEntry('not-ours', record())).toBeNull();
  });

  it('flags a completed request whose identified name differs, on write', async () => {
    await refreshRegisterEntry(ID, record({ status: 'completed', identified_name: 'Someone Else' }));
    expect((await stored()).entry?.nameMismatch).toBe(true);
  });

  it('does not flag a name that differs only in case and accents, nor one that is not completed', async () => {
    await (await getDb())
      .update(verificationRequests)
      .set({ name: 'Elodie Martin' })
      .where(sql`${verificationRequests.verificationId} = ${ID}`);
    await refreshRegisterEntry(ID, record({ status: 'completed', identified_name: 'ÉLODIE MARTIN' }));
    expect((await stored()).entry?.nameMismatch).toBe(false);

    await (await getDb()).delete(verificationRequests);
    await insert(row({ verificationId: ID }));
    await refreshRegisterEntry(ID, record({ status: 'failed', identified_name: 'Someone Else' }));
    expect((await stored()).entry?.nameMismatch).toBeNull();
  });

  it('computes the flag for a row completed before the register kept it, on its next read', async () => {
    const db = await getDb();
    await db
      .update(verificationRequests)
      .set({ status: 'completed', identifiedName: 'Someone Else', nameMismatch: null })
      .where(sql`${verificationRequests.verificationId} = ${ID}`);
    await refreshRegisterEntry(ID, record({ status: 'completed', identified_name: 'Someone Else' }));
    const { entry, audits } = await stored();
    expect(entry?.nameMismatch).toBe(true);
    // Learning the flag is not a change of status.
    expect(audits).toHaveLength(0);
  });

  it('keeps how a request ended: completion time, method and failure reason, learnt once', async () => {
    const completed = record({
      status: 'completed',
      identified_name: 'Person',
      identified_date: at(2 * HOUR).toISOString(),
      verification_method: 'passport',
    });
    await refreshRegisterEntry(ID, completed);
    expect((await stored()).entry).toMatchObject({ completedAt: at(2 * HOUR), method: 'passport', failureReason: null });

    await (await getDb()).delete(verificationRequests);
    await insert(row({ verificationId: ID }));
    await refreshRegisterEntry(ID, record({ status: 'failed', verification_method: 'id_card', failed_reason: 'document_expired' }));
    const failed = (await stored()).entry;
    expect(failed).toMatchObject({ completedAt: null, method: 'id_card', failureReason: 'document_expired' });
    // The same answer again teaches nothing: no second write (a write would set refreshedAt).
    await (await getDb())
      .update(verificationRequests)
      .set({ refreshedAt: null })
      .where(sql`${verificationRequests.verificationId} = ${ID}`);
    await refreshRegisterEntry(ID, record({ status: 'failed', verification_method: 'id_card', failed_reason: 'document_expired' }));
    expect((await stored()).entry?.refreshedAt).toBeNull();
  });

  it('learns the outcome of a row finished before the register kept it, on its next read', async () => {
    await (await getDb()).update(verificationRequests).set({ status: 'failed' }).where(sql`${verificationRequests.verificationId} = ${ID}`);
    await refreshRegisterEntry(ID, record({ status: 'failed', verification_method: 'bank_id', failed_reason: 'person_cancelled' }));
    const { entry, audits } = await stored();
    expect(entry).toMatchObject({ method: 'bank_id', failureReason: 'person_cancelled' });
    expect(audits).toHaveLength(0);
  });
});
