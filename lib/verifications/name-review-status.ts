// The words beside a completed request's status while its names differ. Apart from
// name-review-labels.ts, which compares names: the detail page shows these words from its first
// load, while the comparison (lib/verifications/name-match.ts and its tables) stays out of it.
import type { NameReviewDecision } from './name-review-labels';

/** What staff still have to do, or what was decided. */
export function reviewStatusText(decision: NameReviewDecision | null): string {
  if (!decision) return 'name differs, review needed';
  return decision === 'same_person' ? 'name differs, reviewed: same person' : 'name differs, reviewed: not the same person';
}
