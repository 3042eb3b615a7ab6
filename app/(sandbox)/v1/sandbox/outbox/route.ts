// SANDBOX extension (not in the service contract): the company's sent messages.
import { companyOutboxRoute } from '@/lib/sandbox/api/routes';

export const dynamic = 'force-dynamic';

export const GET = companyOutboxRoute;
