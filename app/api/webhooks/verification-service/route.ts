// The webhook receiver: the verification service (or the embedded sandbox) POSTs signed status
// events here. There is no staff session on this route — the Standard Webhooks signature is the
// authentication. Answers: 2xx once the change is stored (or it was a duplicate, or an event type
// we do not know); 4xx for a delivery that is not genuine or not readable (no state change); 5xx
// when we could not apply it now, so the sender retries. Logs carry reasons, never secrets or bodies.
import { getWebhookSecrets } from '@/lib/env';
import { logger } from '@/lib/platform/log';
import { processWebhook, WebhookProcessingError } from '@/lib/webhook-receiver/process';
import { verifyWebhookRequest, type WebhookRejection } from '@/lib/webhook-receiver/verify';

const log = logger.child({ area: 'webhooks' });

export const dynamic = 'force-dynamic';

const noStore = { 'Cache-Control': 'no-store' };

// Deliberately vague: a forger learns nothing about which check failed. The reason is logged.
const REFUSAL_MESSAGES: Record<WebhookRejection, string> = {
  not_configured: 'Webhooks are not configured.',
  missing_headers: 'Invalid webhook request.',
  malformed_headers: 'Invalid webhook request.',
  not_utf8: 'Invalid webhook request.',
  bad_timestamp: 'Invalid webhook signature.',
  stale_timestamp: 'Invalid webhook signature.',
  future_timestamp: 'Invalid webhook signature.',
  bad_signature: 'Invalid webhook signature.',
  too_large: 'Webhook body too large.',
};

export async function POST(request: Request): Promise<Response> {
  let secrets: string[];
  try {
    secrets = getWebhookSecrets();
  } catch {
    // A bad WEBHOOK_SECRET stops the server at start-up; this only guards a late change.
    log.error('WEBHOOK_SECRET is invalid');
    return Response.json({ error: 'Webhooks are not configured.' }, { status: 503, headers: noStore });
  }

  const verified = await verifyWebhookRequest(request, secrets);
  if (!verified.ok) {
    // The reason only: the headers and body of a delivery that failed verification are not trusted.
    if (verified.reason === 'not_configured') log.error('delivery refused: WEBHOOK_SECRET is not set');
    else log.warn({ reason: verified.reason }, 'delivery refused');
    return Response.json({ error: REFUSAL_MESSAGES[verified.reason] }, { status: verified.status, headers: noStore });
  }

  try {
    const outcome = await processWebhook(verified.webhookId, verified.body);
    switch (outcome.result) {
      case 'processed':
        log.info({ webhookId: verified.webhookId, verificationId: outcome.verificationId, status: outcome.status }, 'webhook applied');
        return Response.json({ status: 'processed' }, { headers: noStore });
      case 'duplicate':
        log.debug({ webhookId: verified.webhookId }, 'webhook already processed');
        return Response.json({ status: 'duplicate' }, { headers: noStore });
      case 'ignored':
        log.debug({ webhookId: verified.webhookId }, 'webhook of an unknown type ignored');
        return Response.json({ status: 'ignored' }, { headers: noStore });
      case 'invalid_payload':
        log.warn({ webhookId: verified.webhookId }, 'signed delivery with an unreadable payload');
        return Response.json({ error: 'Invalid webhook payload.' }, { status: 400, headers: noStore });
    }
  } catch (error) {
    log.error({ err: error, webhookId: verified.webhookId }, 'delivery not applied, the sender will retry');
    // 503 for an upstream we could not reach; 500 for our own failure. Both make the sender retry.
    const status = error instanceof WebhookProcessingError && error.kind !== undefined ? 503 : 500;
    return Response.json({ error: 'The event could not be processed now; retry later.' }, { status, headers: noStore });
  }
}
