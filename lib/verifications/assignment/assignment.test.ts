// Who works on which request, on a real database (PGlite, and PostgreSQL in the `postgres` project,
// where simultaneous takes run on connections of their own, as two instances' would): one winner
// of simultaneous takes, the loser told who won; changes conditional on what the actor saw; only
// colleagues who may work on requests; ids only in the audit trail; live events; and requests
// handed back when their assignee is disabled or becomes a viewer.
import { and, eq, inArray } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEntries, liveEvents, staffUsers, verificationRequests } from '@/lib/db/schema';
import { changeStaffRole, disableStaff } from '@/lib/staff/staff-accounts';
import { ADA, insert, OTTO, row, setUpRegisterDatabase } from '@/test/support/register';
import { AssignmentRefused, assignRequest, getAssignee, listAssignableStaff, takeRequest } from './assignment.server';

setUpRegisterDatabase();

const ID = 'case-1';
const VIC = 'staff-vic';
const OLGA = 'staff-olga';

async function assignedTo(id = ID) {
  const [entry] = await (await getDb())
    .select({ assignedTo: verificationRequests.assignedTo, assignedAt: verificationRequests.assignedAt })
    .from(verificationRequests)
    .where(eq(verificationRequests.verificationId, id));
  return entry;
}

const auditsOf = async (id = ID) =>
  (await getDb())
    .select({ action: auditEntries.action, actorId: auditEntries.actorId, details: auditEntries.details })
    .from(auditEntries)
    .where(and(eq(auditEntries.targetType, 'verification'), eq(auditEntries.targetId, id)))
    .orderBy(auditEntries.at);

async function refusal(promise: Promise<unknown>): Promise<AssignmentRefused> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AssignmentRefused);
  return error as AssignmentRefused;
}

describe('assignment', () => {
  beforeEach(async () => {
    const db = await getDb();
    await db.delete(auditEntries);
    await db.delete(staffUsers).where(inArray(staffUsers.id, [VIC, OLGA]));
    await db.insert(staffUsers).values([
      { id: VIC, name: 'Vic Viewer', email: 'vic@example.com', role: 'viewer' },
      { id: OLGA, name: 'Olga Operator', email: 'olga@example.com', role: 'operator' },
    ]);
    await insert(row({ verificationId: ID }), row({ verificationId: 'case-2' }));
  });

  it('takes an unassigned request for oneself, audited with ids and announced live; a second take by the same person changes nothing', async () => {
    const db = await getDb();
    const eventsBefore = (await db.select().from(liveEvents)).length;
    await takeRequest(OTTO, ID);
    await takeRequest(OTTO, ID);
    expect(await assignedTo()).toMatchObject({ assignedTo: OTTO, assignedAt: expect.any(Date) });
    expect(await getAssignee(ID)).toEqual({ id: OTTO, name: 'Otto Operator', since: expect.any(Date) });
    expect(await auditsOf()).toEqual([{ action: 'verification.assigned', actorId: OTTO, details: { assignee: OTTO } }]);
    const events = await db.select().from(liveEvents).orderBy(liveEvents.id);
    expect(events.length - eventsBefore).toBe(1);
    expect(events.at(-1)).toMatchObject({ verificationId: ID });
  });

  it('of simultaneous takes, exactly one wins; every other is told who has it', async () => {
    const takers = [OTTO, OLGA, ADA];
    const results = await Promise.allSettled(takers.map((staffId) => takeRequest(staffId, ID)));
    const winners = results.filter((result) => result.status === 'fulfilled');
    expect(winners).toHaveLength(1);
    const holder = (await assignedTo())?.assignedTo;
    expect(takers).toContain(holder);
    for (const result of results) {
      if (result.status === 'fulfilled') continue;
      expect(result.reason).toBeInstanceOf(AssignmentRefused);
      expect((result.reason as AssignmentRefused).reason).toBe('taken');
      expect((result.reason as AssignmentRefused).holder?.id).toBe(holder);
    }
    expect((await auditsOf()).filter((entry) => entry.action === 'verification.assigned')).toHaveLength(1);
  });

  it('refuses to take what a colleague holds, naming them, and a request not in the register', async () => {
    await takeRequest(OLGA, ID);
    const taken = await refusal(takeRequest(OTTO, ID));
    expect(taken.reason).toBe('taken');
    expect(taken.holder).toEqual({ id: OLGA, name: 'Olga Operator' });
    expect((await refusal(takeRequest(OTTO, 'not-in-register'))).reason).toBe('not_in_register');
    expect((await assignedTo())?.assignedTo).toBe(OLGA);
  });

  it('gives, passes on and hands back only if the assignee is still the one the actor saw', async () => {
    await assignRequest(ADA, ID, OTTO, null);
    expect((await assignedTo())?.assignedTo).toBe(OTTO);
    // Someone who still saw it unassigned does not overwrite Otto.
    const stale = await refusal(assignRequest(OLGA, ID, OLGA, null));
    expect(stale).toMatchObject({ reason: 'taken', holder: { id: OTTO, name: 'Otto Operator' } });
    await assignRequest(ADA, ID, OLGA, OTTO);
    expect((await assignedTo())?.assignedTo).toBe(OLGA);
    await assignRequest(OLGA, ID, null, OLGA);
    expect(await assignedTo()).toEqual({ assignedTo: null, assignedAt: null });
    expect(await auditsOf()).toEqual([
      { action: 'verification.assigned', actorId: ADA, details: { assignee: OTTO } },
      { action: 'verification.assigned', actorId: ADA, details: { assignee: OLGA, previous: OTTO } },
      { action: 'verification.unassigned', actorId: OLGA, details: { previous: OLGA } },
    ]);
  });

  it('gives requests only to enabled colleagues whose role works on requests', async () => {
    expect((await refusal(assignRequest(ADA, ID, VIC, null))).reason).toBe('not_a_colleague');
    expect((await refusal(assignRequest(ADA, ID, 'staff-nobody', null))).reason).toBe('not_a_colleague');
    await (await getDb()).update(staffUsers).set({ disabled: true }).where(eq(staffUsers.id, OLGA));
    expect((await refusal(assignRequest(ADA, ID, OLGA, null))).reason).toBe('not_a_colleague');
    expect((await assignedTo())?.assignedTo).toBeNull();
    expect(await auditsOf()).toEqual([]);
    expect((await listAssignableStaff()).map((staff) => staff.id)).toEqual([ADA, OTTO]);
  });

  it('hands back a disabled colleague’s requests, each audited with ids and the reason, and leaves the others’', async () => {
    await takeRequest(OLGA, ID);
    await takeRequest(OLGA, 'case-2');
    await disableStaff(ADA, OLGA);
    expect((await assignedTo(ID))?.assignedTo).toBeNull();
    expect((await assignedTo('case-2'))?.assignedTo).toBeNull();
    for (const id of [ID, 'case-2']) {
      expect((await auditsOf(id)).at(-1)).toEqual({
        action: 'verification.unassigned',
        actorId: ADA,
        details: { previous: OLGA, reason: 'staff_disabled' },
      });
    }
  });

  it('hands back the requests of a colleague who becomes a viewer, and keeps an administrator’s', async () => {
    await takeRequest(OLGA, ID);
    await takeRequest(OTTO, 'case-2');
    await changeStaffRole(ADA, OTTO, 'admin');
    await changeStaffRole(ADA, OLGA, 'viewer');
    expect((await assignedTo(ID))?.assignedTo).toBeNull();
    expect((await assignedTo('case-2'))?.assignedTo).toBe(OTTO);
    expect((await auditsOf(ID)).at(-1)?.details).toEqual({ previous: OLGA, reason: 'staff_role_changed' });
  });
});
