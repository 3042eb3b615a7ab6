// The name review's words and limits: the decisions, their labels, the note's length, the words
// beside the status. Apart from name-review-labels.ts (which re-exports them), whose comparison
// brings lib/verifications/name-match.ts and its tables: the detail page's review panel and
// status need these words from the first load, the comparison stays out of it.

export const NAME_REVIEW_DECISIONS = ['same_person', 'different_person'] as const;

export const NAME_REVIEW_DECISION_LABELS = {
  same_person: 'Same person',
  different_person: 'Not the same person',
} as const satisfies Record<(typeof NAME_REVIEW_DECISIONS)[number], string>;

export type NameReviewDecision = (typeof NAME_REVIEW_DECISIONS)[number];

export const NOTE_MAX = 500;

/** The latest decision as a page hands it to the browser (the date as ISO text). */
export type ReviewSummary = { decision: NameReviewDecision; note: string; decidedAt: string; decidedByName: string | null };

/** The words beside the status: what staff still have to do, or what was decided. */
export function reviewStatusText(decision: NameReviewDecision | null): string {
  if (!decision) return 'name differs, review needed';
  return decision === 'same_person' ? 'name differs, reviewed: same person' : 'name differs, reviewed: not the same person';
}
