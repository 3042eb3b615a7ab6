// "Look up" on the server: what lookup-input.ts reads from the pasted text, and, for a web address
// that is no detail page, the request whose person's link it is (the shareable link the service
// returned once, which the register keeps). The browser cannot know that: it sends such an address
// here (/verifications?id=…).
import 'server-only';
import { type LookupProblem, parseLookupInput } from './lookup-input';
import { findRequestByLink } from './register/queries.server';

export type LookupResult = { id: string } | { problem: LookupProblem };

const UNKNOWN_LINK = { problem: 'unknownLink' } as const;

/** The request to open for what was pasted into "Look up", or why there is none. */
export async function resolveLookup(input: string): Promise<LookupResult> {
  const lookup = parseLookupInput(input);
  if ('id' in lookup) return lookup;
  if ('problem' in lookup) return { problem: lookup.problem };
  const id = await findRequestByLink(lookup.link);
  return id === undefined ? UNKNOWN_LINK : { id };
}
