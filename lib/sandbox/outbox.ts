// The sandbox's outbox: the e-mails and SMS it would have sent, kept so people can see them
// (the /sandbox/outbox page) until real delivery is configured.
import 'server-only';
import { desc } from 'drizzle-orm';
import type { SandboxDb } from './db';
import { outbox } from './schema';

export type OutboxMessage = typeof outbox.$inferSelect;

/** The latest messages, newest first. */
export async function listOutbox(db: SandboxDb, limit = 100): Promise<OutboxMessage[]> {
  return db.select().from(outbox).orderBy(desc(outbox.createdAt), desc(outbox.id)).limit(limit);
}
