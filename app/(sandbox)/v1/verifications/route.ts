// Sandbox API: GET /v1/verifications and /v1/verifications/ (next.config keeps the trailing
// slash from being redirected away) are a read without an id: 400 (contract §4.2 rule 3).
import { missingVerificationIdRoute } from '@/lib/sandbox/api/routes';

export const dynamic = 'force-dynamic';

export const GET = missingVerificationIdRoute;
