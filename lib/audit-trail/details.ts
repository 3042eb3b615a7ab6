// The details of an audit entry in words, for the audit trail page: the stored details are codes
// and ids (status, decision, role, refusal reason, an export's filters), which an auditor should
// not have to decode. The words are the reader's (messages/<language>/audit.json, `details`, and
// the shared words of common.json); the audit trail itself keeps the codes, and so does the CSV
// export, as JSON. Server-side: the page asks for a describer once and applies it to every entry.
import { getTranslations } from 'next-intl/server';
import { isStaffRole } from '@/lib/auth/roles';
import { NAME_REVIEW_DECISIONS } from '@/lib/db/name-review-decisions';
import { verificationStatuses } from '@/lib/verification-service/contract/verification-status';
import { isPredefinedPurpose } from '@/lib/verifications/labels';

type Details = Record<string, unknown>;

export type DescribeAuditDetails = (action: string, details: Details | null | undefined) => string | null;

const REASONS = [
  // Single sign-on refusals (lib/auth/single-sign-on*.ts).
  'unknown',
  'unverified',
  'disabled',
  'other_identity',
  // Invitations (lib/staff/invitations).
  'single_sign_on',
  // Why a request left the register.
  'retention',
  'purged',
  // Why a request went back to unassigned (lib/staff/staff-accounts.ts).
  'staff_disabled',
  'staff_role_changed',
] as const;

const VIEWS = ['expiring', 'stuck', 'review'] as const;

/** Where an invitation was refused (lib/staff/invitations). */
const INVITATION_STEPS = ['issue', 'accept'] as const;

/** How a second-factor code was given at sign-in (lib/auth/two-factor/sign-in-challenge.ts). */
const CHALLENGE_METHODS = ['totp', 'backup'] as const;

function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (list as readonly string[]).includes(value);
}

/**
 * Where the note an entry of `verification.note_added` recorded is shown: in the Notes section
 * of its request's page, which keeps it as long as the request. Null for any other entry.
 */
export function auditNoteHref(entry: { action: string; targetType: string | null; targetId: string | null; details: Details | null }) {
  const noteId = entry.details?.noteId;
  if (entry.action !== 'verification.note_added' || entry.targetType !== 'verification' || !entry.targetId) return null;
  if (typeof noteId !== 'string') return null;
  return `/verifications/${encodeURIComponent(entry.targetId)}#note-${encodeURIComponent(noteId)}`;
}

/** The describer of entries' details, in the language of the request (or of the test). */
export async function auditDetailsDescriber(): Promise<DescribeAuditDetails> {
  const [t, tCommon] = await Promise.all([getTranslations('audit.details'), getTranslations('common')]);

  const statusLabel = (value: unknown) => (isOneOf(verificationStatuses, value) ? tCommon(`status.${value}`) : String(value));
  const decisionLabel = (value: unknown) =>
    isOneOf(NAME_REVIEW_DECISIONS, value) ? tCommon(`nameReviewDecision.${value}`) : String(value);
  const roleLabel = (value: unknown) => (isStaffRole(value) ? tCommon(`roles.${value}`) : String(value));
  const purposeLabel = (value: unknown) => {
    const code = String(value);
    if (code === 'custom') return t('filter.customPurpose');
    return isPredefinedPurpose(code) ? tCommon(`purpose.${code}`) : code;
  };
  const viewLabel = (value: unknown) => (isOneOf(VIEWS, value) ? t(`views.${value}`) : String(value));
  const reasonLabel = (value: unknown) => (isOneOf(REASONS, value) ? t(`reasons.${value}`) : String(value));

  /** "Completed (was Pending)": a new value and, when known, the one it replaced. */
  const changed = (label: (value: unknown) => string, value: unknown, previous: unknown): string =>
    previous === undefined ? label(value) : t('changed', { value: label(value), previous: label(previous) });

  /** An export's filters, in the words of the page's filter fields; the search text is never stored. */
  const exportFilters = (details: Details): string[] => {
    const words: Record<string, (value: unknown) => string> = {
      status: (value) => t('filter.status', { value: statusLabel(value) }),
      purpose: (value) => t('filter.purpose', { value: purposeLabel(value) }),
      createdBy: (value) => (value === 'mine' ? t('filter.createdByExporter') : t('filter.createdBy', { value: String(value) })),
      view: (value) => t('filter.view', { value: viewLabel(value) }),
      search: () => t('filter.search'),
      verification: (value) => t('filter.verification', { value: String(value) }),
      actor: (value) => t('filter.actor', { value: String(value) }),
      action: (value) => t('filter.action', { value: String(value) }),
      from: (value) => t('filter.from', { value: String(value) }),
      to: (value) => t('filter.to', { value: String(value) }),
      // The zone the dates were read in (the filters are whole days there).
      timeZone: (value) => t('filter.timeZone', { value: String(value) }),
      // The overview's download: its period (a code), how many days it spans, and two more filters.
      period: (value) => t('filter.period', { value: String(value) }),
      days: (value) => t('filter.days', { days: Number(value) }),
      language: (value) => t('filter.language', { value: String(value) }),
      channel: (value) => t('filter.channel', { value: String(value) }),
    };
    return Object.entries(details)
      .filter(([key]) => key in words)
      .map(([key, value]) => words[key]!(value));
  };

  const describeExport = (details: Details): string => {
    const rows = t('export.rows', { rows: Number(details.rows) });
    const filters = exportFilters(details);
    return [
      details.complete === false ? t('export.stopped', { rows }) : rows,
      filters.length > 0 ? t('export.filters', { filters: filters.join(', ') }) : t('export.noFilters'),
    ].join(' · ');
  };

  /** Any key the rules above do not know, shown as it was stored rather than hidden. */
  const plain = (details: Details, known: readonly string[]): string[] =>
    Object.entries(details)
      .filter(([key]) => !known.includes(key))
      .map(([key, value]) => t('stored', { key, value: String(value) }));

  return (action, details) => {
    if (!details || Object.keys(details).length === 0) return null;
    if (action === 'register.exported' || action === 'audit.exported' || action === 'overview.exported') return describeExport(details);

    const parts: string[] = [];
    const known: string[] = [];
    const take = (...keys: string[]) => known.push(...keys);
    if (action === 'verification.reviewed' && 'decision' in details) {
      parts.push(t('decision', { value: changed(decisionLabel, details.decision, details.previous) }));
      take('decision', 'previous');
    } else if ('status' in details) {
      parts.push(t('status', { value: changed(statusLabel, details.status, details.previous) }));
      take('status', 'previous');
    }
    if (action === 'staff.role_changed' && 'to' in details) {
      parts.push(t('role', { value: changed(roleLabel, details.to, details.from) }));
      take('from', 'to');
    } else if ('role' in details) {
      parts.push(t('role', { value: roleLabel(details.role) }));
      take('role');
    }
    // Assignees are staff ids, as the actor is: the page shows them as it shows the actor's id.
    if (action === 'verification.assigned' && 'assignee' in details) {
      parts.push(t('assignee', { value: changed(String, details.assignee, details.previous) }));
      take('assignee', 'previous');
    } else if (action === 'verification.unassigned' && 'previous' in details) {
      parts.push(t('previousAssignee', { value: String(details.previous) }));
      take('previous');
    }
    // A note's ids mean nothing to a reader: whether it corrects an earlier one does (the page
    // links to the note itself, see auditNoteHref).
    if (action === 'verification.note_added' && 'noteId' in details) {
      parts.push('correctsNoteId' in details ? t('note.correction') : t('note.new'));
      take('noteId', 'correctsNoteId');
    }
    if ('reason' in details) {
      parts.push(t('reason', { value: reasonLabel(details.reason) }));
      take('reason');
    }
    if (action === 'invitation.refused' && isOneOf(INVITATION_STEPS, details.step)) {
      parts.push(t(`invitationStep.${details.step}`));
      take('step');
    }
    if (action === 'two_factor.failed') {
      if (isOneOf(CHALLENGE_METHODS, details.method)) {
        parts.push(t(`challengeMethod.${details.method}`));
        take('method');
      }
      if (typeof details.inARow === 'number') {
        parts.push(t('wrongCodesInARow', { count: details.inARow }));
        take('inARow');
      }
    }
    if (action === 'two_factor.locked' && typeof details.minutes === 'number') {
      parts.push(t('lockedFor', { minutes: details.minutes }));
      take('minutes');
    }
    if (action === 'sessions.others_ended' && 'count' in details) {
      parts.push(t('othersEnded', { count: Number(details.count) }));
      take('count');
    }
    if (action === 'sessions.oldest_ended' && 'count' in details) {
      parts.push(t('oldestEnded', { count: Number(details.count) }));
      take('count');
    }
    parts.push(...plain(details, known));
    return parts.join(' · ');
  };
}
