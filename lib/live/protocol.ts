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

/**
 * In the browser, the one stream connection (components/live) re-announces each change as a DOM
 * event on `window`, so the parts of a page that hold the data (a React Query cache on the detail
 * page) can react without every page having to load React Query. `detail` is the changed
 * verification's id, or null after a resync (anything may have changed).
 */
export const BROWSER_CHANGE_EVENT = 'verification-desk:change';

export type BrowserChangeDetail = { verificationId: string | null };

export function announceChange(verificationId: string | null): void {
  window.dispatchEvent(new CustomEvent<BrowserChangeDetail>(BROWSER_CHANGE_EVENT, { detail: { verificationId } }));
}

/** Calls `listener` for every announced change; returns the unsubscribe function. */
export function onAnnouncedChange(listener: (verificationId: string | null) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<BrowserChangeDetail>).detail?.verificationId ?? null);
  window.addEventListener(BROWSER_CHANGE_EVENT, handler);
  return () => window.removeEventListener(BROWSER_CHANGE_EVENT, handler);
}
