'use server';
// The person's page's buttons: server actions that simulate the outcome of a verification
// (completed with a method and the identified name, or failed with a reason). They are public
// POST endpoints whose only credential is the token from the link, so everything in the form
// is validated here, and they work as plain HTML forms without JavaScript: each ends with a
// redirect back to the page, which shows the result (or why nothing changed).
import 'server-only';
import { notFound, redirect } from 'next/navigation';
import { z } from 'zod';
import { isSandboxEnabled } from '@/lib/platform/sandbox-switch';
import { getSandboxDb } from '@/lib/sandbox/db';
import { completeVerification, FAILURE_REASON_CODES, failVerification, VERIFICATION_METHODS } from '@/lib/sandbox/records/lifecycle';
import { getRequestByToken } from '@/lib/sandbox/records/verifications';
import { SECRET_PATTERN } from '@/lib/sandbox/secrets';
import type { PersonActionError } from './person-page-text';

const token = z.string().regex(SECRET_PATTERN);

const completeSchema = z.object({
  token,
  method: z.enum(VERIFICATION_METHODS),
  // Same limits as the requested name (create-verification-input.ts); PostgreSQL cannot store
  // NUL, so control characters are refused here rather than failing the update with a 500.
  identifiedName: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[^\u0000-\u001f\u007f]*$/),
});

const failSchema = z.object({
  token,
  reason: z.enum(FAILURE_REASON_CODES),
});

const ERROR_OF_FIELD: Record<string, PersonActionError> = {
  method: 'method',
  identifiedName: 'name',
  reason: 'reason',
};

/** The form's fields as zod sees them: a missing field is undefined, a file is not a string. */
function fields(formData: FormData, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.map((name) => [name, formData.get(name) ?? undefined]));
}

function pagePath(validToken: string): string {
  return `/sandbox/verify/${validToken}`;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; path: string };

/**
 * Common start of both actions. A missing or malformed token has no page to go back to: 404,
 * as for the page itself. Any other invalid field goes back to the page with its error code.
 */
function parse<T extends { token: string }>(schema: z.ZodType<T>, formDataArgument: unknown, names: string[]): Parsed<T> {
  if (!isSandboxEnabled()) notFound();
  // A hand-written call may pass anything, or nothing, instead of the form: without a form
  // there is no token, so it is answered like a missing token (404) instead of a TypeError (500).
  const formData = formDataArgument instanceof FormData ? formDataArgument : new FormData();
  const rawToken = formData.get('token');
  if (!token.safeParse(rawToken).success) notFound();
  const result = schema.safeParse(fields(formData, ['token', ...names]));
  if (result.success) return { ok: true, value: result.data };
  const field = result.error.issues[0]?.path[0];
  const error = typeof field === 'string' ? ERROR_OF_FIELD[field] : undefined;
  const path = pagePath(rawToken as string);
  return { ok: false, path: error ? `${path}?error=${error}` : path };
}

/** "Complete with …": the clicked button carries the method, the text field the identified name. */
export async function completeVerificationAction(formData: FormData): Promise<void> {
  const parsed = parse(completeSchema, formData, ['method', 'identifiedName']);
  if (!parsed.ok) redirect(parsed.path);
  const { value } = parsed;
  const now = new Date();
  const db = await getSandboxDb();
  const request = await getRequestByToken(db, value.token, now);
  // An unknown, expired or used link changes nothing; the page explains which it is.
  const changed =
    request !== undefined &&
    (await completeVerification(db, {
      verificationId: request.verificationId,
      method: value.method,
      identifiedName: value.identifiedName,
      now,
    }));
  redirect(changed ? `${pagePath(value.token)}?result=completed` : pagePath(value.token));
}

/** "Fail the verification" with the chosen reason. */
export async function failVerificationAction(formData: FormData): Promise<void> {
  const parsed = parse(failSchema, formData, ['reason']);
  if (!parsed.ok) redirect(parsed.path);
  const { value } = parsed;
  const now = new Date();
  const db = await getSandboxDb();
  const request = await getRequestByToken(db, value.token, now);
  const changed =
    request !== undefined && (await failVerification(db, { verificationId: request.verificationId, reason: value.reason, now }));
  redirect(changed ? `${pagePath(value.token)}?result=failed` : pagePath(value.token));
}
