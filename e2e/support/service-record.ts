// What the stand-in services of the browser tests answer for a read: a pending record with
// all nine fields of the contract (§2.3), dated from now.
const DAY_MS = 24 * 60 * 60 * 1000;

export function pendingRecord(name: string, now = Date.now()) {
  return {
    inputted_name: name,
    status: 'pending',
    purpose: 'legal_obligations',
    access_expires_at: new Date(now + 7 * DAY_MS).toISOString(),
    identified_name: null,
    identified_date: null,
    verification_method: null,
    failed_reason: null,
    kept_until: new Date(now + 30 * DAY_MS).toISOString(),
  };
}
