// Sandbox API: GET /v1/verifications/{id} reads one verification record (contract §4.2).
import { getVerificationRoute } from '@/lib/sandbox/api/routes';

export const dynamic = 'force-dynamic';

export const GET = getVerificationRoute;
