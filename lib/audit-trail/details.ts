// The details of an audit entry in words, for the audit trail page: the stored details are codes
// and ids (status, decision, role, refusal reason, an assignee, an export's filters), which an
// auditor should not have to decode. The words are the reader's (messages/<language>/audit.json,
// `details`, and the shared words of common.json); the audit trail itself keeps the codes and ids,
// and so does the CSV export, as JSON. Staff ids are said as the person's current name, from the
// names the page already holds; the result is a list of parts so that the page can mark each name
// translate="no" (user data) while the words around it stay translatable. Server-side: the page
// asks for a describer once and applies it to every entry.
import { getTranslations } from 'next-intl/server';
import { isStaffRole } from '@/lib/auth/roles';
import { NAME_REVIEW_DECISIONS } from '@/lib/db/name-review-decisions';
import { verificationStatuses } from '@/lib/verification-service/contract/verification-status';
import { isPredefinedPurpose } from '@/lib/verifications/labels';
import { MINE, UNASSIGNED } from '@/lib/verifications/register/filter';

type Details = Record<string, unknown>;

/** A run of the reader's words, or a staff member's name (user data, not to be translated). */
export type AuditDetailsPart = { text: string } | { name: string };

/** Staff names by id: the accounts the page already listed. */
export type StaffNames = ReadonlyMap<string, string>;

export type DescribeAuditDetails = (action: string, details: Details | null | undefined, names: StaffNames) => AuditDetailsPart[] | null;

// Where a name goes in the formatted words: a private-use character, the name's index, another.
// The messages take plain values (ICU formats them), so a name is passed as this marker and the
// finished text is cut at the markers afterwards. The private-use characters never occur in the
// catalogs, and are taken out of stored values first so that none can pass for a marker.
const NAME_OPEN = '\uE000';
const NAME_CLOSE = '\uE001';
const NAME_MARKER = /\uE000(\d+)\uE001/;
const MARKER_CHARACTERS = /[\uE000\uE001]/g;

/** The details with no marker character in any text value. */
function withoutMarkers(details: Details): Details {
  return Object.fromEntries(
    Object.entries(details).map(([key, value]) => [key, typeof value === 'string' ? value.replace(MARKER_CHARACTERS, '') : value]),
  );
}

/** The formatted text cut into words and names, `names[i]` standing where marker i was. */
function toParts(text: string, names: readonly string[]): AuditDetailsPart[] {
  const pieces = text.split(NAME_MARKER);
  const parts: AuditDetailsPart[] = [];
  pieces.forEach((piece, i) => {
    // split() with a capturing group puts each marker's index at the odd positions.
    const name = i % 2 === 1 ? names[Number(piece)] : undefined;
    if (name !== undefined) parts.push({ name });
    else if (piece !== '' && i % 2 === 0) parts.push({ text: piece });
  });
  return parts;
}

/** The parts as plain text (for tests, and anything that cannot mark names). */
export function auditDetailsText(parts: readonly AuditDetailsPart[] | null): string | null {
  return parts === null ? null : parts.map((part) => ('name' in part ? part.name : part.text)).join('');
}

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
  const exportFilters = (details: Details, staffLabel: (value: unknown) => string, names: StaffNames): string[] => {
    const words: Record<string, (value: unknown) => string> = {
      status: (value) => t('filter.status', { value: statusLabel(value) }),
      purpose: (value) => t('filter.purpose', { value: purposeLabel(value) }),
      createdBy: (value) => (value === MINE ? t('filter.createdByExporter') : t('filter.createdBy', { value: staffLabel(value) })),
      assignee: (value) =>
        value === MINE
          ? t('filter.assignedToExporter')
          : value === UNASSIGNED
            ? t('filter.unassigned')
            : t('filter.assignee', { value: staffLabel(value) }),
      view: (value) => t('filter.view', { value: viewLabel(value) }),
      search: () => t('filter.search'),
      verification: (value) => t('filter.verification', { value: String(value) }),
      // "staff member a former colleague" reads badly: an account gone has words of its own.
      actor: (value) =>
        typeof value === 'string' && names.has(value) ? t('filter.actor', { value: staffLabel(value) }) : t('filter.actorFormer'),
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

  const describeExport = (details: Details, staffLabel: (value: unknown) => string, names: StaffNames): string => {
    const rows = t('export.rows', { rows: Number(details.rows) });
    const filters = exportFilters(details, staffLabel, names);
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

  return (action, details, names) => {
    if (!details || Object.keys(details).length === 0) return null;
    // The names this entry shows, in the order their markers were handed out.
    const shown: string[] = [];
    const staffLabel = (value: unknown): string => {
      const name = typeof value === 'string' ? names.get(value) : undefined;
      // An id no account has any more is said as such, never printed: ids mean nothing to a reader.
      if (name === undefined) return t('formerColleague');
      shown.push(name);
      return `${NAME_OPEN}${shown.length - 1}${NAME_CLOSE}`;
    };
    const words = inWords(action, withoutMarkers(details), staffLabel, names);
    return toParts(words, shown);
  };

  function inWords(action: string, details: Details, staffLabel: (value: unknown) => string, names: StaffNames): string {
    if (
      action === 'register.exported' ||
      action === 'audit.exported' ||
      action === 'audit.chain_exported' ||
      action === 'overview.exported'
    )
      return describeExport(details, staffLabel, names);

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
    // Assignees are stored as staff ids; the reader sees who they are today.
    if (action === 'verification.assigned' && 'assignee' in details) {
      parts.push(t('assignee', { value: changed(staffLabel, details.assignee, details.previous) }));
      take('assignee', 'previous');
    } else if (action === 'verification.unassigned' && 'previous' in details) {
      parts.push(t('previousAssignee', { value: staffLabel(details.previous) }));
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
    // An evidence pack's format is a file type (pdf, json): said as stored.
    if (action === 'evidence.downloaded' && 'format' in details) {
      parts.push(t('format', { value: String(details.format).toUpperCase() }));
      take('format');
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
  }
}
