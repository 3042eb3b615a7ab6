// The TypeScript types of the identity-verification service contract. They are inferred from the
// zod schemas in schemas.ts (so the two cannot drift apart) and gathered here for callers that
// want types without touching the schemas; both paths export the same types.
import 'server-only';

export type {
  CreateVerificationRequest,
  CreateVerificationResult,
  VerificationLanguage,
  VerificationRecord,
  VerificationStatus,
} from './schemas';
