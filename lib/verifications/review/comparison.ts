// Whether a completed request needs a name review: how the identified name compares with the
// requested one, wherever it is shown or stored. Pure and client-safe (the detail page's live
// part decides from the record it has just refetched); the review's words are in labels.ts.
import { compareNames, type NameComparison } from './name-match';

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
