// The details of an audit entry in words, for the audit trail page: the stored details are codes
// and ids (status, decision, role, refusal reason, an export's filters), which an auditor should
// not have to decode. The CSV export keeps the codes themselves, as JSON. Pure and client-safe.
import { isStaffRole, ROLE_LABELS } from '@/lib/auth/roles';
import { purposeLabel, statusLabel } from '@/lib/verifications/labels';
import { NAME_REVIEW_DECISION_LABELS } from '@/lib/verifications/review/labels';

type Details = Record<string, unknown>;

const REASONS: Record<string, string> = {
  // Single sign-on refusals (lib/auth/single-sign-on*.ts).
  unknown: 'no staff account has the e-mail address the provider gave',
  unverified: 'the provider has not verified the e-mail address',
  disabled: 'the staff account is disabled',
  other_identity: 'another provider identity is linked to the staff account',
  // Invitations (lib/staff/invitations).
  single_sign_on: 'the account signs in with single sign-on',
  // Why a request left the register.
  retention: 'its retention period ended',
  purged: 'the service purged its data',
};

const VIEWS: Record<string, string> = {
  expiring: 'Expiring soon',
  stuck: 'Stuck',
  review: 'Needs review',
};

function decisionLabel(value: unknown): string {
  return typeof value === 'string' && value in NAME_REVIEW_DECISION_LABELS
    ? NAME_REVIEW_DECISION_LABELS[value as keyof typeof NAME_REVIEW_DECISION_LABELS]
    : String(value);
}

function roleLabel(value: unknown): string {
  return isStaffRole(value) ? ROLE_LABELS[value] : String(value);
}

/** "Completed (was Pending)": a new value and, when known, the one it replaced. */
function changed(label: (value: unknown) => string, value: unknown, previous: unknown): string {
  return previous === undefined ? label(value) : `${label(value)} (was ${label(previous)})`;
}

/** An export's filters, in the words of the page's filter fields; the search text is never stored. */
function exportFilters(details: Details): string[] {
  const words: Record<string, (value: unknown) => string> = {
    status: (value) => `status ${statusLabel(String(value))}`,
    purpose: (value) => `purpose ${value === 'custom' ? 'custom' : purposeLabel(String(value))}`,
    createdBy: (value) => (value === 'mine' ? 'created by the exporter' : `created by ${value}`),
    view: (value) => `view ${VIEWS[String(value)] ?? String(value)}`,
    search: () => 'a search',
    verification: (value) => `verification ${value}`,
    actor: (value) => `staff member ${value}`,
    action: (value) => `action ${value}`,
    from: (value) => `from ${value}`,
    to: (value) => `to ${value}`,
    // The zone the dates were read in (the filters are whole days there).
    timeZone: (value) => `days in ${value}`,
  };
  return Object.entries(details)
    .filter(([key]) => key in words)
    .map(([key, value]) => words[key]!(value));
}

function describeExport(details: Details): string {
  const rows = Number(details.rows);
  const count = `${rows.toLocaleString('en-GB')} ${rows === 1 ? 'row' : 'rows'}`;
  const filters = exportFilters(details);
  return [
    details.complete === false ? `${count}, then the download was stopped` : count,
    filters.length > 0 ? `Filters: ${filters.join(', ')}` : 'No filters',
  ].join(' · ');
}

/** Any key the rules above do not know, shown as it was stored rather than hidden. */
function plain(details: Details, known: readonly string[]): string[] {
  return Object.entries(details)
    .filter(([key]) => !known.includes(key))
    .map(([key, value]) => `${key}: ${String(value)}`);
}

/** The entry's details as a sentence fragment, or null when it has none. */
export function describeAuditDetails(action: string, details: Details | null | undefined): string | null {
  if (!details || Object.keys(details).length === 0) return null;
  if (action === 'register.exported' || action === 'audit.exported') return describeExport(details);

  const parts: string[] = [];
  const known: string[] = [];
  const take = (...keys: string[]) => known.push(...keys);
  if (action === 'verification.reviewed' && 'decision' in details) {
    parts.push(`Decision: ${changed(decisionLabel, details.decision, details.previous)}`);
    take('decision', 'previous');
  } else if ('status' in details) {
    parts.push(`Status: ${changed((value) => statusLabel(String(value)), details.status, details.previous)}`);
    take('status', 'previous');
  }
  if (action === 'staff.role_changed' && 'to' in details) {
    parts.push(`Role: ${changed(roleLabel, details.to, details.from)}`);
    take('from', 'to');
  } else if ('role' in details) {
    parts.push(`Role: ${roleLabel(details.role)}`);
    take('role');
  }
  if ('reason' in details) {
    parts.push(`Reason: ${REASONS[String(details.reason)] ?? String(details.reason)}`);
    take('reason');
  }
  if (action === 'sessions.others_ended' && 'count' in details) {
    const count = Number(details.count);
    parts.push(`${count} other ${count === 1 ? 'session' : 'sessions'} ended`);
    take('count');
  }
  if (action === 'sessions.oldest_ended' && 'count' in details) {
    const count = Number(details.count);
    parts.push(`${count} oldest ${count === 1 ? 'session' : 'sessions'} ended: a new sign-in went past the limit of live sessions`);
    take('count');
  }
  parts.push(...plain(details, known));
  return parts.join(' · ');
}
