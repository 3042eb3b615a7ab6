// The words of a request's history (lib/verifications/timeline/timeline.server.ts): what happened, who did it,
// and what else is worth knowing, for each kind of entry. Pure and client-safe.
import { AUDIT_ACTIONS, isAuditAction } from '@/lib/audit/audit-labels';
import { channelsLabel } from '@/lib/verifications/channels';
import { languageLabel, statusLabel } from '@/lib/verifications/labels';
import { NAME_REVIEW_DECISION_LABELS } from '@/lib/verifications/review/labels';
import type { TimelineEntry, TimelineStaff } from './timeline.server';

/** How an account that no longer exists is named: its id means nothing to a reader. */
export const FORMER_COLLEAGUE = 'a former colleague';

export type TimelineEntryText = {
  title: string;
  /** "by Ada Admin"; null when nobody on the staff acted (the service did). */
  by: string | null;
  detail: string | null;
};

const SERVICE_NOTICES: Record<string, string> = {
  'verification.created': 'request created',
  'verification.completed': 'completed',
  'verification.failed': 'failed',
  'verification.expired': 'expired',
  'verification.purged': 'data purged',
};

export function staffText(staff: TimelineStaff | null): string | null {
  if (!staff) return null;
  return `by ${staff.name ?? FORMER_COLLEAGUE}`;
}

export function describeTimelineEntry(entry: TimelineEntry): TimelineEntryText {
  switch (entry.kind) {
    case 'created': {
      const parts = [
        entry.channels ? `Sent by: ${channelsLabel(entry.channels)}` : null,
        entry.language ? `Language: ${languageLabel(entry.language)}` : null,
      ].filter((part): part is string => part !== null);
      return { title: 'Request created', by: staffText(entry.staff), detail: parts.length > 0 ? parts.join(' · ') : null };
    }
    case 'status_changed':
      return {
        title: `Status changed to ${statusLabel(entry.status)}`,
        by: null,
        detail: [
          entry.previous ? `Was ${statusLabel(entry.previous)}` : null,
          entry.viaWebhook ? 'Reported by the service' : 'Seen when the record was read',
        ]
          .filter((part): part is string => part !== null)
          .join(' · '),
      };
    case 'service_notice':
      return {
        title: `Notice from the service: ${SERVICE_NOTICES[entry.eventType] ?? entry.eventType}`,
        by: null,
        detail: 'Nothing changed here: the status was already up to date',
      };
    case 'viewed':
      return { title: 'Viewed', by: staffText(entry.staff), detail: null };
    case 'link_copied':
      return { title: 'Link copied', by: staffText(entry.staff), detail: null };
    case 'reviewed':
      return {
        title: entry.decision ? `Name review: ${NAME_REVIEW_DECISION_LABELS[entry.decision]}` : 'Name review recorded',
        by: staffText(entry.staff),
        detail: entry.previous ? `Replaces: ${NAME_REVIEW_DECISION_LABELS[entry.previous]}` : null,
      };
    case 'other':
      return {
        title: isAuditAction(entry.action) ? AUDIT_ACTIONS[entry.action] : 'Recorded in the audit trail',
        by: staffText(entry.staff),
        detail: null,
      };
  }
}
