// What the person's page (/sandbox/verify/<token>) shows for a token: the request with its
// simulated outcomes, the result of the outcome just chosen, or why the link cannot be used.
// Kept apart from the page so it can be tested without rendering.
import 'server-only';
import type { Language } from '@/lib/sandbox/api/create-verification-input';
import { getSandboxDb } from '@/lib/sandbox/db';
import { failureReasonCode } from '@/lib/sandbox/records/lifecycle';
import { getRequestByToken } from '@/lib/sandbox/records/verifications';
import { type PersonActionError, pageLanguage, personPageText, purposeLabel } from './person-page-text';

export type PersonPageState =
  | { kind: 'invalid' }
  | { kind: 'expired'; language: Language }
  /** Completed or failed earlier: the link has been used. */
  | { kind: 'closed'; language: Language }
  /** Completed by the form just submitted on this page. */
  | { kind: 'completed'; language: Language }
  /** Failed by the form just submitted on this page; `reason` in the page's language. */
  | { kind: 'failed'; language: Language; reason: string }
  | {
      kind: 'pending';
      language: Language;
      companyName: string;
      name: string;
      purpose: string;
      accessExpiresAt: Date;
      error?: PersonActionError;
    };

/** The page's query after a form was submitted: `?result=completed|failed` or `?error=<code>`. */
export type PersonPageQuery = { result?: string | string[]; error?: string | string[] };

const ERRORS: readonly PersonActionError[] = ['name', 'method', 'reason'];

function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * The query only chooses between wordings of the record's real state: `?result=completed` on
 * a failed or pending request shows nothing special, so a crafted address cannot make the
 * page claim an outcome that did not happen.
 */
export async function getPersonPageState(
  token: string,
  { now = new Date(), query = {} }: { now?: Date; query?: PersonPageQuery } = {},
): Promise<PersonPageState> {
  const db = await getSandboxDb();
  const request = await getRequestByToken(db, token, now);
  if (!request) return { kind: 'invalid' };
  const language = pageLanguage(request.language);
  const result = single(query.result);
  switch (request.status) {
    case 'expired':
      return { kind: 'expired', language };
    case 'completed':
      return result === 'completed' ? { kind: 'completed', language } : { kind: 'closed', language };
    case 'failed': {
      if (result !== 'failed') return { kind: 'closed', language };
      const code = failureReasonCode(request.failedReason);
      const reason = code ? personPageText(language).reasons[code] : (request.failedReason ?? '');
      return { kind: 'failed', language, reason };
    }
    case 'pending': {
      const error = ERRORS.find((code) => code === single(query.error));
      return {
        kind: 'pending',
        language,
        companyName: request.companyName,
        name: request.name,
        purpose: purposeLabel(request.purpose, language),
        accessExpiresAt: request.accessExpiresAt,
        ...(error ? { error } : {}),
      };
    }
  }
}
