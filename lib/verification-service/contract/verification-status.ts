// The statuses a verification can have under the service contract, defined once for the whole
// dashboard: the service client's schema, the register, the labels and the browser all derive
// from these. Client-safe (no imports at all), because client components need them too and the
// rest of lib/verification-service is server-only. The sandbox keeps its own copy on purpose: it is the
// other side of the HTTP contract and must not import the dashboard.

export const verificationStatuses = ['pending', 'completed', 'expired', 'failed'] as const;

export type VerificationStatus = (typeof verificationStatuses)[number];

/** A verification in one of these states stays there: the service never reopens a finished one. */
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set<VerificationStatus>(['completed', 'failed', 'expired']);
