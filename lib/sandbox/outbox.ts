// The sandbox's outbox: the e-mails and SMS it would have sent, kept so people can see them
// (GET /v1/sandbox/outbox, shown on the dashboard's /outbox page) until real delivery is configured.
import 'server-only';
import { desc, eq } from 'drizzle-orm';
import type { SandboxDb } from './db';
import { outbox } from './schema';

export type OutboxMessage = typeof outbox.$inferSelect;

/** The latest messages, newest first. */
export async function listOutbox(db: SandboxDb, limit = 100): Promise<OutboxMessage[]> {
  return db.select().from(outbox).orderBy(desc(outbox.createdAt), desc(outbox.id)).limit(limit);
}

/** One company's latest messages, newest first, as GET /v1/sandbox/outbox answers them. */
export async function listCompanyOutbox(db: SandboxDb, companyId: string, limit = 100) {
  const rows = await db
    .select()
    .from(outbox)
    .where(eq(outbox.companyId, companyId))
    .orderBy(desc(outbox.createdAt), desc(outbox.id))
    .limit(limit);
  return rows.map((row) => ({
    verificationId: row.verificationId,
    channel: row.channel,
    recipient: row.recipient,
    language: row.language,
    link: row.link,
    createdAt: row.createdAt.toISOString(),
  }));
}
