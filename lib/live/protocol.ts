// The wire format of the live-status stream, shared by the SSE route (server) and the browser
// hook (client). Client-safe: no server imports. Only ids and status codes travel on it, never a
// name — the stream reaches every signed-in tab, and the record itself is re-read through the
// dashboard's own authorised route.

export const LIVE_EVENTS_PATH = '/api/events';

/** `event:` name of a frame saying "verification X changed; its status is now S". */
export const VERIFICATION_EVENT = 'verification';

/**
 * `event:` name of a frame saying "you missed events we can no longer replay" (the client was
 * away longer than the replay buffer covers, or the server restarted): refetch everything.
 */
export const RESYNC_EVENT = 'resync';

export type VerificationChange = { verificationId: string; status: string };

/** Reads a `verification` frame's data; anything else (a newer or broken server) gives null. */
export function parseVerificationChange(data: string): VerificationChange | null {
  try {
    const value: unknown = JSON.parse(data);
    if (typeof value !== 'object' || value === null) return null;
    const { verificationId, status } = value as Record<string, unknown>;
    if (typeof verificationId !== 'string' || verificationId === '' || typeof status !== 'string') return null;
    return { verificationId, status };
  } catch {
    return null;
  }
}
