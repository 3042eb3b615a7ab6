// TEMPORARY stand-in for the lead's module (issue 30): replaced on merging main.
import 'server-only';
import { and, asc, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { auditEntries } from '@/lib/db/schema';
import type { ChainEntry } from './entry';
import { entryHash } from './entry';

export async function chainEntriesForTarget(targetType: string, targetId: string): Promise<ChainEntry[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.targetType, targetType), eq(auditEntries.targetId, targetId)))
    .orderBy(asc(auditEntries.at), asc(auditEntries.id));
  return rows.map((row, index) => {
    const content = {
      seq: index + 1,
      id: row.id,
      at: row.at.toISOString(),
      actorId: row.actorId,
      action: row.action,
      targetType: row.targetType,
      targetId: row.targetId,
      details: row.details ?? null,
      prev: '0'.repeat(64),
    };
    return { ...content, hash: entryHash(content) };
  });
}
