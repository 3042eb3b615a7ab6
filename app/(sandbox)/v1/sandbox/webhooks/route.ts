// SANDBOX extension (not in the service contract): the company's webhook endpoints and deliveries.
import { companyWebhooksRoute } from '@/lib/sandbox/webhook-sender/api';

export const dynamic = 'force-dynamic';

export const GET = companyWebhooksRoute;
