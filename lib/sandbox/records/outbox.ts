// The sandbox's outbox: the messages it did not deliver itself, kept so people can see them
// (GET /v1/sandbox/outbox, shown on the dashboard's /outbox page): every SMS, and every e-mail
// while no SMTP server is configured or when sending through it failed (notifications.ts).
import 'server-only';
import { desc, eq } from 'drizzle-orm';
import type { SandboxDb, SandboxTx } from '@/lib/sandbox/db';
import { outbox } from '@/lib/sandbox/schema';

export type OutboxMessage = typeof outbox.$inferSelect;

export type NewOutboxMessage = Omit<typeof outbox.$inferInsert, 'id'>;

/** Puts messages in the outbox (in the caller's transaction when given one). */
export async function addToOutbox(db: SandboxDb | SandboxTx, messages: NewOutboxMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await outboxInsert(db, messages);
}

/** The INSERT of `messages` (at least one), not yet run: to await, or to embed in a larger statement. */
export function outboxInsert(db: SandboxDb | SandboxTx, messages: NewOutboxMessage[]) {
  return db.insert(outbox).values(messages.map((message) => ({ id: crypto.randomUUID(), ...message })));
}

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
    // What the person was sent, in `language` (null for messages kept before the text was).
    subject: row.subject,
    body: row.body,
    createdAt: row.createdAt.toISOString(),
  }));
}
