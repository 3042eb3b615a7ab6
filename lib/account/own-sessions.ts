// A staff member's own sessions: the list on the account page, and "sign out all other
// sessions". Ending sessions deletes their rows and then tells every instance to forget the
// sessions it validated (session-cache.ts), so the other browsers are signed out at once, not
// when a cached validation runs out.
import 'server-only';
import { and, desc, eq, gt, ne } from 'drizzle-orm';
import { getTranslations } from 'next-intl/server';
import { recordAudit } from '@/lib/audit/audit';
import { forgetValidatedSessions } from '@/lib/auth/session-cache';
import { type Db, getDb } from '@/lib/db';
import { staffSessions } from '@/lib/db/schema';
import { deviceParts } from './device-label';

export type OwnSession = {
  id: string;
  /** "Chrome 131 on Linux", in the reader's language, from the user agent stored at sign-in. */
  device: string;
  signedInAt: Date;
  /** When the session was last extended: better-auth does so at most every 15 minutes. */
  lastActiveAt: Date;
  /** The session of the browser that asks. */
  current: boolean;
};

/** The person's live sessions, this device first, then the most recently active. No addresses: nobody needs them here. */
export async function listOwnSessions(userId: string, currentSessionId: string, { db }: { db?: Db } = {}): Promise<OwnSession[]> {
  const database = db ?? (await getDb());
  const t = await getTranslations('account.page.sessions');
  const deviceWords = (userAgent: string | null) => {
    const { browser, system } = deviceParts(userAgent);
    if (browser && system) return t('device', { browser, system });
    return browser || system || t('unknownBrowser');
  };
  const rows = await database
    .select({
      id: staffSessions.id,
      userAgent: staffSessions.userAgent,
      createdAt: staffSessions.createdAt,
      updatedAt: staffSessions.updatedAt,
    })
    .from(staffSessions)
    .where(and(eq(staffSessions.userId, userId), gt(staffSessions.expiresAt, new Date())))
    .orderBy(desc(staffSessions.updatedAt), desc(staffSessions.createdAt));
  return rows
    .map((row) => ({
      id: row.id,
      device: deviceWords(row.userAgent),
      signedInAt: row.createdAt,
      lastActiveAt: row.updatedAt,
      current: row.id === currentSessionId,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/**
 * Ends every session of `userId` except `keepSessionId`, on every instance, and records how many
 * ended (sessions.others_ended; none recorded when there were none). Returns that number.
 */
export async function endOtherSessions(userId: string, keepSessionId: string, { db }: { db?: Db } = {}): Promise<number> {
  const database = db ?? (await getDb());
  const ended = await database.transaction(async (tx) => {
    const deleted = await tx
      .delete(staffSessions)
      .where(and(eq(staffSessions.userId, userId), ne(staffSessions.id, keepSessionId)))
      .returning({ id: staffSessions.id });
    if (deleted.length > 0) {
      await recordAudit(
        { actorId: userId, action: 'sessions.others_ended', target: { type: 'staff', id: userId }, details: { count: deleted.length } },
        tx,
      );
    }
    return deleted.length;
  });
  // Committed: the ended sessions stop working now on every instance.
  if (ended > 0) await forgetValidatedSessions(database);
  return ended;
}
