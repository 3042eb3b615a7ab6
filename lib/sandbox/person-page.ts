// What the person's page (/sandbox/verify/<token>) shows for a token: the request, or why the
// link cannot be used. Kept apart from the page so it can be tested without rendering.
import 'server-only';
import type { Language } from './create-verification-input';
import { getSandboxDb } from './db';
import { pageLanguage, purposeLabel } from './person-page-text';
import { getRequestByToken } from './verifications';

export type PersonPageState =
  | { kind: 'invalid' }
  | { kind: 'expired'; language: Language }
  | { kind: 'closed'; language: Language }
  | {
      kind: 'pending';
      language: Language;
      companyName: string;
      name: string;
      purpose: string;
      accessExpiresAt: Date;
    };

export async function getPersonPageState(token: string, now: Date = new Date()): Promise<PersonPageState> {
  const db = await getSandboxDb();
  const request = await getRequestByToken(db, token, now);
  if (!request) return { kind: 'invalid' };
  const language = pageLanguage(request.language);
  if (request.status === 'expired') return { kind: 'expired', language };
  if (request.status !== 'pending') return { kind: 'closed', language };
  return {
    kind: 'pending',
    language,
    companyName: request.companyName,
    name: request.name,
    purpose: purposeLabel(request.purpose, language),
    accessExpiresAt: request.accessExpiresAt,
  };
}
