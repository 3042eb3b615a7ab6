// Following up an expired or failed request. The contract has no resend or extend: what it does
// allow is a new request, so staff start one from the old one's register row (name, purpose,
// language and channels; contact details are never kept, so they retype those) and the two
// are linked in the register. Everything here reads the register itself: an id in a URL or a
// form is the only thing taken from the browser, never the values to prefill or link.
import 'server-only';
import { asc, eq } from 'drizzle-orm';
import { getLocale, getTranslations } from 'next-intl/server';
import { getDb } from '@/lib/db';
import { verificationRequests } from '@/lib/db/schema';
import { readVerification } from '@/lib/verifications/record/read-verification.server';
import { getRegisterEntry, type RegisterEntry } from '@/lib/verifications/register/queries.server';
import { verificationIdField } from '@/lib/verifications/verification-id-field';

/** The statuses a request can be followed up from: it is over, and nobody was verified. */
export const FOLLOW_UP_STATUSES: ReadonlySet<string> = new Set(['expired', 'failed']);

export function canBeFollowedUp(status: string): boolean {
  return FOLLOW_UP_STATUSES.has(status);
}

export type FollowUpRefusal = {
  reason: 'invalid' | 'unknown' | 'not_finished';
  /** The id as it was understood (absent when it was not an id at all). */
  verificationId?: string;
  /** Says what was wrong, for staff. */
  message: string;
};

export type FollowUpCheck = { ok: true; entry: RegisterEntry } | ({ ok: false } & FollowUpRefusal);

/**
 * Whether `rawId` names a request of this dashboard's register that can be followed up. The
 * register's status may lag behind the service (an expiry needs no webhook), so a request it
 * still has as pending is read from the service once before it is refused.
 */
export async function checkFollowUp(rawId: unknown): Promise<FollowUpCheck> {
  // The refusal's words are the reader's: they are shown on the create page.
  const [t, tCommon, locale] = await Promise.all([getTranslations('detail.followUp.refusals'), getTranslations('common'), getLocale()]);
  const parsed = verificationIdField(t('invalid')).safeParse(rawId);
  if (!parsed.success) {
    return { ok: false, reason: 'invalid', message: t('invalid') };
  }
  const verificationId = parsed.data;
  let entry = await getRegisterEntry(verificationId);
  // Another company's requests, and ids never created here, are not in this register.
  if (!entry) {
    return {
      ok: false,
      reason: 'unknown',
      verificationId,
      message: t('notInRegister', { id: verificationId }),
    };
  }
  if (entry.status === 'pending') {
    const read = await readVerification(verificationId, { refresh: 'now' }).catch(() => null);
    const status = read?.ok ? read.registered : null;
    if (status && status !== entry.status) entry = (await getRegisterEntry(verificationId)) ?? entry;
  }
  if (!canBeFollowedUp(entry.status)) {
    return {
      ok: false,
      reason: 'not_finished',
      verificationId,
      message: t('notFinished', { id: verificationId, status: tCommon(`status.${entry.status}`).toLocaleLowerCase(locale) }),
    };
  }
  return { ok: true, entry };
}

export type LinkedRequest = { verificationId: string; name: string; status: string; createdAt: Date };

export type FollowUpLinks = {
  /** The request this one follows up, while the register still holds it. */
  follows: LinkedRequest | null;
  /** The requests created as follow-ups of this one, oldest first. */
  followedBy: LinkedRequest[];
};

const linkedColumns = {
  verificationId: verificationRequests.verificationId,
  name: verificationRequests.name,
  status: verificationRequests.status,
  createdAt: verificationRequests.createdAt,
};

/** Both directions of the follow-up link of one request, read from the register. */
export async function getFollowUpLinks(verificationId: string): Promise<FollowUpLinks> {
  const db = await getDb();
  const entry = await getRegisterEntry(verificationId);
  const [follows, followedBy] = await Promise.all([
    entry?.followsVerificationId
      ? db
          .select(linkedColumns)
          .from(verificationRequests)
          .where(eq(verificationRequests.verificationId, entry.followsVerificationId))
          .then((rows) => rows[0] ?? null)
      : null,
    db
      .select(linkedColumns)
      .from(verificationRequests)
      .where(eq(verificationRequests.followsVerificationId, verificationId))
      .orderBy(asc(verificationRequests.createdAt), asc(verificationRequests.verificationId)),
  ]);
  return { follows, followedBy };
}
