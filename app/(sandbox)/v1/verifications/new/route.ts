// Sandbox API: POST /v1/verifications/new creates a verification request (contract §4.1).
import { createVerificationRoute, getNewAsIdRoute } from '@/lib/sandbox/api/routes';

export const dynamic = 'force-dynamic';

export const POST = createVerificationRoute;

// A GET here is a read of the id "new", which is not a valid id: 400, as for any other.
export const GET = getNewAsIdRoute;
