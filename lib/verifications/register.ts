// The dashboard's register of the verification requests it created: written at creation,
// refreshed whenever the dashboard reads a record, listed as "Recent requests".
import 'server-only';
import { desc, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { verificationRequests, type VerificationRequestRow } from '@/lib/db/schema';
import type { CreateVerificationRequest, VerificationRecord } from '@/lib/verification-service';

export type RegisterEntry = VerificationRequestRow;

/** Newest first; `createdBy` narrows it to one staff member's requests ("mine"). */
export async function listRecentRequests({ createdBy, limit = 50 }: { createdBy?: string; limit?: number } = {}): Promise<RegisterEntry[]> {
  const db = await getDb();
  return db
    .select()
    .from(verificationRequests)
    .where(createdBy ? eq(verificationRequests.createdBy, createdBy) : undefined)
    .orderBy(desc(verificationRequests.createdAt))
    .limit(limit);
}

export async function getRegisterEntry(verificationId: string): Promise<RegisterEntry | undefined> {
  const db = await getDb();
  const [row] = await db.select().from(verificationRequests).where(eq(verificationRequests.verificationId, verificationId));
  return row;
}

/** Brings the register's copy of a record up to date with what the service just said. */
export async function refreshRegisterEntry(verificationId: string, record: VerificationRecord): Promise<void> {
  const db = await getDb();
  await db
    .update(verificationRequests)
    .set({
      status: record.status,
      accessExpiresAt: new Date(record.access_expires_at),
      keptUntil: new Date(record.kept_until),
      refreshedAt: new Date(),
    })
    .where(eq(verificationRequests.verificationId, verificationId));
}

export function newRegisterEntry(
  verificationId: string,
  request: CreateVerificationRequest,
  link: string | null,
): typeof verificationRequests.$inferInsert {
  return {
    verificationId,
    name: request.name,
    purpose: request.chosenPurpose,
    language: request.language,
    shareableLink: request.shareableLink ?? false,
    emailNotification: request.shareableLink ? false : (request.emailNotification ?? true),
    smsNotification: request.smsNotification ?? false,
    link,
  };
}
