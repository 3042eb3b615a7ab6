// The dashboard's entry point to the identity-verification service: `createVerification` and
// `getVerification` with the configured base URL and key, plus the contract's types and schemas,
// the error class and its staff-facing descriptions.
import 'server-only';
import { getServiceConfig } from '@/lib/env';
import { createVerificationServiceClient } from './client';
import type { SandboxOutboxMessage, SandboxWebhooks } from './schemas';
import type { CreateVerificationRequest, CreateVerificationResult, VerificationRecord } from './types';

// The client is rebuilt per call on purpose: it is a few closures, and the configuration may be
// filled in late (instrumentation provisions the sandbox after modules are loaded), so nothing
// here may capture it at import time.

/** POST /v1/verifications/new. Never retried; see client.ts. */
export async function createVerification(body: CreateVerificationRequest): Promise<CreateVerificationResult> {
  return createVerificationServiceClient(getServiceConfig()).createVerification(body);
}

/** GET /v1/verifications/{id}, retried briefly on gateway errors and timeouts, all within one deadline (readDeadlineMs). */
export async function getVerification(id: string): Promise<VerificationRecord> {
  return createVerificationServiceClient(getServiceConfig()).getVerification(id);
}

/** Sandbox only: GET /v1/sandbox/outbox, the messages the embedded sandbox would have sent. */
export async function getSandboxOutbox(): Promise<SandboxOutboxMessage[]> {
  return createVerificationServiceClient(getServiceConfig()).getSandboxOutbox();
}

/** Sandbox only: GET /v1/sandbox/webhooks, our endpoints and the latest events with every attempt. */
export async function getSandboxWebhooks(): Promise<SandboxWebhooks> {
  return createVerificationServiceClient(getServiceConfig()).getSandboxWebhooks();
}

export {
  createVerificationServiceClient,
  normalizeVerificationId,
  readDeadlineMs,
  type VerificationServiceClient,
  type VerificationServiceClientConfig,
} from './client';
export { verificationStatuses } from './contract/verification-status';
export {
  httpStatusFor,
  isRetryableRead,
  isTransient,
  isVerificationServiceError,
  VerificationServiceError,
  type VerificationServiceErrorKind,
  verificationServiceErrorKinds,
} from './errors';
export { describeReadError, type ServiceErrorDescription } from './messages';
export {
  createVerificationRequestSchema,
  createVerificationResultSchema,
  e164PhoneNumberPattern,
  predefinedPurposes,
  type SandboxOutboxMessage,
  type SandboxWebhookMessage,
  type SandboxWebhooks,
  verificationLanguages,
  verificationRecordSchema,
  verificationStatusSchema,
} from './schemas';
export type {
  CreateVerificationRequest,
  CreateVerificationResult,
  VerificationLanguage,
  VerificationRecord,
  VerificationStatus,
} from './types';
