// Assembles one verification's evidence pack from what the Desk holds: the register's row (the
// service is asked first, so that a record it still has brings the row up to date, but the pack
// is made from the row, which outlives the service's purge), the name review, the history as
// the detail page shows it, and the audit entries behind that history with the checkpoint that
// signs them. The result is signed with the audit key (docs/evidence-pack.md). Only a finished
// request gets a pack: a pending one's story is not over.
import 'server-only';
import { eq } from 'drizzle-orm';
import { chainEntriesForTarget } from '@/lib/audit/chain/chain-rows.server';
import { checkpointCovering } from '@/lib/audit/chain/checkpoints.server';
import type { ChainEntry } from '@/lib/audit/chain/entry';
import { getAuditSigningKey, signWithAuditKey } from '@/lib/audit/chain/signing-key.server';
import { EVIDENCE_PACK_FORMAT, packDigests, packSigningText } from '@/lib/audit/chain/verify-pack';
import type { Staff } from '@/lib/auth/session';
import { getDb } from '@/lib/db';
import { staffUsers } from '@/lib/db/schema';
import type { Language } from '@/lib/i18n/languages';
import { canonicalVerificationId } from '@/lib/verification-service/contract/verification-id';
import { readVerification } from '@/lib/verifications/record/read-verification.server';
import { getRegisterEntry, type RegisterEntry } from '@/lib/verifications/register/queries.server';
import { getNameReview } from '@/lib/verifications/review/name-review.server';
import { getVerificationTimeline, type TimelineEntry, type TimelineStaff } from '@/lib/verifications/timeline/timeline.server';
import { hasEvidencePack } from './links';
import {
  DOES_NOT_KEEP,
  type EvidencePack,
  type PackAuditReference,
  type PackHistoryFact,
  type PackHistoryItem,
  type PackStaff,
  type PackVerification,
  type ServiceRecordState,
} from './pack-format';

/** Why no pack is made: the request is not in this Desk's register, or it is not finished. */
export type PackRefusal = { reason: 'not_in_register' } | { reason: 'not_finished'; status: string };

export type PackResult = { ok: true; pack: EvidencePack } | ({ ok: false } & PackRefusal);

/** The pack of `rawId` for `staff`, written for their language and zone; a refusal as a value. */
export async function buildEvidencePack(
  rawId: string,
  staff: Pick<Staff, 'id' | 'name'>,
  { language, timeZone, now = new Date() }: { language: Language; timeZone: string; now?: Date },
): Promise<PackResult> {
  const id = canonicalVerificationId(rawId);
  // An id this Desk never created costs the service nothing.
  if (!(await getRegisterEntry(id))) return { ok: false, reason: 'not_in_register' };
  // The service's answer brings the register's row up to date before the row is read again.
  const serviceRecord = await askService(id);
  const entry = await getRegisterEntry(id);
  if (!entry) return { ok: false, reason: 'not_in_register' };
  if (!hasEvidencePack(entry.status)) return { ok: false, reason: 'not_finished', status: entry.status };

  const [review, timeline, auditEntries, creatorName, key] = await Promise.all([
    getNameReview(id),
    getVerificationTimeline(id),
    // The pack's own downloads are left out (here and from the history below): they say nothing
    // about the verification, and would make a PDF and a JSON taken a moment apart differ.
    getDb().then(async (db) => (await chainEntriesForTarget(db, 'verification', id)).filter((e) => e.action !== 'evidence.downloaded')),
    entry.createdBy ? staffName(entry.createdBy) : null,
    getAuditSigningKey(),
  ]);
  const highestSeq = auditEntries.reduce((highest, auditEntry) => Math.max(highest, auditEntry.seq), 0);
  const checkpoint = await checkpointCovering(highestSeq);

  const verification: PackVerification = {
    ...requestFacts(entry),
    createdBy: entry.createdBy ? { id: entry.createdBy, name: creatorName } : null,
    nameReview: review
      ? {
          decision: review.decision,
          decidedAt: review.decidedAt.toISOString(),
          decidedBy: review.decidedById ? { id: review.decidedById, name: review.decidedByName } : null,
        }
      : null,
    serviceRecord,
  };
  const unsigned = {
    format: EVIDENCE_PACK_FORMAT,
    generatedAt: now.toISOString(),
    generatedBy: { id: staff.id, name: staff.name },
    language,
    timeZone,
    verification,
    history: timeline.entries
      .filter((line) => !(line.kind === 'other' && line.action === 'evidence.downloaded'))
      .map((line) => historyItem(line, auditEntries)),
    historyTruncated: timeline.truncated,
    auditEntries,
    checkpoint,
    publicKey: { fingerprint: key.fingerprint, pem: key.publicKeyPem },
    doesNotKeep: [...DOES_NOT_KEEP],
  };
  const withDigests = { ...unsigned, digests: packDigests(unsigned) };
  const { keyFingerprint, signature } = await signWithAuditKey(packSigningText(withDigests));
  return { ok: true, pack: { ...withDigests, signature: { keyFingerprint, value: signature } } };
}

/**
 * The pack as the downloaded file: indented for a person to read. A verifier parses it and
 * signs nothing as written: the signature is over the canonical form, which any layout parses to.
 */
export function evidencePackJson(pack: EvidencePack): string {
  return `${JSON.stringify(pack, null, 2)}\n`;
}

async function askService(id: string): Promise<ServiceRecordState> {
  const read = await readVerification(id, { refresh: 'now' });
  if (read.ok) return 'read';
  return read.failure.kind === 'not_found' ? 'purged' : 'unavailable';
}

async function staffName(id: string): Promise<string | null> {
  const db = await getDb();
  const [row] = await db.select({ name: staffUsers.name }).from(staffUsers).where(eq(staffUsers.id, id));
  return row?.name ?? null;
}

function requestFacts(entry: RegisterEntry): Omit<PackVerification, 'createdBy' | 'nameReview' | 'serviceRecord'> {
  return {
    id: entry.verificationId,
    requestedName: entry.name,
    purpose: entry.purpose,
    personLanguage: entry.language,
    channels: { shareableLink: entry.shareableLink, email: entry.emailNotification, sms: entry.smsNotification },
    createdAt: entry.createdAt.toISOString(),
    status: entry.status,
    identifiedName: entry.identifiedName,
    identifiedAt: entry.completedAt?.toISOString() ?? null,
    method: entry.method,
    failureReason: entry.failureReason,
    keptUntil: entry.keptUntil?.toISOString() ?? null,
  };
}

const who = (staff: TimelineStaff | null): PackStaff | null => (staff ? { id: staff.id, name: staff.name } : null);

/** One line of the history, with the audit entries it was read from. */
function historyItem(line: TimelineEntry, entries: readonly ChainEntry[]): PackHistoryItem {
  const base = { at: line.at.toISOString(), until: null as string | null, audit: auditReferences(line, entries) };
  const item = (event: string, by: TimelineStaff | null, facts: Record<string, PackHistoryFact>): PackHistoryItem => ({
    ...base,
    event,
    by: who(by),
    facts,
  });
  switch (line.kind) {
    case 'created':
      return item('created', line.staff, {
        shareableLink: line.channels?.shareableLink ?? null,
        email: line.channels?.emailNotification ?? null,
        sms: line.channels?.smsNotification ?? null,
        personLanguage: line.language,
      });
    case 'status_changed':
      return item('status_changed', null, {
        status: line.status,
        previous: line.previous,
        viaWebhook: line.viaWebhook,
        failureReason: line.failureReason,
      });
    case 'service_notice':
      return { ...item('service_notice', null, { eventType: line.eventType, count: line.count }), until: line.until.toISOString() };
    case 'viewed':
      return { ...item('viewed', line.staff, { count: line.count }), until: line.until.toISOString() };
    case 'link_copied':
      return item('link_copied', line.staff, {});
    case 'reviewed':
      return item('reviewed', line.staff, { decision: line.decision, previous: line.previous });
    case 'note_added':
      // Never the note's text: it stays on the Desk (it may name people).
      return item('note_added', line.staff, { correction: line.corrects !== null });
    case 'assigned':
      return item('assigned', line.staff, { assignee: who(line.assignee), previous: who(line.previous) });
    case 'unassigned':
      return item('unassigned', line.staff, { previous: who(line.previous), reason: line.reason });
    case 'other':
      return item('other', line.staff, { action: line.action });
  }
}

const reference = (entry: ChainEntry): PackAuditReference => ({ id: entry.id, seq: entry.seq, hash: entry.hash });

/**
 * The audit entries a history line was read from: the one its key names, every view a folded
 * line of views stands for, the creation's and a note's own entries (those lines are told from
 * the register, and link to the audit trail when it still has them).
 */
function auditReferences(line: TimelineEntry, entries: readonly ChainEntry[]): PackAuditReference[] {
  if (!line.inAuditTrail) return [];
  if (line.kind === 'viewed' && line.count > 1 && line.staff) {
    const from = line.at.getTime();
    const until = line.until.getTime();
    const actor = line.staff.id;
    return entries
      .filter((entry) => {
        const at = new Date(entry.at).getTime();
        return entry.action === 'verification.viewed' && entry.actorId === actor && at >= from && at <= until;
      })
      .map(reference);
  }
  const auditId = line.key.startsWith('audit:') ? line.key.slice('audit:'.length) : null;
  const found = auditId
    ? entries.find((entry) => entry.id === auditId)
    : line.kind === 'created'
      ? entries.find((entry) => entry.action === 'verification.created')
      : line.kind === 'note_added'
        ? entries.find((entry) => entry.action === 'verification.note_added' && entry.details?.noteId === line.noteId)
        : undefined;
  return found ? [reference(found)] : [];
}
