// The name review's words and limits: the decisions, their labels, the note's length, the words
// beside the status. Apart from comparison.ts, which brings name-match.ts and its tables: the
// detail page's review panel and status need these words from the first load, the comparison
// stays out of it. The decision codes themselves are the register's (lib/db).

import { NAME_REVIEW_DECISIONS, type NameReviewDecision } from '@/lib/db/name-review-decisions';

export { NAME_REVIEW_DECISIONS, type NameReviewDecision };

export const NAME_REVIEW_DECISION_LABELS = {
  same_person: 'Same person',
  different_person: 'Not the same person',
} as const satisfies Record<NameReviewDecision, string>;

export const NOTE_MAX = 500;

/** The latest decision as a page hands it to the browser (the date as ISO text). */
export type ReviewSummary = { decision: NameReviewDecision; note: string; decidedAt: string; decidedByName: string | null };

/**
 * Who may record "same person" on a request, as the reader is concerned (four-eyes principle):
 * anyone allowed to review, someone other than its creator, or not the reader, who created it.
 */
export type SameDecisionRule = 'anyone' | 'not_creator' | 'not_you';

/** The words beside the status: what staff still have to do, or what was decided. */
export function reviewStatusText(decision: NameReviewDecision | null): string {
  if (!decision) return 'name differs, review needed';
  return decision === 'same_person' ? 'name differs, reviewed: same person' : 'name differs, reviewed: not the same person';
}
