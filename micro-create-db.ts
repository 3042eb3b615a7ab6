import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { auditInsert } from '@/lib/audit/audit';
import { getDb } from '@/lib/db';
import { createSubmissions, verificationRequests } from '@/lib/db/schema';
import { closeDatabases } from '@/lib/platform/database';
import { newRegisterEntry } from '@/lib/verifications/register-writes';

const db = await getDb();
const req = { name: 'Bench Person', email: 'b@example.com', chosenPurpose: 'legal_obligations', language: 'en', shareableLink: false, emailNotification: true, smsNotification: false } as any;
async function claim(key: string) { return db.insert(createSubmissions).values({ key }).onConflictDoNothing().returning(); }
async function settle(key: string, id: string) {
  const register = db.insert(verificationRequests).values({ ...newRegisterEntry(id, req, null), createdBy: null }).onConflictDoNothing();
  const audit = auditInsert(db, { actorId: null, action: 'verification.created', target: { type: 'verification', id } });
  const settleClaim = db.update(createSubmissions).set({ verificationId: id }).where(eq(createSubmissions.key, key));
  await db.execute(sql`with register as (${register.getSQL()}), audit as (${audit.getSQL()}) ${settleClaim.getSQL()}`);
}
const claimPrepared = db.insert(createSubmissions).values({ key: sql.placeholder('key') }).onConflictDoNothing().returning({ key: createSubmissions.key }).prepare('claim_submission');
function timeIt(n: number, f: () => Promise<unknown>) { return async () => { const t = performance.now(); for (let i = 0; i < n; i++) await f(); return (performance.now() - t) / n; }; }
const N = 300;
for (let round = 0; round < 3; round++) {
  const a = await timeIt(N, () => claim(randomUUID()))();
  const b = await timeIt(N, () => claimPrepared.execute({ key: randomUUID() }))();
  const c = await timeIt(N, async () => { const k = randomUUID(); await claim(k); await settle(k, randomUUID()); })();
  const buildOnly = await timeIt(N, async () => { const k=randomUUID(); const id=randomUUID(); const register = db.insert(verificationRequests).values({ ...newRegisterEntry(id, req, null), createdBy: null }).onConflictDoNothing();
  const audit = auditInsert(db, { actorId: null, action: 'verification.created', target: { type: 'verification', id } });
  const settleClaim = db.update(createSubmissions).set({ verificationId: id }).where(eq(createSubmissions.key, k));
  const q = sql`with register as (${register.getSQL()}), audit as (${audit.getSQL()}) ${settleClaim.getSQL()}`; (db as any).dialect.sqlToQuery(q); })();
  const ping = await timeIt(N, () => db.execute(sql`select 1`))();
  console.log(JSON.stringify({ round, claim: a.toFixed(3), claimPrepared: b.toFixed(3), claimPlusSettle: c.toFixed(3), buildSettleOnly: buildOnly.toFixed(3), select1: ping.toFixed(3) }));
}
await closeDatabases();
