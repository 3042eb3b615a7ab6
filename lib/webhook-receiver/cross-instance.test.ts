// Webhook receipts across two instances on one PostgreSQL server (the `postgres` project).
// Instance A is this process's database handle behind the real route; instance B is a second,
// independent pool, whose deliveries go through processWebhook with that handle, so the two share
// nothing in memory (not the in-flight map either), only the database. The service is a real
// local HTTP server. What must hold: copies of one delivery landing on both at the same moment
// are applied once and all answered with success; and a copy never answers success before the
// change is stored: when the first copy's transaction fails, the racing copy on the other
// instance applies the change instead of calling it a duplicate.
// On the embedded store there is only ever one instance, so the file has nothing to show there.
import type http from 'node:http';
import { and, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST } from '@/app/api/webhooks/verification-service/route';
import { type Db, getDb } from '@/lib/db';
import * as schema from '@/lib/db/schema';
import { auditEntries, liveEvents, verificationRequests, webhookReceipts } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases, rowsOf } from '@/lib/platform/database';
import { type FakeUpstream, startFakeUpstream } from '@/lib/verification-service/fake-upstream';
import { captureLogs, stopCapturingLogs } from '@/test/support/logs';
import { delivery, event, SECRET_A, toRequest } from '@/test/support/webhook-receiver';
import { processWebhook, type WebhookOutcome } from './process';

const onServer = Boolean(process.env.DATABASE_URL);

function record(status: string) {
  return {
    inputted_name: 'Alice Martin',
    status,
    purpose: 'legal_obligations',
    access_expires_at: '2030-01-08T00:00:00.000Z',
    identified_name: status === 'completed' ? 'ALICE MARTIN' : null,
    identified_date: status === 'completed' ? '2030-01-02T10:00:00.000Z' : null,
    verification_method: status === 'completed' ? 'passport' : null,
    failed_reason: status === 'failed' ? 'document_unreadable' : null,
    kept_until: '2030-02-01T00:00:00.000Z',
  };
}

/** The service: every record is completed, answered after a short delay so copies overlap. */
function service(_req: http.IncomingMessage, res: http.ServerResponse) {
  setTimeout(() => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(record('completed')));
  }, 30);
}

let upstream: FakeUpstream;
let poolB: pg.Pool;
let dbB: Db;

async function register(verificationId: string) {
  await (await getDb()).insert(verificationRequests).values({
    verificationId,
    name: 'Alice Martin',
    purpose: 'legal_obligations',
    language: 'en',
    shareableLink: true,
    emailNotification: false,
    smsNotification: false,
    link: 'https://svc.example/v/abc',
  });
}

/** A copy delivered to A, through the real route: what the sender is told. */
async function onA(d: ReturnType<typeof delivery>): Promise<{ status: number; result: string }> {
  const response = await POST(toRequest(d));
  const body = (await response.json()) as { status?: string; error?: string };
  return { status: response.status, result: body.status ?? body.error ?? '' };
}

/** A copy delivered to B: the outcome its route would answer 200 for, or the error it would answer 5xx for. */
async function onB(d: ReturnType<typeof delivery>): Promise<{ status: number; result: string }> {
  try {
    const outcome: WebhookOutcome = await processWebhook(d.id, d.body, { db: dbB });
    return { status: 200, result: outcome.result };
  } catch (error) {
    return { status: 500, result: (error as Error).message };
  }
}

async function countWhere(verificationId: string) {
  const db = await getDb();
  const [receipts, audits, events] = await Promise.all([
    db.select().from(webhookReceipts).where(eq(webhookReceipts.verificationId, verificationId)),
    db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.targetId, verificationId), eq(auditEntries.action, 'verification.status_changed'))),
    db.select().from(liveEvents).where(eq(liveEvents.verificationId, verificationId)),
  ]);
  return { receipts: receipts.length, audits: audits.length, events: events.length };
}

describe.skipIf(!onServer)('webhook receipts across two instances on one PostgreSQL server', () => {
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.program(service);
    process.env.VERIFICATION_API_URL = upstream.baseUrl;
    process.env.VERIFICATION_API_KEY = 'test-key';
    // Generous: a timed-out re-read would be a 5xx, which is not what this file is about.
    process.env.VERIFICATION_API_TIMEOUT_MS = '30000';
    process.env.WEBHOOK_SECRET = SECRET_A;
    resetEnv();
    await getDb();
    poolB = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10, application_name: 'instance-b' });
    dbB = drizzle({ client: poolB, schema });
  });

  afterAll(async () => {
    stopCapturingLogs();
    await poolB?.end();
    await upstream?.close();
    await closeDatabases();
  });

  it('applies each of 20 deliveries once when 3 copies of each land on A and 3 on B at the same moment; every copy is answered 200', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `v-race-${i}`);
    for (const id of ids) await register(id);
    const deliveries = ids.map((id) => delivery(event('verification.completed', id, 'completed'), { id: `msg_race_${id}` }));

    const answers = await Promise.all(
      deliveries.flatMap((d) => [onA(d), onB(d), onA(d), onB(d), onA(d), onB(d)].map(async (answer) => ({ id: d.id, ...(await answer) }))),
    );

    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    for (const d of deliveries) {
      const mine = answers.filter((a) => a.id === d.id);
      expect(
        mine.filter((a) => a.result === 'processed'),
        d.id,
      ).toHaveLength(1);
      expect(
        mine.filter((a) => a.result === 'duplicate'),
        d.id,
      ).toHaveLength(5);
    }
    for (const id of ids) {
      expect(await countWhere(id), id).toEqual({ receipts: 1, audits: 1, events: 1 });
      const [row] = await (await getDb()).select().from(verificationRequests).where(eq(verificationRequests.verificationId, id));
      expect(row!.status).toBe('completed');
    }
    // Copies on one instance share its first copy's re-read; the other instance reads once too.
    const gets = upstream.requests.filter((r) => r.method === 'GET').length;
    expect(gets).toBeGreaterThanOrEqual(ids.length);
    expect(gets).toBeLessThanOrEqual(ids.length * 2);
  });

  it("makes a copy on B wait for A's transaction: when A fails, B applies the change rather than calling it a duplicate", async () => {
    captureLogs(); // A's failure is logged
    const id = 'v-a-fails';
    await register(id);
    const d = delivery(event('verification.completed', id, 'completed'), { id: 'msg_a_fails' });
    const db = await getDb();
    // A's connections (application_name verification-desk) fail at the last step of the
    // transaction, after a pause: A holds its uncommitted claim while B's copy arrives.
    await db.execute(
      sql.raw(`
        create function fail_on_instance_a() returns trigger language plpgsql as $$
        begin
          if current_setting('application_name') = 'verification-desk' then
            perform pg_sleep(0.5);
            raise exception 'instance A fails here';
          end if;
          return new;
        end $$;
        create trigger fail_on_instance_a before insert on live_events
          for each row execute function fail_on_instance_a();`),
    );
    try {
      const answerA = onA(d);
      // B's copy starts only once A holds its claim and is inside the failing step.
      await waitForSleepOnA();
      const answerB = onB(d);

      expect(await answerA).toEqual({ status: 500, result: 'The event could not be processed now; retry later.' });
      expect(await answerB).toEqual({ status: 200, result: 'processed' });
      expect(await countWhere(id)).toEqual({ receipts: 1, audits: 1, events: 1 });
    } finally {
      await db.execute(sql.raw('drop trigger fail_on_instance_a on live_events; drop function fail_on_instance_a();'));
    }
    // The sender's retry to A now finds the receipt B took.
    expect(await onA(d)).toEqual({ status: 200, result: 'duplicate' });
  });
});

/** Waits until one of A's connections is inside the trigger's pause. */
async function waitForSleepOnA(): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const rows = rowsOf<{ pid: number }>(
      await dbB.execute(sql`
        select pid from pg_stat_activity
        where application_name = 'verification-desk' and datname = current_database() and wait_event = 'PgSleep'`),
    );
    if (rows.length > 0) return;
    if (Date.now() > deadline) throw new Error("timed out waiting for A's transaction to reach the failing step");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
