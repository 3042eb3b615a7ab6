// The body of POST /v1/verifications/new (contract §2.1 and §4.1): which fields exist, their types,
// defaults and rules, and the one message a caller gets back, which always names the field.
import 'server-only';
import { z } from 'zod';

export const LANGUAGES = ['en', 'fr', 'nl'] as const;
export type Language = (typeof LANGUAGES)[number];

/** E.164: a plus sign, a first digit 1-9, up to 15 digits in total (contract §8). */
export const E164_PATTERN = /^\+[1-9]\d{1,14}$/;

/** The fields of contract §2.1, in the contract's order, which is also the order problems are reported in. */
export const CREATE_VERIFICATION_FIELDS = [
  'email',
  'name',
  'chosenPurpose',
  'phonenumber',
  'smsNotification',
  'language',
  'shareableLink',
  'emailNotification',
] as const;

type Field = (typeof CREATE_VERIFICATION_FIELDS)[number];

const missingOr = (field: Field, wrongType: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `${field} is required` : `${field} ${wrongType}`;

// Control characters have no place in a name, and PostgreSQL refuses NUL in text outright (a
// 500 waiting to happen); a free-text purpose may keep its line breaks and tabs.
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;
const NO_CONTROL_CHARACTERS_BUT_LINES = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;

const text = (field: Field, { required }: { required: boolean }) =>
  z.string({ error: required ? missingOr(field, 'must be a string') : `${field} must be a string` });

const flag = (field: Field) => z.boolean({ error: `${field} must be a boolean` });

export const createVerificationSchema = z
  .strictObject({
    email: text('email', { required: false })
      .trim()
      .max(254, 'email must be at most 254 characters')
      .pipe(z.email({ error: 'email must be a valid e-mail address' }))
      .optional(),
    name: text('name', { required: true })
      .trim()
      .min(1, 'name must not be empty')
      .max(200, 'name must be at most 200 characters')
      .regex(NO_CONTROL_CHARACTERS, 'name must not contain control characters'),
    // Free text: the predefined values (legal_obligations, processing_gdpr_request,
    // ensuring_compliance) are merely common ones, so any non-empty text is accepted.
    chosenPurpose: text('chosenPurpose', { required: true })
      .trim()
      .min(1, 'chosenPurpose must not be empty')
      .max(500, 'chosenPurpose must be at most 500 characters')
      .regex(NO_CONTROL_CHARACTERS_BUT_LINES, 'chosenPurpose must not contain control characters'),
    phonenumber: text('phonenumber', { required: false })
      .regex(E164_PATTERN, 'phonenumber must be in E.164 format, e.g. +32470123456')
      .optional(),
    smsNotification: flag('smsNotification').default(false),
    language: z.enum(LANGUAGES, { error: missingOr('language', 'must be one of en, fr, nl') }),
    shareableLink: flag('shareableLink').default(false),
    emailNotification: flag('emailNotification').default(true),
  })
  .superRefine((input, ctx) => {
    // Contract §4.1 rule 1: with a shareable link the caller delivers it, so no e-mail address is needed.
    if (!input.shareableLink && input.email === undefined) {
      ctx.addIssue({ code: 'custom', path: ['email'], message: 'email is required unless shareableLink is true' });
    }
    if (input.smsNotification && input.phonenumber === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['phonenumber'],
        message: 'phonenumber is required when smsNotification is true',
      });
    }
  });

export type CreateVerificationInput = z.output<typeof createVerificationSchema>;

export type ParseResult = { ok: true; value: CreateVerificationInput } | { ok: false; error: string };

const knownFields = new Set<string>(CREATE_VERIFICATION_FIELDS);

/** Validates a parsed JSON body; the error, when there is one, is a single message naming the field. */
export function parseCreateVerificationInput(body: unknown): ParseResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, error: 'Request body must be a JSON object' };
  }
  // Checked here rather than left to zod: JSON.parse turns "__proto__" and "constructor" into
  // ordinary own keys, and this check sees exactly the keys the caller sent.
  const unknown = Object.keys(body).find((key) => !knownFields.has(key));
  if (unknown !== undefined) return { ok: false, error: `Unknown field: ${unknown}` };

  const result = createVerificationSchema.safeParse(body);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, error: messageOf(result.error.issues[0]) };
}

function messageOf(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'Request body is invalid';
  if (issue.code === 'unrecognized_keys') return `Unknown field: ${issue.keys[0] ?? ''}`;
  const field = typeof issue.path[0] === 'string' ? issue.path[0] : undefined;
  if (!field) return 'Request body is invalid';
  // Every message above names its field; this guards against one that a future rule forgets to.
  return issue.message.startsWith(`${field} `) ? issue.message : `${field} is invalid`;
}
