// The detail page of a request the service has purged. A 404 for an id the register holds past its
// kept_until is the retention policy at work, not a mistyped id: the page says when the data went
// and shows what the register still holds, labelled as the register's copy, until the dashboard's
// own retention removes the row (lib/verifications/register/retention.server.ts). A 404 before
// kept_until, or for an id the register does not hold, stays "not found": nothing says a purge
// explains it.
import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { staffUsers } from '@/lib/db/schema';
import { isPastKeptUntil } from '@/lib/verifications/register/purged';
import type { RegisterEntry } from '@/lib/verifications/register/queries.server';
import type { ReadFailure } from './read-verification.server';

/** What the register still holds of a purged request. */
export type PurgedRequest = {
  /** When the data went under the retention policy: the register's kept_until, ISO. */
  purgedOn: string;
  requestedName: string;
  purpose: string;
  createdAt: string;
  /** Null once the creator's account is gone (or was never known). */
  createdByName: string | null;
  /** The last status the dashboard saw before the purge. */
  lastStatus: string;
  identifiedName: string | null;
  completedAt: string | null;
  method: string | null;
  failureReason: string | null;
};

/** The register's copy when `failure` is the service's purge of a request it holds; else undefined. */
export async function purgedRequestFor(
  failure: Pick<ReadFailure, 'kind'>,
  entry: RegisterEntry | undefined,
  now: Date,
): Promise<PurgedRequest | undefined> {
  if (failure.kind !== 'not_found' || !entry || !entry.keptUntil || !isPastKeptUntil(entry, now)) return undefined;
  return {
    purgedOn: entry.keptUntil.toISOString(),
    requestedName: entry.name,
    purpose: entry.purpose,
    createdAt: entry.createdAt.toISOString(),
    createdByName: entry.createdBy ? await staffName(entry.createdBy) : null,
    lastStatus: entry.status,
    identifiedName: entry.identifiedName,
    completedAt: entry.completedAt?.toISOString() ?? null,
    method: entry.method,
    failureReason: entry.failureReason,
  };
}

async function staffName(id: string): Promise<string | null> {
  const db = await getDb();
  const [row] = await db.select({ name: staffUsers.name }).from(staffUsers).where(eq(staffUsers.id, id)).limit(1);
  return row?.name ?? null;
}
