// An audit entry's details as the audit trail page shows them: the reader's words, and each staff
// member's name marked translate="no" so that a browser's translation leaves people's names alone.
import type { AuditDetailsPart } from '@/lib/audit-trail/details';

export function AuditDetailsText({ parts }: { parts: readonly AuditDetailsPart[] | null }) {
  if (!parts) return null;
  return parts.map((part, i) =>
    // The parts never change order within a render, so their position is a stable key.
    'name' in part ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: see above
      <span key={i} translate="no">
        {part.name}
      </span>
    ) : (
      part.text
    ),
  );
}
