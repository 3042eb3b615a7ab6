// The TypeScript types of the identity-verification service contract. They are inferred from the
// zod schemas in schemas.ts (so the two cannot drift apart) and gathered here for callers that
// want types without touching the schemas. The status is the exception: client components need
// it too, so it is defined in the client-safe contract/verification-status.ts.
import 'server-only';

export type { VerificationStatus } from './contract/verification-status';
export type {
  CreateVerificationRequest,
  CreateVerificationResult,
  VerificationLanguage,
  VerificationRecord,
} from './schemas';
