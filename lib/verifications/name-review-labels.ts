// What the name review of a completed request says, wherever it is shown: whether a request
// needs one, and the words for the decisions. Pure and client-safe (the detail page's live part
// decides from the record it has just refetched).
import { compareNames, type NameComparison } from './name-match';

export const NAME_REVIEW_DECISIONS = ['same_person', 'different_person'] as const;

export const NAME_REVIEW_DECISION_LABELS = {
  same_person: 'Same person',
  different_person: 'Not the same person',
} as const satisfies Record<(typeof NAME_REVIEW_DECISIONS)[number], string>;

export type NameReviewDecision = (typeof NAME_REVIEW_DECISIONS)[number];

export const NOTE_MAX = 500;

/** The latest decision as a page hands it to the browser (the date as ISO text). */
export type ReviewSummary = { decision: NameReviewDecision; note: string; decidedAt: string; decidedByName: string | null };

/**
 * For a completed request, how the identified name compares with the requested one; null while
 * there is nothing to compare (not completed, or no name read). Only a completed verification
 * vouches for a name.
 */
export function completedNameComparison(status: string, requestedName: string, identifiedName: string | null): NameComparison | null {
  if (status !== 'completed' || !identifiedName) return null;
  return compareNames(requestedName, identifiedName);
}

/** The register's flag: true when a completed request's names differ, null when not completed. */
export function nameMismatchOf(status: string, requestedName: string, identifiedName: string | null): boolean | null {
  const comparison = completedNameComparison(status, requestedName, identifiedName);
  return comparison ? comparison.result === 'mismatch' : null;
}

// In a module of its own, for the detail page's first load (which has no use for name-match).
export { reviewStatusText } from './name-review-status';
