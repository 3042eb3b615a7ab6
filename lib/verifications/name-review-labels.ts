// What the name review of a completed request says, wherever it is shown: whether a request
// needs one, and the words for the decisions. Pure and client-safe (the detail page's live part
// decides from the record it has just refetched).
import { compareNames, type NameComparison } from './name-match';

// The words and limits, in a module without the comparison (see name-review-status.ts).
export {
  NAME_REVIEW_DECISION_LABELS,
  NAME_REVIEW_DECISIONS,
  type NameReviewDecision,
  NOTE_MAX,
  type ReviewSummary,
  reviewStatusText,
} from './name-review-status';

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
