// The audit trail's writer on a real (in-memory) PGlite database: what an entry holds, one
// identity per verification, retention, and that the flows which write it never put a name or
// an e-mail address into it. How the trail is filtered and ordered: lib/audit-trail/queries.test.ts.
import { randomUUID } from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listAudit } from '@/lib/audit-trail/queries.server';
import { completeSetup, issueSetupToken } from '@/lib/auth/setup';
import { getDb } from '@/lib/db';
import { auditEntries, staffUsers, verificationRequests } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases, rowsOf } from '@/lib/platform/database';
import { changeStaffRole, createStaff, disableStaff } from '@/lib/staff/staff-accounts';
import { type FakeUpstream, startFakeUpstream } from '@/lib/verification-service/fake-upstream';
import { createVerificationOnce } from '@/lib/verifications/create/create-verification.server';
import { type AuditEvent, purgeExpiredAudit, recordAudit, recordAuditUnlessRecent } from './audit';

const DAY = 24 * 60 * 60 * 1000;

let upstream: FakeUpstream;

/** Records through recordAudit, then moves the entry to a chosen time (recordAudit stamps now()). */
async function recordAt(event: AuditEvent, at: Date): Promise<string> {
  await recordAudit(event);
  const db = await getDb();
  const [latest] = await db.select({ id: auditEntries.id }).from(auditEntries).orderBy(desc(auditEntries.at)).limit(1);
  await db.update(auditEntries).set({ at }).where(eq(auditEntries.id, latest!.id));
  return latest!.id;
}

beforeAll(async () => {
  upstream = await startFakeUpstream();
  process.env.DATA_DIR = 'memory://';
  process.env.VERIFICATION_API_URL = upstream.baseUrl;
  process.env.VERIFICATION_API_KEY = 'test-key';
  process.env.VERIFICATION_API_TIMEOUT_MS = '2000';
  resetEnv();
  await getDb();
});

beforeEach(async () => {
  await (await getDb()).delete(auditEntries);
});

afterAll(async () => {
  await upstream.close();
  await closeDatabases();
});

describe('recordAudit', () => {
  it('writes actor, action, target and details, stamped with the current time', async () => {
    const before = Date.now();
    await recordAudit({
      actorId: 'staff-1',
      action: 'staff.role_changed',
      target: { type: 'staff', id: 'staff-2' },
      details: { from: 'viewer', to: 'admin' },
    });
    const rows = await (await getDb()).select().from(auditEntries);
    expect(rows).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        at: expect.any(Date),
        actorId: 'staff-1',
        action: 'staff.role_changed',
        targetType: 'staff',
        targetId: 'staff-2',
        details: { from: 'viewer', to: 'admin' },
        // Filled by the database: lib/audit/chain/chain.test.ts proves what they hold.
        seq: expect.any(Number),
        prevHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
    expect(rows[0]!.at.getTime()).toBeGreaterThanOrEqual(before - 2_000);
    expect(rows[0]!.at.getTime()).toBeLessThanOrEqual(Date.now() + 2_000);
  });

  it('stores nulls for an event without actor, target or details', async () => {
    await recordAudit({ actorId: null, action: 'sign_in.failed' });
    expect(await (await getDb()).select().from(auditEntries)).toEqual([
      expect.objectContaining({ actorId: null, action: 'sign_in.failed', targetType: null, targetId: null, details: null }),
    ]);
  });

  it('is part of the transaction it is given: rolled back with it', async () => {
    const db = await getDb();
    await db
      .transaction(async (tx) => {
        await recordAudit({ actorId: 'staff-1', action: 'link.copied', target: { type: 'verification', id: 'v-rolled-back' } }, tx);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await db.transaction(async (tx) => {
      await recordAudit({ actorId: 'staff-1', action: 'link.copied', target: { type: 'verification', id: 'v-kept' } }, tx);
    });
    expect((await listAudit({})).map((e) => e.targetId)).toEqual(['v-kept']);
  });
});

describe('one audit identity per verification', () => {
  const UUID = '3f1c0a52-9b7e-4c1d-8a2f-0123456789ab';

  it('records an uppercased UUID under the lowercase id the register uses, and finds it by either spelling', async () => {
    await recordAudit({ actorId: 'staff-1', action: 'link.copied', target: { type: 'verification', id: ` ${UUID.toUpperCase()}` } });
    expect((await listAudit({})).map((e) => e.targetId)).toEqual([UUID]);
    expect(await listAudit({ targetId: UUID.toUpperCase() })).toHaveLength(1);
  });

  it('counts a view under another spelling as the same view', async () => {
    await recordAuditUnlessRecent(
      { actorId: 'staff-1', action: 'verification.viewed', target: { type: 'verification', id: UUID } },
      60_000,
    );
    await recordAuditUnlessRecent(
      { actorId: 'staff-1', action: 'verification.viewed', target: { type: 'verification', id: UUID.toUpperCase() } },
      60_000,
    );
    expect((await listAudit({})).map((e) => e.targetId)).toEqual([UUID]);
  });

  it('keeps an opaque id and a staff id exactly as given', async () => {
    await recordAudit({ actorId: 'staff-1', action: 'link.copied', target: { type: 'verification', id: 'Ver_AbC' } });
    await recordAudit({ actorId: 'staff-1', action: 'staff.created', target: { type: 'staff', id: UUID.toUpperCase() } });
    expect((await listAudit({})).map((e) => e.targetId).sort()).toEqual([UUID.toUpperCase(), 'Ver_AbC']);
  });
});

describe('purgeExpiredAudit', () => {
  it('deletes only entries older than the retention period, and says how many', async () => {
    const now = new Date('2024-06-30T12:00:00Z');
    const cutoff = now.getTime() - 30 * DAY;
    const old = await recordAt({ actorId: 'x', action: 'sign_out' }, new Date(cutoff - 10 * DAY));
    const justOld = await recordAt({ actorId: 'x', action: 'sign_out' }, new Date(cutoff - 1));
    const atCutoff = await recordAt({ actorId: 'x', action: 'sign_out' }, new Date(cutoff));
    const recent = await recordAt({ actorId: 'x', action: 'sign_out' }, new Date(cutoff + DAY));
    const current = await recordAt({ actorId: 'x', action: 'sign_out' }, now);

    // One row per step: the purge goes on until a step finds nothing left.
    expect(await purgeExpiredAudit(30, now, { batchSize: 1 })).toBe(2);

    const left = (await listAudit({})).map((e) => e.id);
    expect(left.sort()).toEqual([atCutoff, recent, current].sort());
    expect(left).not.toContain(old);
    expect(left).not.toContain(justOld);
    expect(await purgeExpiredAudit(30, now)).toBe(0);
  });

  it('keeps everything when nothing is old enough', async () => {
    await recordAudit({ actorId: 'x', action: 'sign_out' });
    expect(await purgeExpiredAudit(1)).toBe(0);
    expect(await listAudit({})).toHaveLength(1);
  });
});

describe('privacy', () => {
  it('holds no name or e-mail address after setup, staff management and a verification request', async () => {
    const db = await getDb();
    await db.delete(staffUsers);
    const admin = { name: 'Philippa Thorncastle', email: 'philippa.thorncastle@example.com' };
    const colleague = { name: 'Bartholomew Quennell', email: 'Bart.Quennell@Example.org' };
    const person = { name: 'Marguerite Oyelaran', email: 'marguerite.oyelaran@mail.example.net' };

    const token = (await issueSetupToken())!;
    const adminId = await completeSetup(token, { ...admin, password: 'correct horse battery staple' });
    const colleagueId = await createStaff(adminId, { ...colleague, role: 'viewer', password: 'another long password' });
    await changeStaffRole(adminId, colleagueId, 'operator');

    // A verification request for a person, through the real create flow against a real HTTP
    // upstream whose answers carry the person's name.
    const verificationId = randomUUID();
    upstream.program((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify(
          req.method === 'POST'
            ? { message: 'Verification request created successfully.', verificationId, link: 'https://svc.example/v/abc' }
            : {
                inputted_name: person.name,
                status: 'pending',
                purpose: 'legal_obligations',
                access_expires_at: '2030-01-08T00:00:00.000Z',
                identified_name: person.name,
                identified_date: null,
                verification_method: null,
                failed_reason: null,
                kept_until: '2030-02-01T00:00:00.000Z',
              },
        ),
      );
    });
    await createVerificationOnce(
      randomUUID(),
      { name: person.name, email: person.email, chosenPurpose: 'legal_obligations', language: 'en' },
      colleagueId,
    );
    await recordAudit({ actorId: colleagueId, action: 'verification.viewed', target: { type: 'verification', id: verificationId } });
    await recordAudit({ actorId: colleagueId, action: 'link.copied', target: { type: 'verification', id: verificationId } });
    await disableStaff(adminId, colleagueId);
    await recordAudit({ actorId: null, action: 'sign_in.failed' });
    // Let the create flow's background refresh finish before reading (and before closing).
    await expect
      .poll(async () => (await db.select().from(verificationRequests))[0]?.refreshedAt ?? null, { timeout: 5_000 })
      .not.toBeNull();

    const rows = await db.select().from(auditEntries);
    expect(rows.map((r) => r.action).sort()).toEqual(
      [
        'link.copied',
        'setup.completed',
        'sign_in.failed',
        'staff.created',
        'staff.disabled',
        'staff.role_changed',
        'verification.created',
        'verification.viewed',
      ].sort(),
    );
    // Every column of every row, as raw text from the database.
    const raw = rowsOf(await db.execute(sql`select * from audit_entries`));
    expect(raw).toHaveLength(rows.length);
    const serialized = `${JSON.stringify(rows)}\n${JSON.stringify(raw)}`.toLowerCase();

    const forbidden = [admin, colleague, person].flatMap(({ name, email }) => [
      name,
      ...name.split(' '),
      email,
      email.split('@')[0]!,
      email.split('@')[1]!,
    ]);
    for (const word of forbidden) expect({ word, found: serialized.includes(word.toLowerCase()) }).toEqual({ word, found: false });
    // Ids, on the other hand, are there: that is what the trail is for.
    expect(serialized).toContain(colleagueId);
    expect(serialized).toContain(verificationId);
  });
});
