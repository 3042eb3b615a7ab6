// The codes of staff's decisions in a name review, as the register stores them. Client-safe (no
// imports): the review room's words and the browser build on the same list.

export const NAME_REVIEW_DECISIONS = ['same_person', 'different_person'] as const;

export type NameReviewDecision = (typeof NAME_REVIEW_DECISIONS)[number];
