// The service's webhook event types a history says in words (detail.timeline.notices.*), shared by
// the detail page and the evidence pack's PDF. Client-safe. Another type is shown as it came.
const SERVICE_NOTICES = ['created', 'completed', 'failed', 'expired', 'purged'] as const;

export type ServiceNotice = (typeof SERVICE_NOTICES)[number];

/** `verification.completed` → `completed`; null for a type without words of its own. */
export function serviceNoticeOf(eventType: string): ServiceNotice | null {
  if (!eventType.startsWith('verification.')) return null;
  const notice = eventType.slice('verification.'.length);
  return (SERVICE_NOTICES as readonly string[]).includes(notice) ? (notice as ServiceNotice) : null;
}
