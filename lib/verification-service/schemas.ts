// Zod schemas of the identity-verification service contract (docs/service-contract.md, §2): the creation
// request we send, and the creation result and verification record we accept back.
//
// Responses are parsed liberally, because the dashboard must work against any implementation of
// the contract, not just the embedded sandbox: ids are opaque strings, unknown
// `verification_method` values pass through, unknown extra fields are dropped (z.object strips,
// it does not reject). What stays strict is what the dashboard's logic depends on: the four
// statuses and timestamps it can actually compare.
import 'server-only';
import { z } from 'zod';
import { verificationStatuses } from './contract/verification-status';

export const verificationLanguages = ['en', 'fr', 'nl'] as const;
/** The contract's predefined purposes (§2.1); any other free text is also a valid `chosenPurpose`. */
export const predefinedPurposes = ['legal_obligations', 'processing_gdpr_request', 'ensuring_compliance'] as const;

/** §8: a plus sign, a first digit 1-9, then 1 to 14 further digits. */
export const e164PhoneNumberPattern = /^\+[1-9]\d{1,14}$/;

// No transforms or defaults here: the client sends the body exactly as the caller built it, and
// the defaults of §2.1 (smsNotification false, emailNotification true, …) belong to the service.
export const createVerificationRequestSchema = z
  .object({
    email: z.email().optional(),
    name: z.string().min(1),
    chosenPurpose: z.string().min(1),
    phonenumber: z.string().regex(e164PhoneNumberPattern).optional(),
    smsNotification: z.boolean().optional(),
    language: z.enum(verificationLanguages),
    shareableLink: z.boolean().optional(),
    emailNotification: z.boolean().optional(),
  })
  .refine((body) => body.shareableLink === true || body.email !== undefined, {
    path: ['email'],
    message: 'email is required unless shareableLink is true',
  });

/** The body of POST /v1/verifications/new (§2.1), sent as given. */
export type CreateVerificationRequest = z.input<typeof createVerificationRequestSchema>;

// Only http(s): the link is shown to staff as a clickable link and a QR code, so a `javascript:`
// or `data:` URL from a misbehaving upstream must never get that far.
const shareableLinkSchema = z.url({ protocol: /^https?$/ });

// An implementation that writes `"link": null` when there is no link means the same as omitting
// it; treating that as a protocol error would fail a create that did succeed.
export const createVerificationResultSchema = z.object({
  message: z.string(),
  verificationId: z.string().min(1),
  link: z.preprocess((value) => (value === null ? undefined : value), shareableLinkSchema.optional()),
});

/** The answer to a successful create (§2.2); `link` only when `shareableLink` was true. */
export type CreateVerificationResult = z.output<typeof createVerificationResultSchema>;

// An unknown status is a protocol error, not a pass-through: the dashboard's logic (badges,
// "may still change", retention) branches on these four and nothing else.
export const verificationStatusSchema = z.enum(verificationStatuses);

const timestampSchema = z.iso.datetime({ offset: true });

// Nullable fields also accept an absent key (→ null): omitting a null field is a common
// serialisation choice and says the same thing.
const nullableString = z
  .string()
  .nullish()
  .transform((value) => value ?? null);
const nullableTimestamp = timestampSchema.nullish().transform((value) => value ?? null);

export const verificationRecordSchema = z.object({
  inputted_name: z.string(),
  status: verificationStatusSchema,
  purpose: z.string(),
  access_expires_at: timestampSchema,
  identified_name: nullableString,
  identified_date: nullableTimestamp,
  // The contract says "not nullable" (§2.3), but the embedded sandbox answers null while a request is
  // pending (no method used yet), and other implementations may do the same.
  verification_method: nullableString,
  failed_reason: nullableString,
  kept_until: timestampSchema,
});

/** One verification as read by GET /v1/verifications/{id} (§2.3). */
export type VerificationRecord = z.output<typeof verificationRecordSchema>;
export type VerificationLanguage = (typeof verificationLanguages)[number];

/**
 * Sandbox only, not part of the service contract: GET /v1/sandbox/outbox, the e-mails and SMS
 * the embedded sandbox would have sent for the caller's company (newest first).
 */
export const sandboxOutboxSchema = z.object({
  messages: z.array(
    z.object({
      verificationId: z.string(),
      channel: z.enum(['email', 'sms']),
      recipient: z.string(),
      language: z.string(),
      link: z.url({ protocol: /^https?$/ }),
      // What the message says, in `language`: an e-mail's subject (null for an SMS) and text.
      subject: z.string().nullable().default(null),
      body: z.string().nullable().default(null),
      createdAt: timestampSchema,
    }),
  ),
});

export type SandboxOutboxMessage = z.output<typeof sandboxOutboxSchema>['messages'][number];

/**
 * Sandbox only, not part of the service contract: GET /v1/sandbox/webhooks, the caller's webhook
 * endpoints and its latest events (newest first) with each delivery and every attempt.
 */
export const sandboxWebhooksSchema = z.object({
  endpoints: z.array(
    z.object({
      id: z.string(),
      url: z.string(),
      createdAt: timestampSchema,
      disabledAt: timestampSchema.nullable(),
    }),
  ),
  messages: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      verificationId: z.string().nullable(),
      status: z.string().nullable(),
      createdAt: timestampSchema,
      deliveries: z.array(
        z.object({
          endpointId: z.string(),
          url: z.string(),
          status: z.string(),
          attemptCount: z.number().int().nonnegative(),
          nextAttemptAt: timestampSchema.nullable(),
          attempts: z.array(
            z.object({
              attemptedAt: timestampSchema,
              responseStatus: z.number().int().nullable(),
              error: z.string().nullable(),
              durationMs: z.number().int().nonnegative(),
            }),
          ),
        }),
      ),
    }),
  ),
});

export type SandboxWebhooks = z.output<typeof sandboxWebhooksSchema>;
export type SandboxWebhookMessage = SandboxWebhooks['messages'][number];
