// Why a request is in the queue. Client-safe: the page's words build on the same list.

/** In the order the page lists the counts: what is decided on first, then what is running out. */
export const QUEUE_REASONS = ['name_mismatch', 'failed', 'expired', 'expiring', 'stale'] as const;
export type QueueReason = (typeof QUEUE_REASONS)[number];
