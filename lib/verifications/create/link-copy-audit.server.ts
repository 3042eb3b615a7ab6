// The audit trail's "link copied" entries. The copy itself happens in the browser; the server
// is only told about it, by a server action anyone signed in as an operator can call with any
// argument. So an entry is written only for a verification in this dashboard's register that
// has a shareable link (what a copy button can show), and each staff member may report a limited
// number of copies per minute: the trail cannot be filled with made-up ids or flooded.
import 'server-only';
import { recordAudit } from '@/lib/audit/audit';
import { getRegisterEntry } from '@/lib/verifications/register/queries.server';
import { dashboardRateLimiter } from './rate-limit-events.server';

/** Well above a person copying links by hand, one button press at a time. */
export const LINK_COPY_RATE_LIMIT_PER_MINUTE = 30;
const MINUTE_MS = 60_000;

export const NO_SHAREABLE_LINK = 'This dashboard has no shareable link for that verification id; nothing was recorded.';

// Shared by the instances (rate-limit-events.server.ts): the limit is per person, not per instance.
const linkCopyLimiter = () => dashboardRateLimiter({ name: 'link-copy', limit: LINK_COPY_RATE_LIMIT_PER_MINUTE, windowMs: MINUTE_MS });

export type LinkCopyAnswer = { ok: true } | { ok: false; error: string };

/** Records that `staffId` copied the shareable link of `verificationId`, if that link exists. */
export async function recordLinkCopy(staffId: string, verificationId: string, now?: number): Promise<LinkCopyAnswer> {
  // Counted before the register is asked: a made-up id uses a slot too, so guessing is slow.
  const decision = await linkCopyLimiter().take(staffId, { now });
  if (!decision.allowed) {
    const seconds = decision.retryAfterSeconds;
    return {
      ok: false,
      error: `Too many copied links reported: ${decision.limit} in the last minute. Wait ${seconds} ${seconds === 1 ? 'second' : 'seconds'}; nothing was recorded.`,
    };
  }
  const entry = await getRegisterEntry(verificationId);
  if (!entry?.link) return { ok: false, error: NO_SHAREABLE_LINK };
  await recordAudit({ actorId: staffId, action: 'link.copied', target: { type: 'verification', id: entry.verificationId } });
  return { ok: true };
}
